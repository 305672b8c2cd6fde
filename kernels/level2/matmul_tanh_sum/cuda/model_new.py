"""Linear + tanh + row sum as a cuBLAS GEMM (torch.mm, allowed) and one reduction kernel that adds the bias,
applies tanh and sums each row in a single read of the GEMM output (no activation tensor is written)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_rowsum = cuda_kernel(Path(__file__).with_name('bias_tanh_rowsum.cu'), 'bias_tanh_rowsum')


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.linear = nn.Linear(input_size, hidden_size)

    def forward(self, x):
        y = torch.mm(x, self.linear.weight.t())         # weight.t() is a view; cuBLAS reads it transposed
        rows, cols = y.shape
        out = torch.empty(rows, 1, device=x.device, dtype=x.dtype)
        _rowsum((rows,), (256,), y, self.linear.bias, out, cols)
        return out
