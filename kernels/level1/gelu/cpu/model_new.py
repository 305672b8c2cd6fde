"""GELU in C: one vectorised OpenMP loop with a rational erf approximation (Eigen's, ~1e-7 relative error)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_gelu = c_function(Path(__file__).with_name('gelu.c'), 'gelu')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        _gelu(x, y, x.numel())
        return y
