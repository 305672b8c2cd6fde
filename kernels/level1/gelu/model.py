"""Elementwise GELU activation (exact, erf form): `F.gelu(x)` on a (BATCH, DIM) tensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
DIM = 65536
# cal: cpu-size BATCH=512 DIM=4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
