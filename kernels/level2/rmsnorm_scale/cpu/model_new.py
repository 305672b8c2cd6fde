"""RMSNorm + learned scale fused in one C pass per row (sum of squares, then x * rinv * weight * scale)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_rms = c_function(Path(__file__).with_name('rmsnorm_scale.c'), 'rmsnorm_scale')


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.norm = nn.RMSNorm(hidden, eps=eps)
        self.scale = nn.Parameter(torch.empty(hidden))

    def forward(self, x):
        d = x.shape[-1]
        out = torch.empty_like(x)
        _rms(x, self.norm.weight, self.scale, out, x.numel() // d, d, self.norm.eps)
        return out
