"""MLP block on CPU: torch addmm (BLAS) for both GEMMs with the biases, GELU in place and the residual add in two C loops."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_SRC = Path(__file__).with_name('mlp.c')
gelu_inplace = c_function(_SRC, 'gelu_inplace')
add_inplace = c_function(_SRC, 'add_inplace')


class ModelNew(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.fc1 = nn.Linear(d, h)
        self.fc2 = nn.Linear(h, d)

    def forward(self, x):
        h = torch.addmm(self.fc1.bias, x, self.fc1.weight.t())
        gelu_inplace(h, h.numel())
        y = torch.addmm(self.fc2.bias, h, self.fc2.weight.t())
        add_inplace(y, x, y.numel())
        return y
