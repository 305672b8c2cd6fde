"""CUDA fault: a kernel that never ends (spins on a volatile flag nobody sets); the harness's synchronise blocks.

Containment: the wall-clock timeout kills the process group (the GPU context goes with the process).
Expected violation: timeout.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_k = cuda_kernel(Path(__file__).with_name('spin.cu'), 'spin')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        _k(1, 1, out, 0)
        return out
