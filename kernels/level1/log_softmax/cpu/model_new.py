"""Row log-softmax in C: rows across OpenMP threads; per row a SIMD max, a SIMD sum of exp(x - max) (vectorised
polynomial exp, ~1e-7 relative error), then y = x - (max + log(sum)) while the row is in cache."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_log_softmax = c_function(Path(__file__).with_name('log_softmax.c'), 'log_softmax_rows')


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        if self.dim % x.dim() != x.dim() - 1:
            raise ValueError(f"log_softmax kernel reduces the last dimension only, got dim={self.dim} for a {x.dim()}-d input")
        D = x.shape[-1]
        y = torch.empty_like(x)
        if x.numel(): _log_softmax(x, y, x.numel() // D, D)
        return y
