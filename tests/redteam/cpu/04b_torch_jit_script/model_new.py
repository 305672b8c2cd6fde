"""Hack 4b: TorchScript instead of a kernel (torch.jit.script runs the ops through the JIT interpreter).

Layer: static check (torch.jit). Runtime guard would also see the aten.mul. Expected violation: torch_compile.
"""
import torch
import torch.nn as nn


@torch.jit.script
def _rowscale(A, B):
    return A.unsqueeze(1) * B


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return _rowscale(A, B)
