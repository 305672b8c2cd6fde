"""Hack 1c: aten ops called directly through torch.ops, skipping the torch.* Python API a name-based guard would watch.

Mechanism: torch.ops.aten.mul.Tensor(A[:, None], B) -- the unsqueeze is an allowed view, the mul is compute.
Layer: runtime guard (the dispatch mode sees every aten op however it is reached).
Expected violation: torch_fallback.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.ops.aten.mul.Tensor(A.unsqueeze(1), B)
