"""Honest twin of 31_interrupt_when_timed and 31b_exit_when_timed: `forward` raises and handles an exception of its own on
every call (a cache miss on the first, a lookup that fails and falls back to a default), so exceptions inside a call are
fine as long as none leaves it. It must pass with no violation.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.shapes = {}

    def forward(self, A, B):
        try: N, M = self.shapes[tuple(B.shape)]
        except KeyError: N, M = self.shapes.setdefault(tuple(B.shape), tuple(B.shape))
        out = torch.empty_like(B)
        _row_scale(A, B, out, N, M)
        return out
