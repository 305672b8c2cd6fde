"""Matrix-vector product in one CUDA kernel: a block per 4 rows of A streams them with 16-byte loads, reusing each
loaded float4 of the vector for the 4 rows (x stays in L2); warp-shuffle + shared-memory reduction per row.
Bandwidth-bound: one read of A."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_matvec = cuda_kernel(Path(__file__).with_name('matvec.cu'), 'matvec')
ROWS_PER_BLOCK = 4


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        M, K = A.shape
        y = torch.empty(M, 1, device=A.device, dtype=A.dtype)
        if M: _matvec(cdiv(M, ROWS_PER_BLOCK), 256, A, B, y, M, K)
        return y
