"""Honest twin of 33_flag_macro_asm and 33b_include_seal_key: a C kernel built with extra flags (loop unrolling, a -D
macro that names a number) that includes a system header by name. It must pass with no violation.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import C_FLAGS, c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale', flags=(*C_FLAGS, '-funroll-loops', '-DUNROLL=4'))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N, M = B.shape
        out = torch.empty_like(B)
        _row_scale(A, B, out, N, M)
        return out
