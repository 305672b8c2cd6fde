"""Max over a dimension in C on x viewed as (outer, R, inner): for inner == 1 (this task), rows across OpenMP threads,
each a SIMD max (a NaN found by a cheap side sum sends the row to an exact scalar scan); for inner > 1, row slices
folded into an L1-resident block of maxima. One read of x."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_max_dim = c_function(Path(__file__).with_name('reduce_max.c'), 'max_dim')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        outer, R, inner = math.prod(x.shape[:d]), x.shape[d], math.prod(x.shape[d + 1:])
        y = torch.empty(*x.shape[:d], *x.shape[d + 1:], dtype=x.dtype)
        if y.numel(): _max_dim(x, y, outer, R, inner)
        return y
