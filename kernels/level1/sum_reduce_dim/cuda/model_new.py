"""Sum over a dimension in one CUDA kernel on x viewed as (outer, R, inner). For inner > 1 (this task) a block of
32 x 16 threads covers 32 float4 columns (512 contiguous bytes per warp and row), the 16 thread rows split R with
4 loads in flight each, and the partial sums meet in shared memory (scalar-column variant when inner % 4 != 0);
for inner == 1 a warp per row with a shuffle reduction. One read of x, one write of the result."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('reduce_sum.cu')
_sum_cols4 = cuda_kernel(_HERE, 'sum_cols4')
_sum_cols = cuda_kernel(_HERE, 'sum_cols')
_sum_rows = cuda_kernel(_HERE, 'sum_rows')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        outer, R, inner = math.prod(x.shape[:d]), x.shape[d], math.prod(x.shape[d + 1:])
        y = torch.empty(*x.shape[:d], 1, *x.shape[d + 1:], device=x.device, dtype=x.dtype)
        if y.numel() == 0: return y
        if inner == 1: _sum_rows(cdiv(outer, 8), 256, x, y, outer, R)
        elif inner % 4 == 0 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            _sum_cols4((cdiv(inner // 4, 32), min(outer, 65535)), (32, 16), x, y, outer, R, inner)
        else: _sum_cols((cdiv(inner, 32), min(outer, 65535)), (32, 16), x, y, outer, R, inner)
        return y
