"""Max over a dimension in one CUDA kernel on x viewed as (outer, R, inner): for inner == 1 (this task), a warp per
row with coalesced (float4 when aligned) loads and a shuffle reduction; for inner > 1, warps read 32 adjacent columns
while 8 thread rows split R and meet in shared memory. One read of x, one write of the result; NaN propagates."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('reduce_max.cu')
_max_rows = cuda_kernel(_HERE, 'max_rows')
_max_cols = cuda_kernel(_HERE, 'max_cols')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        outer, R, inner = math.prod(x.shape[:d]), x.shape[d], math.prod(x.shape[d + 1:])
        y = torch.empty(*x.shape[:d], *x.shape[d + 1:], device=x.device, dtype=x.dtype)
        if y.numel() == 0: return y
        if inner == 1: _max_rows(cdiv(outer, 8), 256, x, y, outer, R)
        else: _max_cols((cdiv(inner, 32), min(outer, 65535)), (32, 8), x, y, outer, R, inner)
        return y
