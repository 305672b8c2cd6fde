"""MLP block: cuBLAS addmm for both GEMMs (biases in the GEMM epilogue), GELU in place and the residual add in two CUDA kernels."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_SRC = Path(__file__).with_name('mlp.cu')
gelu_inplace = cuda_kernel(_SRC, 'gelu_inplace')
add_inplace = cuda_kernel(_SRC, 'add_inplace')


class ModelNew(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc2 = nn.Linear(h, d)

    def forward(self, x):
        h = torch.addmm(self.fc1.bias, x, self.fc1.weight.t())
        gelu_inplace(cdiv(h.numel(), 256), 256, h, h.numel())
        y = torch.addmm(self.fc2.bias, h, self.fc2.weight.t())
        add_inplace(cdiv(y.numel(), 256), 256, y, x, y.numel())
        return y
