"""Fault 3b: host memory exhaustion in C: malloc 1 GiB blocks in a loop (one byte touched per block, so real memory
use stays tiny) until malloc returns NULL at the address-space limit; the kernel then writes through the NULL pointer
(the usual unchecked-malloc bug).

Containment: RLIMIT_AS ends the loop after ~16 blocks; the process dies alone. Expected violation: crash or
out_of_memory.
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
