"""Scale, add and clamp fused into one elementwise CUDA kernel (float4, grid-stride): 2 reads + 1 write
instead of the 7 tensor passes of the three eager kernels."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_sac = cuda_kernel(Path(__file__).with_name('scale_add_clamp.cu'), 'scale_add_clamp')


class ModelNew(nn.Module):
    def __init__(self, scale, min_val, max_val):
        super().__init__()
        self.scale, self.min_val, self.max_val = scale, min_val, max_val

    def forward(self, x, y):
        out = torch.empty_like(x)
        n = x.numel()
        blocks = min(cdiv(cdiv(n, 4), 256), 132 * 16)     # enough blocks to fill an H200; the loop strides the rest
        _sac((blocks,), (256,), x, y, out, n, self.scale, self.min_val, self.max_val)
        return out
