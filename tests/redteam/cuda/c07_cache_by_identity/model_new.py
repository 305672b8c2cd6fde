"""CUDA hack 10: cache outputs by input identity, holding references to the inputs so their ids and device addresses
cannot be reused by later tensors (so the 5 fresh check inputs always miss and are computed honestly; the 3 rotating
timing sets hit after their first visit and cost a dictionary lookup). Values are right; rotation does not help.

Layer: after-timing check (the same output storage returned twice for one input set, or inputs refreshed between timed
calls). Expected violation: inconsistent_outputs.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_row_scale = cuda_kernel(Path(__file__).with_name('row_scale.cu'), 'row_scale')


def _grid(N, M):
    return (min(cdiv(M, 256), 64), min(N, 65535))

_cache = {}


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        hit = _cache.get((id(A), id(B)))
        if hit is not None:
            return hit[2]
        N, M = B.shape
        out = torch.empty_like(B)
        _row_scale(_grid(N, M), 256, A, B, out, N, M)
        _cache[(id(A), id(B))] = (A, B, out)
        return out
