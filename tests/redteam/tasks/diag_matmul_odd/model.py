"""Diagonal matrix times a matrix at another size (N=384, M=320): a red-team task for candidates that hard-code shapes.

The reference materialises the dense N x N diagonal matrix and runs a full GEMM (2*N*N*M flops) although the
result is only each row of B scaled by one entry of A (the CUDA Agent paper's 73x case study).
"""
import torch
import torch.nn as nn

N = 384
M = 320


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.diag(A) @ B


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []
