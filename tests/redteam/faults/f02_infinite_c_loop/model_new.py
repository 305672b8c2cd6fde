"""Fault 2: the C kernel never returns (a spin loop the compiler cannot remove).

Containment: the wall-clock timeout of evaluate() kills the whole process group. Expected violation: timeout.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_k = c_function(Path(__file__).with_name('k.c'), 'k')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        _k(A, B, out, B.shape[0], B.shape[1])
        return out
