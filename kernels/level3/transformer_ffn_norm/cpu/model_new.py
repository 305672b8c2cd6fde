"""Pre-norm feed-forward on CPU: a row-parallel LayerNorm loop in C, torch addmm (BLAS) for both GEMMs with the biases, the
tanh GELU in place and the residual add in C loops."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_SRC = Path(__file__).with_name('ffn.c')
layernorm = c_function(_SRC, 'layernorm')
gelu_tanh_inplace = c_function(_SRC, 'gelu_tanh_inplace')
add_inplace = c_function(_SRC, 'add_inplace')


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
        layernorm(x2, self.norm.weight, self.norm.bias, xn, b * t, e, self.norm.eps)
        h = torch.addmm(self.fc1.bias, xn, self.fc1.weight.t())
        gelu_tanh_inplace(h, h.numel())
        y = torch.addmm(self.fc2.bias, h, self.fc2.weight.t())
        add_inplace(y, x2, y.numel())
        return y.view(b, t, e)
