"""Softmax along the last dimension: `torch.softmax(x, dim=-1)` on a (BATCH, DIM) tensor."""
import torch
import torch.nn as nn

BATCH = 8192
DIM = 32768
# cal: cpu-size BATCH=256 DIM=4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
