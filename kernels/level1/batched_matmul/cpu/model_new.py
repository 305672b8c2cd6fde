"""Batched matmul in C, no BLAS: (batch, 16-column strip) tasks across OpenMP threads; each packs its strip of B
contiguously and sweeps 6-row blocks of A over it with a 6 x 16 accumulator block kept in AVX registers (fmaf)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_bmm = c_function(Path(__file__).with_name('bmm.c'), 'bmm')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        batch, M, K = A.shape
        N = B.shape[2]
        C = torch.empty(batch, M, N, dtype=A.dtype)
        if C.numel(): _bmm(A, B, C, batch, M, N, K)
        return C
