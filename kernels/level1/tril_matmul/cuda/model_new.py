"""tril(A @ B) for lower-triangular A, B with a custom tiled SGEMM that computes only the lower output tiles and, for
tile (I, J), only the k-range [J*128, (I+1)*128) where both factors can be non-zero: about 1/6 of the dense GEMM's
flops. Tiles are scheduled longest-first; float32 FFMA (no TF32); the upper triangle stays as allocated zeros."""
# Algorithmic rewrite: the inputs are lower triangular (get_inputs applies torch.tril), so (A @ B)[i, j] only sums
# k in [j, i]; the kernel skips the zero upper triangle of the output and the zero blocks of A and B.
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_tril_mm = cuda_kernel(Path(__file__).with_name('tril_mm.cu'), 'tril_mm')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N = A.shape[0]
        C = torch.zeros(N, N, device=A.device, dtype=A.dtype)
        nt = cdiv(N, 128)
        if N: _tril_mm(nt * (nt + 1) // 2, 256, A, B, C, N, nt)
        return C
