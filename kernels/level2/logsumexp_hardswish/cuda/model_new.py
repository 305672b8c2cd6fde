"""LogSumExp over channels + HardSwish fused in one CUDA kernel: each thread keeps an online max and sum of
exponentials for 4 pixels while it walks the channel planes (coalesced float4 reads), so the input is read
once and only the 1/C-size result is written."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_lse = cuda_kernel(Path(__file__).with_name('lse_hardswish.cu'), 'lse_hardswish')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n, c = x.shape[:2]
        hw = x.numel() // (n * c)
        out = torch.empty(n, 1, *x.shape[2:], device=x.device, dtype=x.dtype)
        _lse((cdiv(cdiv(hw, 4), 256), n), (256,), x, out, c, hw)
        return out
