"""Honest twin of 32_thread_in_init: `ModelNew.__init__` does real work (it builds a constant with torch, as a rewrite
that folds weights does), and `forward` runs an OpenMP C kernel, whose thread pool the sandbox starts before it counts
threads. No thread of its own: it must pass with no violation.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.one = float(torch.ones(64, 64).sum() / 4096)   # work in the constructor, on the calling thread

    def forward(self, A, B):
        N, M = B.shape
        out = torch.empty_like(B)
        _row_scale(A, B, out, N, M)
        return out
