"""Bias + GeGLU fused in one vectorised C pass per row: value + bias times gelu(gate + bias), written once."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_geglu = c_function(Path(__file__).with_name('bias_geglu.c'), 'bias_geglu')


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.bias = nn.Parameter(torch.empty(2 * hidden))

    def forward(self, x):
        d = x.shape[-1] // 2
        out = torch.empty(*x.shape[:-1], d, dtype=x.dtype)
        _geglu(x, self.bias, out, x.numel() // x.shape[-1], d)
        return out
