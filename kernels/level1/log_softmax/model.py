"""Log-softmax along dim 1: `torch.log_softmax(x, dim=1)` on a (BATCH, DIM) tensor."""
import torch
import torch.nn as nn

BATCH = 16384
DIM = 16384
# cal: cpu-size BATCH=512 DIM=2048


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.log_softmax(x, dim=self.dim)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return [1]
