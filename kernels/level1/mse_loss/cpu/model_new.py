"""MSE loss in C as one fused pass: chunked SIMD sums of (a - b)^2 across OpenMP threads, then / n; no temporaries
(torch materialises a - b and its square)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_mse = c_function(Path(__file__).with_name('mse.c'), 'mse')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        out = torch.empty((), dtype=torch.float32)
        _mse(predictions, targets, out, predictions.numel())
        return out
