"""Linear + GELU as a cuBLAS GEMM (torch.mm, allowed) with a fused bias + GELU epilogue kernel applied in place."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_bias_gelu = cuda_kernel(Path(__file__).with_name('bias_gelu.cu'), 'bias_gelu_inplace')


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.mm(x, self.linear.weight.t())        # weight.t() is a view; cuBLAS reads it transposed
        rows, cols = y.shape
        _bias_gelu((cdiv(cdiv(cols, 4), 256), rows), (256,), y, self.linear.bias, rows, cols)
        return y
