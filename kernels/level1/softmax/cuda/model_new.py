"""Row softmax in one CUDA kernel, a block per row. Rows of up to 32768 floats (D % 4 == 0) are held in registers:
one 16-byte-load sweep, a block max (warp shuffles + shared memory), exp(x - max) in place with a block sum, then a
scaled store - one read and one write of the data, one expf per element (torch makes separate max/sum/normalise
passes). Other shapes use a streaming online-softmax kernel (running max and rescaled sum, then a write sweep)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('softmax.cu')
_softmax_reg = cuda_kernel(_HERE, 'softmax_rows_reg')
_softmax_stream = cuda_kernel(_HERE, 'softmax_rows')
VPT = 8                       # float4 per thread held in registers by softmax_rows_reg


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        D = x.shape[-1]
        rows = x.numel() // D if D else 0
        y = torch.empty_like(x)
        if rows == 0: return y
        if D % 4 == 0 and D // 4 <= VPT * 1024 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            _softmax_reg(rows, 32 * cdiv(cdiv(D // 4, VPT), 32), x, y, D)
        else:
            _softmax_stream(rows, min(512, 32 * cdiv(D, 32 * 4)), x, y, D)
        return y
