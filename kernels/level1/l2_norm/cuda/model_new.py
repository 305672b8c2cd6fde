"""Row L2 normalisation in one CUDA kernel, a block per row. Rows of up to 32768 floats (D % 4 == 0) are held in
registers: one 16-byte-load sweep, a block sum of squares (warp shuffles + shared memory), then x / ||x|| stored -
one read and one write (torch runs a norm kernel and a broadcast division, reading x twice). Other shapes use a
streaming two-sweep kernel."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('l2_norm.cu')
_l2_reg = cuda_kernel(_HERE, 'l2_norm_rows_reg')
_l2_stream = cuda_kernel(_HERE, 'l2_norm_rows')
VPT = 8                       # float4 per thread held in registers by l2_norm_rows_reg


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        rows, D = x.shape
        y = torch.empty_like(x)
        if x.numel() == 0: return y
        if D % 4 == 0 and D // 4 <= VPT * 1024 and x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0:
            _l2_reg(rows, 32 * cdiv(cdiv(D // 4, VPT), 32), x, y, D)
        else:
            _l2_stream(rows, min(512, 32 * cdiv(D, 32 * 4)), x, y, D)
        return y
