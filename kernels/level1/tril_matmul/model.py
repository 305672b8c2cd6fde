"""Product of two lower-triangular matrices, kept lower-triangular: `torch.tril(torch.matmul(A, B))` for (N, N) A, B.

A and B are lower triangular (get_inputs builds them with torch.tril), so the product is too; the reference still
runs a dense N^3 GEMM, while only k in [j, i] contributes to entry (i, j).
"""
import torch
import torch.nn as nn

N = 4096
# cal: cpu-size N=512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.tril(torch.matmul(A, B))


def get_inputs():
    return [torch.tril(torch.randn(N, N)), torch.tril(torch.randn(N, N))]


def get_init_inputs():
    return []
