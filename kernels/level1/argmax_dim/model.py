"""Index of the maximum over one dimension: `torch.argmax(x, dim=1)` on a (B, R, C) tensor (int64 output)."""
import torch
import torch.nn as nn

B = 32
R = 2048
C = 4095
# cal: cpu-size B=8 R=256 C=255


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.argmax(x, dim=self.dim)


def get_inputs():
    return [torch.randn(B, R, C)]


def get_init_inputs():
    return [1]
