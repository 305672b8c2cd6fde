"""Linear + GELU as a BLAS GEMM (torch.mm, allowed) with a fused bias + GELU epilogue in C, applied in place."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_bias_gelu = c_function(Path(__file__).with_name('bias_gelu.c'), 'bias_gelu_inplace')


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.mm(x, self.linear.weight.t())        # weight.t() is a view; BLAS reads it transposed
        _bias_gelu(y, self.linear.bias, y.shape[0], y.shape[1])
        return y
