"""LogSumExp over channels + HardSwish fused in C: per sample, a vectorised running max over the channel planes,
a running sum of exp(x - max), then hardswish(max + log(sum)) written once."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_lse = c_function(Path(__file__).with_name('lse_hardswish.c'), 'lse_hardswish')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n, c = x.shape[:2]
        hw = x.numel() // (n * c)
        out = torch.empty(n, 1, *x.shape[2:], dtype=x.dtype)
        work = torch.empty(n * hw, dtype=x.dtype)         # per-call scratch for the running sums
        _lse(x, out, work, n, c, hw)
        return out
