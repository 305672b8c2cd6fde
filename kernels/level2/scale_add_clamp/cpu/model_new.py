"""Scale, add and clamp fused into one vectorised C pass (2 reads + 1 write)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_sac = c_function(Path(__file__).with_name('scale_add_clamp.c'), 'scale_add_clamp')


class ModelNew(nn.Module):
    def __init__(self, scale, min_val, max_val):
        super().__init__()
        self.scale, self.min_val, self.max_val = scale, min_val, max_val

    def forward(self, x, y):
        out = torch.empty_like(x)
        _sac(x, y, out, x.numel(), self.scale, self.min_val, self.max_val)
        return out
