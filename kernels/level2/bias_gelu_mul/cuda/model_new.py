"""Bias + GeGLU fused in one CUDA kernel: each thread reads a float4 of the value half and of the gate half of its
row, adds the bias, and writes value * gelu(gate) once; no intermediate tensor is materialised."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_geglu = cuda_kernel(Path(__file__).with_name('bias_geglu.cu'), 'bias_geglu')


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.bias = nn.Parameter(torch.empty(2 * hidden))

    def forward(self, x):
        d = x.shape[-1] // 2
        out = torch.empty(*x.shape[:-1], d, device=x.device, dtype=x.dtype)
        rows = x.numel() // x.shape[-1]
        _geglu((cdiv(cdiv(d, 4), 256), rows), (256,), x, self.bias, out, d)
        return out
