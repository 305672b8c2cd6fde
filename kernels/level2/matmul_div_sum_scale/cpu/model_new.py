"""Matmul-divide-sum-scale as a weight column sum plus a mat-vec, in C: no GEMM at all."""
# Algebraic rewrite: sum_j (x @ W.T)[b, j] / 2 * s = (s / 2) * x[b, :] . w_sum, with w_sum[k] = sum_j W[j, k].
# The column sum is derived from the weight, so it is recomputed on every call (no state kept).
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_SRC = Path(__file__).with_name('matmul_div_sum_scale.c')
_colsum = c_function(_SRC, 'weight_colsum')
_row_dot = c_function(_SRC, 'row_dot')


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        hidden, inp = self.weight.shape
        wsum = torch.empty(inp, dtype=x.dtype)
        _colsum(self.weight, wsum, hidden, inp)
        out = torch.empty(x.shape[0], 1, dtype=x.dtype)
        _row_dot(x, wsum, out, x.shape[0], inp, self.scaling_factor / 2)
        return out
