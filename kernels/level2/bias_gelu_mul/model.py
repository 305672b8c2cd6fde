"""GeGLU gate: add a bias, split the features in two halves a and g, return a * gelu(g)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH_SIZE = 16
SEQ_LEN = 2048
HIDDEN = 4096                  # output features; the input has 2 * HIDDEN
# cal: cpu-size BATCH_SIZE=4 SEQ_LEN=128 HIDDEN=512


class Model(nn.Module):
    "Bias add, chunk into value and gate halves, exact-erf GELU on the gate, elementwise product"
    def __init__(self, hidden):
        super().__init__()
        self.bias = nn.Parameter(0.5 * torch.randn(2 * hidden))

    def forward(self, x):
        h = x + self.bias
        a, g = h.chunk(2, dim=-1)
        return a * F.gelu(g)


def get_inputs():
    return [torch.randn(BATCH_SIZE, SEQ_LEN, 2 * HIDDEN)]


def get_init_inputs():
    return [HIDDEN]
