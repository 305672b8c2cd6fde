"""RMSNorm + learned scale fused in one CUDA kernel: one block per row, the row in registers, a warp-shuffle
reduction of the sum of squares, and the output written once as x * rinv * weight * scale."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_rms = cuda_kernel(Path(__file__).with_name('rmsnorm_scale.cu'), 'rmsnorm_scale')
_MAX_D = 256 * 4 * 8                                   # THREADS * 4 * MAXV in the kernel


class ModelNew(nn.Module):
    def __init__(self, hidden, eps=1e-6):
        super().__init__()
        self.norm = nn.RMSNorm(hidden, eps=eps)
        self.scale = nn.Parameter(torch.empty(hidden))

    def forward(self, x):
        d = x.shape[-1]
        if d % 4 or d > _MAX_D: raise ValueError(f"rmsnorm_scale needs hidden % 4 == 0 and hidden <= {_MAX_D}, got {d}")
        out = torch.empty_like(x)
        _rms((x.numel() // d,), (256,), x, self.norm.weight, self.scale, out, d, self.norm.eps)
        return out
