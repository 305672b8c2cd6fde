"""Layer normalisation over the last dimension with affine weights: `nn.LayerNorm(HIDDEN)(x)` on (BATCH, SEQ, HIDDEN).

The weight and bias are drawn at random in the constructor so that a kernel which ignores them fails.
"""
import torch
import torch.nn as nn

BATCH = 32
SEQ = 4096
HIDDEN = 2048
# cal: cpu-size BATCH=16 SEQ=128 HIDDEN=1024


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)
        with torch.no_grad():
            self.ln.weight.uniform_(0.5, 1.5)
            self.ln.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.ln(x)


def get_inputs():
    return [torch.randn(BATCH, SEQ, HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
