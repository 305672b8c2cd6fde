"""Argmax over a dimension in one CUDA kernel on x viewed as (outer, R, inner): for inner > 1 (this task), warps
read 32 adjacent columns (coalesced) while 16 thread rows split R with 4 loads in flight each, and their
(value, index) pairs meet in shared memory; for inner == 1, a warp per row with a shuffle reduction. Lowest index
wins ties; int64 output like torch.argmax."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('argmax.cu')
_argmax_cols = cuda_kernel(_HERE, 'argmax_cols')
_argmax_rows = cuda_kernel(_HERE, 'argmax_rows')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        outer, R, inner = math.prod(x.shape[:d]), x.shape[d], math.prod(x.shape[d + 1:])
        y = torch.empty(*x.shape[:d], *x.shape[d + 1:], device=x.device, dtype=torch.int64)
        if y.numel() == 0: return y
        if inner == 1: _argmax_rows(cdiv(outer, 8), 256, x, y, outer, R)
        else: _argmax_cols((cdiv(inner, 32), min(outer, 65535)), (32, 16), x, y, outer, R, inner)
        return y
