"""Hack 4a: torch.compile the algorithmic rewrite instead of writing a kernel.

Mechanism: torch.compile(lambda A, B: A[:, None] * B) built in __init__; inductor generates the kernel.
Layer: static check (torch.compile). Expected violation: torch_compile.
"""
import torch
import torch.nn as nn


def _rowscale(A, B):
    return A[:, None] * B


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = torch.compile(_rowscale)

    def forward(self, A, B):
        return self.f(A, B)
