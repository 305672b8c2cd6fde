"""Row log-softmax in one CUDA kernel, a block per row. Rows of up to 32768 floats (D % 4 == 0) are held in
registers: one 16-byte-load sweep, a block max (warp shuffles + shared memory), a block sum of exp(x - max), then
x - (max + log(sum)) stored - one read and one write of the data, one expf per element. Other shapes use a streaming
online kernel (running max and rescaled sum, then a write sweep)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('log_softmax.cu')
_log_softmax_reg = cuda_kernel(_HERE, 'log_softmax_rows_reg')
_log_softmax_stream = cuda_kernel(_HERE, 'log_softmax_rows')
VPT = 8                       # float4 per thread held in registers by log_softmax_rows_reg


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        if self.dim % x.dim() != x.dim() - 1:
            raise ValueError(f"log_softmax kernel reduces the last dimension only, got dim={self.dim} for a {x.dim()}-d input")
        D = x.shape[-1]
        rows = x.numel() // D if D else 0
        y = torch.empty_like(x)
        if rows == 0: return y
        if D % 4 == 0 and D // 4 <= VPT * 1024 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            _log_softmax_reg(rows, 32 * cdiv(cdiv(D // 4, VPT), 32), x, y, D)
        else:
            _log_softmax_stream(rows, min(512, 32 * cdiv(D, 32 * 4)), x, y, D)
        return y
