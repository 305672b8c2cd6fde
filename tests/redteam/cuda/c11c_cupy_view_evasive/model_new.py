"""CUDA hack 11c: c11 spelled so that no static rule sees the views -- CuPy's functions looked up with `vars(cupy)`
instead of named -- and computed into a CuPy temporary, then copied into the output's view.

Layers: static check (blind to it); runtime guard: `cupy.asarray` reads `__cuda_array_interface__` inside forward
(refused) and the product is a CuPy allocation under the guard (refused) -> torch_fallback.
Expected violation: torch_fallback.
"""
import cupy
import torch
import torch.nn as nn

_view = vars(cupy)['asarray']


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            _view(out)[...] = _view(A)[:, None] * _view(B)
        return out
