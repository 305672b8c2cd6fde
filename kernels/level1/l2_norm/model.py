"""Row-wise L2 normalisation: `x / torch.norm(x, p=2, dim=1, keepdim=True)` on a (BATCH, DIM) tensor."""
import torch
import torch.nn as nn

BATCH = 16384
DIM = 16384
# cal: cpu-size BATCH=512 DIM=4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x / torch.norm(x, p=2, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH, DIM)]


def get_init_inputs():
    return []
