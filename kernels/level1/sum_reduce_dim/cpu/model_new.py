"""Sum over a dimension in C on x viewed as (outer, R, inner): for inner > 1, (outer, column-block) tasks across
OpenMP threads add contiguous row slices into an L1-resident accumulator in SIMD (x read once, in memory order);
for inner == 1, one SIMD reduction per row."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_sum_dim = c_function(Path(__file__).with_name('reduce_sum.c'), 'sum_dim')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        outer, R, inner = math.prod(x.shape[:d]), x.shape[d], math.prod(x.shape[d + 1:])
        y = torch.empty(*x.shape[:d], 1, *x.shape[d + 1:], dtype=x.dtype)
        if y.numel(): _sum_dim(x, y, outer, R, inner)
        return y
