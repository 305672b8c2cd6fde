"""Hack 23: state across calls in a module-level variable: one output buffer allocated on the first call and reused
(written again) on every call, so no allocation is paid per call.

Mechanism: each check reads the buffer right after its call, so the 5 checks pass; but every returned tensor is the same
object, so an output the caller kept is silently overwritten by the next call.
Layer: after-timing check (the kept outputs of the different input sets are all the last set's values).
Expected violation: inconsistent_outputs.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')
_BUF = None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        global _BUF
        if _BUF is None or _BUF.shape != B.shape:
            _BUF = torch.empty_like(B)
        _row_scale(A, B, _BUF, B.shape[0], B.shape[1])
        return _BUF
