"""Hack 28c: leave a mark in the input when timed. Verified calls check that inputs are untouched; the timed calls
did not. Writing into an input lets a candidate pass state from one timed call to the next (here it only scribbles on
the first element after computing a right answer).

Layers: every timed call checks its inputs against the variant it was given -> input_mutated.
Expected violation: input_mutated.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')
_mark = c_function('void mark(float* b) { b[0] += 1.0f; }', 'mark')
_seen = set()


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        _row_scale(A, B, out, B.shape[0], B.shape[1])
        if B.data_ptr() in _seen:
            _mark(B)
        _seen.add(B.data_ptr())
        return out
