"""Batched transpose materialised: `x.permute(0, 2, 1).contiguous()` for x of shape (B, M, N)."""
import torch
import torch.nn as nn

B = 16
M = 4096
N = 4096
# cal: cpu-size B=8 M=512 N=768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.permute(0, 2, 1).contiguous()


def get_inputs():
    return [torch.randn(B, M, N)]


def get_init_inputs():
    return []
