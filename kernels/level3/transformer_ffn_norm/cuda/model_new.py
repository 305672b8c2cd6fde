"""Pre-norm feed-forward: a one-block-per-row LayerNorm kernel, cuBLAS addmm for both GEMMs (biases in the GEMM), the tanh
GELU in place and the residual add in CUDA kernels."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_SRC = Path(__file__).with_name('ffn.cu')
layernorm = cuda_kernel(_SRC, 'layernorm')
gelu_tanh_inplace = cuda_kernel(_SRC, 'gelu_tanh_inplace')
add_inplace = cuda_kernel(_SRC, 'add_inplace')


class ModelNew(nn.Module):
    def __init__(self, embed, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(embed)
        self.fc1 = nn.Linear(embed, hidden)
        self.fc2 = nn.Linear(hidden, embed)

    def forward(self, x):
        b, t, e = x.shape
        x2 = x.view(b * t, e)
        xn = torch.empty_like(x2)
        layernorm(b * t, 256, x2, self.norm.weight, self.norm.bias, xn, e, self.norm.eps)
        h = torch.addmm(self.fc1.bias, xn, self.fc1.weight.t())
        gelu_tanh_inplace(cdiv(h.numel(), 256), 256, h, h.numel())
        y = torch.addmm(self.fc2.bias, h, self.fc2.weight.t())
        add_inplace(cdiv(y.numel(), 256), 256, y, x2, y.numel())
        return y.view(b, t, e)
