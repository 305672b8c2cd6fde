"""Hack 11: count calls; after the 5 correctness checks, skip the kernel and return the last output.

Mechanism: the checks are known to be 5 calls; timed calls after that cost nothing.
Layer: after-timing check (kept timed outputs compared with the reference per input set). Expected: inconsistent_outputs.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls, self.last = 0, None

    def forward(self, A, B):
        self.calls += 1
        if self.calls > 5 and self.last is not None:
            return self.last
        out = torch.empty_like(B)
        _row_scale(A, B, out, B.shape[0], B.shape[1])
        self.last = out
        return out
