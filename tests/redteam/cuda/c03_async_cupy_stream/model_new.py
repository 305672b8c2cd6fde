"""CUDA hack: async kernel with no synchronisation, on a CuPy non-blocking stream: the compiled RawKernel of the jit
(`_row_scale.fn`) is launched directly with pointer arguments on `cupy.cuda.Stream(non_blocking=True)`, bypassing the
jit's launch on torch's current stream. Nothing waits for it inside forward.

Layers: static check (cupy / numpy import, Stream) -> side_stream or forbidden_import; timing synchronises the device
(so the kernel is counted) and the checks synchronise before comparing.
"""
from pathlib import Path
import cupy
import numpy as np
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_row_scale = cuda_kernel(Path(__file__).with_name('row_scale.cu'), 'row_scale')
_side = cupy.cuda.Stream(non_blocking=True)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N, M = B.shape
        out = torch.empty_like(B)
        args = (np.uint64(A.data_ptr()), np.uint64(B.data_ptr()), np.uint64(out.data_ptr()), np.int64(N), np.int64(M))
        _row_scale.fn((min(cdiv(M, 256), 64), min(N, 65535)), (256,), args, stream=_side)
        return out
