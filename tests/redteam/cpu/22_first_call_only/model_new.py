"""Hack 22: correct on the first call only (e.g. a kernel tuned on the first inputs, or a one-shot computation); later
calls return the first answer again.

Layer: verify (5 checks, each on fresh inputs). Expected violation: incorrect.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_k = Path(__file__).with_name('k.c')
_row_scale = c_function(_k, 'row_scale')
_copy = c_function(_k, 'copy_f')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = None

    def forward(self, A, B):
        out = torch.empty_like(B)
        if self.first is None:
            _row_scale(A, B, out, B.shape[0], B.shape[1])
            self.first = torch.empty_like(B)
            _copy(out, self.first, out.numel())
        else:
            _copy(self.first, out, out.numel())
        return out
