"""Row L2 normalisation in C: rows across OpenMP threads; a SIMD sum of squares, then one SIMD sweep writing
x / ||x|| while the row is in cache."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_l2_norm = c_function(Path(__file__).with_name('l2_norm.c'), 'l2_norm_rows')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        if x.numel(): _l2_norm(x, y, x.shape[0], x.shape[1])
        return y
