"""Batched matrix multiplication: `torch.bmm(A, B)` for A of shape (BATCH, M, K) and B of shape (BATCH, K, N)."""
import torch
import torch.nn as nn

BATCH = 128
M = 512
K = 1024
N = 1024
# cal: cpu-size BATCH=8 M=128 K=256 N=256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


def get_inputs():
    return [torch.randn(BATCH, M, K), torch.randn(BATCH, K, N)]


def get_init_inputs():
    return []
