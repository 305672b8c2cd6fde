"""Matrix-vector product in C: rows across OpenMP threads, four rows per SIMD sweep sharing each loaded slice of
the vector; one read of A."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_matvec = c_function(Path(__file__).with_name('matvec.c'), 'matvec')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        M, K = A.shape
        y = torch.empty(M, 1, dtype=A.dtype)
        if M: _matvec(A, B, y, M, K)
        return y
