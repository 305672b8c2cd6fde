"""Diagonal matrix times a matrix: `torch.diag(A) @ B` for a vector A of shape (N,) and a matrix B of shape (N, M).

The reference materialises the dense N x N diagonal matrix and runs a full GEMM (2*N*N*M flops) although the
result is only each row of B scaled by one entry of A (the CUDA Agent paper's 73x case study).
"""
import torch
import torch.nn as nn

N = 4096
M = 4096
# cal: cpu-size N=512 M=512


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.diag(A) @ B


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []
