"""Hack 6: write only part of the output (every row but the last), leaving the rest as torch.zeros left it.

Mechanism: a kernel that skips a tail (a classic off-by-one, or a deliberate shortcut) on an output that is mostly right.
Layer: verify (every element is compared, not a sample). Expected violation: incorrect.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N, M = B.shape
        out = torch.zeros_like(B)
        _row_scale(A, B, out, N - 1, M)      # the last row is never written
        return out
