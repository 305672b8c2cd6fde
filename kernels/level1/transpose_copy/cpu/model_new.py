"""Batched transpose in C: 32 x 32 tiles across OpenMP threads, each done as 8 x 8 register transposes (contiguous
32-byte reads and writes, shuffles in between); plain loops on partial edge tiles. One read and one write."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_transpose = c_function(Path(__file__).with_name('transpose.c'), 'transpose_batched')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        B, M, N = x.shape
        y = torch.empty(B, N, M, dtype=x.dtype)
        if y.numel(): _transpose(x, y, B, M, N)
        return y
