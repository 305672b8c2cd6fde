"""Row softmax in C: rows across OpenMP threads; per row a SIMD max, one SIMD sweep writing exp(x - max) and
summing it (vectorised polynomial exp, ~1e-7 relative error), then a scale by 1/sum while the row is in cache."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_softmax = c_function(Path(__file__).with_name('softmax.c'), 'softmax_rows')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        D = x.shape[-1]
        y = torch.empty_like(x)
        if x.numel(): _softmax(x, y, x.numel() // D, D)
        return y
