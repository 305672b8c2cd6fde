"""tril(A @ B) for lower-triangular A, B in C: 16-column strips across OpenMP threads, each with a packed copy of
its non-zero rows of B and 4 x 16 register-blocked accumulators that sum only k in [j0, i0 + 3] (about N^3/6
multiply-adds instead of the dense N^3); blocks above the diagonal are zero-filled."""
# Algorithmic rewrite: the inputs are lower triangular (get_inputs applies torch.tril), so (A @ B)[i, j] only sums
# k in [j, i]; the zero blocks of A, B and of the output are never touched.
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_tril_mm = c_function(Path(__file__).with_name('tril_mm.c'), 'tril_mm')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N = A.shape[0]
        C = torch.empty(N, N, dtype=A.dtype)
        if N: _tril_mm(A, B, C, N)
        return C
