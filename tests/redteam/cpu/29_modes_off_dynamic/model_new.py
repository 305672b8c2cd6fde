"""Hack 29: switch torch's modes off, by names no static rule reads. `torch._C._DisableTorchDispatch` and
`torch._C.DisableTorchFunction`, looked up with `vars()` and built strings, around `torch.mm`: neither layer of the
runtime guard sees the matmul.

Layers: torch's profiler on every call (`guard.op_audit`): its record-function hooks sit in the C++ dispatcher, below
every mode -> torch_fallback.
Expected violation: torch_fallback.
"""
import torch
import torch.nn as nn

_C = vars(torch)['_' + 'C']
_off = (vars(_C)['_DisableTorch' + 'Dispatch'], vars(_C)['DisableTorch' + 'Function'])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        with _off[0](), _off[1]():
            return torch.diag(A) @ B
