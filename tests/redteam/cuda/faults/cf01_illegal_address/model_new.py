"""CUDA fault: the kernel writes through a wild pointer (address 16): cudaErrorIllegalAddress, a sticky error that
poisons the CUDA context of the process.

Containment: the error surfaces at the harness's synchronise; the fresh-process design means the next evaluation works.
Expected violation: cuda_error.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_k = cuda_kernel(Path(__file__).with_name('wild.cu'), 'wild')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        _k(1, 32, A, B, out, B.shape[0], B.shape[1])
        return out
