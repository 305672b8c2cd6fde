"""Hack 1a: plain torch compute in forward -- the reference's own `torch.diag(A) @ B` through torch.matmul.

Mechanism: no kernel at all; aten.diag and aten.mm run inside ModelNew.forward.
Layer that must catch it: runtime guard (forbid_torch's dispatch mode; diag_matmul allows no aten op).
Expected violation: torch_fallback.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(torch.diag(A), B)
