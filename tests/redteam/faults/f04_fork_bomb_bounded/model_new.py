"""Fault 4: a bounded fork bomb: the C kernel forks 100 children (each sleeps 15 s and exits; none forks again), so
at most 100 extra processes ever exist. The kernel then computes honestly. fork/_exit are reached through asm labels
so the static kernel check does not stop it before it runs: this case tests containment, not the tripwire.

Containment: the children are in the worker's process group; the sandbox must report them and kill them with the
group. The test checks, by an environment marker it set, that none of them is alive after evaluate() returns.
Expected violation: spawned_process.
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
