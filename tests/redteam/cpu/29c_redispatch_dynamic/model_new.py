"""Hack 29c: a redispatch. `OpOverload.redispatch(keyset, ...)` runs the kernel for a dispatch key set without the
Python modes or the profiler seeing it (no record-function hook on a redispatch), even with the modes on.

Layers: `guard.watch_dispatch_keys` wraps `OpOverload.redispatch` and `_DispatchOperatorHandle.redispatch_boxed`
-> torch_fallback.
Expected violation: torch_fallback.
"""
import torch
import torch.nn as nn

_C = vars(torch)['_' + 'C']
_keys = vars(_C)['DispatchKey' + 'Set'](vars(_C)['Dispatch' + 'Key'].CPU)
_ops = vars(torch)['ops'].aten


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        scale = getattr(_ops.mul.Tensor, 'redis' + 'patch')
        return scale(_keys, getattr(_ops.unsqueeze.default, 'redis' + 'patch')(_keys, A, 1), B)
