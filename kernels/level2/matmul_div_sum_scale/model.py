"""Matmul, divide by 2, sum over the features (keepdim) and scale: (x @ W.T / 2).sum(1, keepdim=True) * scaling_factor."""
import math
import torch
import torch.nn as nn

BATCH_SIZE = 1024
INPUT_SIZE = 8192
HIDDEN_SIZE = 8192
SCALING_FACTOR = 1.5
# cal: cpu-size BATCH_SIZE=256 INPUT_SIZE=512 HIDDEN_SIZE=512


class Model(nn.Module):
    "A GEMM followed by a division, a sum over the hidden features and a scaling"
    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size) / math.sqrt(input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        x = torch.matmul(x, self.weight.T)          # (batch, hidden)
        x = x / 2
        x = torch.sum(x, dim=1, keepdim=True)       # (batch, 1)
        return x * self.scaling_factor


def get_inputs():
    return [torch.randn(BATCH_SIZE, INPUT_SIZE)]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, SCALING_FACTOR]
