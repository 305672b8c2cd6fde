"""Honest twin of 36_numpy_array_interface and 36b_numpy_when_timed: NumPy at import and in `__init__` (a table of row
indices, a size worked out with it), where no call of the candidate is sampled; `forward` computes with its C kernel
only. It must pass with no violation.
"""
from pathlib import Path
import numpy as np
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')
_BLOCK = int(np.prod([8, 8]))   # NumPy at import


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.rows = torch.from_numpy(np.arange(_BLOCK, dtype=np.int64))   # NumPy in __init__: kept, never used to compute

    def forward(self, A, B):
        out = torch.empty_like(B)
        _row_scale(A, B, out, B.shape[0], B.shape[1])
        return out
