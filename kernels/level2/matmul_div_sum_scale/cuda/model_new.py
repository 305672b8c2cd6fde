"""Matmul-divide-sum-scale as a weight column sum plus a mat-vec: two small CUDA kernels instead of a GEMM."""
# Algebraic rewrite: sum_j (x @ W.T)[b, j] / 2 * s = (s / 2) * x[b, :] . w_sum, with w_sum[k] = sum_j W[j, k].
# The column sum is derived from the weight, so it is recomputed by a kernel on every call (no state kept);
# the O(B*H*I) GEMM becomes an O(H*I + B*I) read of W and x.
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_SRC = Path(__file__).with_name('matmul_div_sum_scale.cu')
_colsum = cuda_kernel(_SRC, 'weight_colsum')
_row_dot = cuda_kernel(_SRC, 'row_dot')


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        hidden, inp = self.weight.shape
        batch = x.shape[0]
        wsum = torch.empty(inp, device=x.device, dtype=x.dtype)
        _colsum((cdiv(inp, 32),), (32, 8), self.weight, wsum, hidden, inp)
        out = torch.empty(batch, 1, device=x.device, dtype=x.dtype)
        _row_dot((cdiv(batch * 32, 256),), (256,), x, wsum, out, batch, inp, self.scaling_factor / 2)
        return out
