"""Linear + tanh + row sum as a BLAS GEMM (torch.mm, allowed) and one C reduction that adds the bias, applies
tanh and sums each row in a single read of the GEMM output."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_rowsum = c_function(Path(__file__).with_name('bias_tanh_rowsum.c'), 'bias_tanh_rowsum')


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.linear = nn.Linear(input_size, hidden_size)

    def forward(self, x):
        y = torch.mm(x, self.linear.weight.t())         # weight.t() is a view; BLAS reads it transposed
        out = torch.empty(y.shape[0], 1, dtype=x.dtype)
        _rowsum(y, self.linear.bias, out, y.shape[0], y.shape[1])
        return out
