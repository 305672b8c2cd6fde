"""Sum reduction over one dimension, keeping it: `torch.sum(x, dim=1, keepdim=True)` on a (B, R, C) tensor."""
import torch
import torch.nn as nn

B = 32
R = 4096
C = 2048
# cal: cpu-size B=16 R=512 C=1024


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)


def get_inputs():
    return [torch.randn(B, R, C)]


def get_init_inputs():
    return [1]
