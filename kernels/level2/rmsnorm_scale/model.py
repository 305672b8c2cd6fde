"""RMSNorm over the last dimension followed by a learned per-feature scale: rms_norm(x) * weight * scale."""
import torch
import torch.nn as nn

BATCH_SIZE = 32
SEQ_LEN = 2048
HIDDEN = 4096
# cal: cpu-size BATCH_SIZE=8 SEQ_LEN=256 HIDDEN=1024


class Model(nn.Module):
    "nn.RMSNorm (with its own weight) then multiplication by a second learned scale vector"
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.norm = nn.RMSNorm(hidden, eps=eps)
        self.scale = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))
        with torch.no_grad(): self.norm.weight.normal_(1.0, 0.2)   # non-trivial, so it is checked

    def forward(self, x):
        return self.norm(x) * self.scale


def get_inputs():
    return [torch.randn(BATCH_SIZE, SEQ_LEN, HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
