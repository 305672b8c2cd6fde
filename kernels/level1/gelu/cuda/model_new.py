"""GELU as one elementwise CUDA kernel: grid-stride float4 loads/stores with 4 independent loads in flight per
thread, exact erff, scalar tail for any size."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_gelu = cuda_kernel(Path(__file__).with_name('gelu.cu'), 'gelu')
THREADS = 256


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        if n: _gelu(max(1, min(cdiv(n, 4 * 4 * THREADS), 132 * 16)), THREADS, x, y, n)
        return y
