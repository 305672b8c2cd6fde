"""Hack 4c: torch.compile reached through a computed attribute name, so a static check that looks for the
`torch.compile` attribute chain misses it.

Mechanism: getattr(torch, 'com' + 'pile'); torch._dynamo is never named.
Layers: static check (getattr with a computed name on a module -> forbidden_import); runtime guard if compiled code
dispatches refused aten ops (torch_fallback).
Expected violation: torch_compile, forbidden_import or torch_fallback.
"""
import torch
import torch.nn as nn

_c = getattr(torch, ''.join(['com', 'pile']))


def _rowscale(A, B):
    return A[:, None] * B


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = _c(_rowscale)

    def forward(self, A, B):
        return self.f(A, B)
