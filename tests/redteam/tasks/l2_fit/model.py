"""A matrix-vector product whose weight fits in an H200's L2: y = W @ x, W of shape (N, K) = 16 MiB, x of shape (K,).

A red-team task for L2 residency (tests/redteam/cuda/c10*). Every call reads the whole 16 MiB weight and little else,
so a candidate that keeps the weight in L2 from one timed call to the next (persisting lines) would be timed on L2
reads instead of memory reads. The input rotates between calls; the weight, like any parameter, does not.
"""
import torch
import torch.nn as nn

N = 4096
K = 1024


class Model(nn.Module):
    def __init__(self, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(N, K) / K ** 0.5)

    def forward(self, x):
        return self.weight @ x


def get_inputs():
    return [torch.randn(K)]


def get_init_inputs():
    return [N, K]
