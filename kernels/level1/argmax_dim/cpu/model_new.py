"""Argmax over a dimension in C on x viewed as (outer, R, inner): (outer, column-block) tasks across OpenMP threads,
each scanning row slices in memory order with a block of running (max, index) pairs in L1; first maximum wins ties.
int64 output like torch.argmax."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_argmax_dim = c_function(Path(__file__).with_name('argmax.c'), 'argmax_dim')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        d = self.dim % x.dim()
        outer, R, inner = math.prod(x.shape[:d]), x.shape[d], math.prod(x.shape[d + 1:])
        y = torch.empty(*x.shape[:d], *x.shape[d + 1:], dtype=torch.int64)
        if y.numel(): _argmax_dim(x, y, outer, R, inner)
        return y
