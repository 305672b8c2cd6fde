"""diag(A) @ B as a row scaling in C: out[i, j] = A[i] * B[i, j], rows across OpenMP threads, columns in SIMD."""
# Algorithmic rewrite: diag(A) @ B == A[:, None] * B, so the O(N*N*M) GEMM becomes an O(N*M) scaling.
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N, M = B.shape
        out = torch.empty_like(B)
        _row_scale(A, B, out, N, M)
        return out
