"""Inclusive prefix sum along dim 1: `torch.cumsum(x, dim=1)` on a (BATCH, N) tensor."""
import torch
import torch.nn as nn

BATCH = 16384
N = 16384
# cal: cpu-size BATCH=512 N=4096


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


def get_inputs():
    return [torch.randn(BATCH, N)]


def get_init_inputs():
    return [1]
