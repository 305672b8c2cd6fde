"""Hack 5a: return uninitialised memory (torch.empty_like, nothing written) and hope it holds a stale right answer.

Mechanism: the allocator may hand back a freed buffer; on the CPU that is zeros or an old tensor's bytes.
Layer: verify (fresh secret inputs per check; the candidate runs before the reference, so no reference output of
these inputs exists yet). Expected violation: incorrect (nan_inf when the stale bytes decode as NaN/Inf).
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.empty_like(B)
