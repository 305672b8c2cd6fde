"""LayerNorm in one CUDA kernel, a block per row. Rows of up to 32768 floats (H % 4 == 0) are held in registers:
one 16-byte-load sweep, a block-sum mean, an exact two-pass variance from the same registers, then
(x - mean) * rstd * w + b stored - one read and one write of the data. Other shapes use a streaming kernel with
shifted sums and a second normalising sweep. The weights stay in `self.ln`."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('layer_norm.cu')
_ln_reg = cuda_kernel(_HERE, 'layer_norm_rows_reg')
_ln_stream = cuda_kernel(_HERE, 'layer_norm_rows')
VPT = 8                       # float4 per thread held in registers by layer_norm_rows_reg


def _aligned(*ts): return all(t.data_ptr() % 16 == 0 for t in ts)


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)

    def forward(self, x):
        H = x.shape[-1]
        rows = x.numel() // H if H else 0
        y = torch.empty_like(x)
        if rows == 0: return y
        w, b = self.ln.weight, self.ln.bias
        if H % 4 == 0 and H // 4 <= VPT * 1024 and _aligned(x, y, w, b):
            # ~2 float4 per thread (more threads per row, more loads in flight), at most VPT
            _ln_reg(rows, min(1024, 32 * cdiv(cdiv(H // 4, 2), 32)), x, w, b, y, H, self.ln.eps)
        else:
            _ln_stream(rows, min(512, 32 * cdiv(H, 32 * 4)), x, w, b, y, H, self.ln.eps)
        return y
