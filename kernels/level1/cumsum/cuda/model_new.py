"""Row cumsum in one CUDA kernel, a block per row: chunks of 4 * 256 elements, a register scan of 4 values per thread,
warp scans with __shfl_up_sync, one shared-memory step for the warp totals, a running carry across chunks and a
prefetch of the next chunk; float4 I/O. One read and one write of the data."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_cumsum = cuda_kernel(Path(__file__).with_name('cumsum.cu'), 'cumsum_rows')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        if self.dim % x.dim() != x.dim() - 1:
            raise ValueError(f"cumsum kernel scans the last dimension only, got dim={self.dim} for a {x.dim()}-d input")
        n = x.shape[-1]
        y = torch.empty_like(x)
        if x.numel(): _cumsum(x.numel() // n, min(256, 32 * cdiv(cdiv(n, 4), 32)), x, y, n)
        return y
