"""GroupNorm + Swish fused in C: per (sample, group) a two-pass mean/variance, then one scale and shift per
channel and swish(x * scale + shift) written once; groups in parallel."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_gn_swish = c_function(Path(__file__).with_name('group_norm_swish.c'), 'group_norm_swish')


class ModelNew(nn.Module):
    def __init__(self, num_groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels, eps=1e-5)

    def forward(self, x):
        n, c = x.shape[:2]
        out = torch.empty_like(x)
        _gn_swish(x, self.gn.weight, self.gn.bias, out, n, c, self.gn.num_groups, x.numel() // (n * c), self.gn.eps)
        return out
