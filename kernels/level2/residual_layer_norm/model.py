"""Residual add then LayerNorm over the last dimension: LayerNorm(x + y)."""
import torch
import torch.nn as nn

BATCH_SIZE = 32
SEQ_LEN = 2048
HIDDEN = 4096
# cal: cpu-size BATCH_SIZE=8 SEQ_LEN=256 HIDDEN=1024


class Model(nn.Module):
    "LayerNorm of the sum of a hidden state and its residual"
    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)
        with torch.no_grad():                       # a non-trivial affine, so it is checked
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x, residual):
        return self.norm(x + residual)


def get_inputs():
    return [torch.randn(BATCH_SIZE, SEQ_LEN, HIDDEN), torch.randn(BATCH_SIZE, SEQ_LEN, HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
