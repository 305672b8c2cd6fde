"""Max reduction over the last dimension: `torch.max(x, dim=2).values` on a (B, R, C) tensor with an odd C."""
import torch
import torch.nn as nn

B = 64
R = 2048
C = 2047
# cal: cpu-size B=16 R=256 C=511


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.max(x, dim=self.dim).values


def get_inputs():
    return [torch.randn(B, R, C)]


def get_init_inputs():
    return [2]
