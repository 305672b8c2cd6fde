"""Batched transpose in one CUDA kernel: 32 x 32 shared-memory tiles (padded against bank conflicts), coalesced
reads of x's rows and coalesced writes of y's rows, bounds-checked edges; one read and one write of the data."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_transpose = cuda_kernel(Path(__file__).with_name('transpose.cu'), 'transpose_batched')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        B, M, N = x.shape
        y = torch.empty(B, N, M, device=x.device, dtype=x.dtype)
        if y.numel(): _transpose((cdiv(N, 32), cdiv(M, 32), B), (32, 8), x, y, M, N)
        return y
