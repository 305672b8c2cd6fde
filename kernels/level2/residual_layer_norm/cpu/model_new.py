"""Residual add + LayerNorm fused in one C pass per row (sum, two-pass mean/variance, normalise), rows in parallel."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_add_ln = c_function(Path(__file__).with_name('add_layer_norm.c'), 'add_layer_norm')


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x, residual):
        d = x.shape[-1]
        out = torch.empty_like(x)
        _add_ln(x, residual, self.norm.weight, self.norm.bias, out, x.numel() // d, d, self.norm.eps)
        return out
