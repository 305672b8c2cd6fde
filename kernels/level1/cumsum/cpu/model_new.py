"""Row cumsum in C: eight rows scanned together through 8 x 16 transposed tiles, so each column step is one 8-wide
SIMD add of the eight running sums (instead of a latency-bound chain per row); groups of rows
across OpenMP threads; one read and one write of the data."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_cumsum = c_function(Path(__file__).with_name('cumsum.c'), 'cumsum_rows')


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        if self.dim % x.dim() != x.dim() - 1:
            raise ValueError(f"cumsum kernel scans the last dimension only, got dim={self.dim} for a {x.dim()}-d input")
        n = x.shape[-1]
        y = torch.empty_like(x)
        if x.numel(): _cumsum(x, y, x.numel() // n, n)
        return y
