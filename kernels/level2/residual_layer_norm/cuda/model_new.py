"""Residual add + LayerNorm fused in one CUDA kernel: one block per row, the sum x + r held in registers,
two-pass (exact) mean and variance by warp-shuffle block reductions, one write of the output."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_add_ln = cuda_kernel(Path(__file__).with_name('add_layer_norm.cu'), 'add_layer_norm')
_MAX_D = 256 * 4 * 8                                   # THREADS * 4 * MAXV in the kernel


class ModelNew(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x, residual):
        d = x.shape[-1]
        if d % 4 or d > _MAX_D: raise ValueError(f"add_layer_norm needs hidden % 4 == 0 and hidden <= {_MAX_D}, got {d}")
        out = torch.empty_like(x)
        _add_ln((x.numel() // d,), (256,), x, residual, self.norm.weight, self.norm.bias, out, d, self.norm.eps)
        return out
