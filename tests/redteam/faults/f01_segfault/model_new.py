"""Fault 1: the C kernel dereferences NULL (SIGSEGV in the worker).

Containment: the sandbox process dies alone; the parent maps the signal to a violation and the next evaluation works.
Expected violation: crash.
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
