"""LayerNorm in C: rows across OpenMP threads; per row one SIMD sweep of shifted sum and sum of squares (32 partial
sums, no latency-bound chain), then one SIMD sweep writing (x - mean) * rstd * w + b while the row is in L1; the
weights stay in `self.ln`."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_layer_norm = c_function(Path(__file__).with_name('layer_norm.c'), 'layer_norm_rows')


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)

    def forward(self, x):
        H = x.shape[-1]
        y = torch.empty_like(x)
        if x.numel(): _layer_norm(x, self.ln.weight, self.ln.bias, y, x.numel() // H, H, self.ln.eps)
        return y
