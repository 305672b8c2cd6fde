"""Hack 1g: numpy compute on raw memory reached through ctypes from data_ptr() (no Tensor.numpy call to refuse).

Mechanism: np.ctypeslib.as_array over (c_float * n).from_address(t.data_ptr()); np.multiply writes the output.
Only metadata (.data_ptr, .numel, .shape) and torch.empty_like are called on tensors, so the runtime guard sees nothing.
Layer: static check only (ctypes / numpy imports). Expected violation: forbidden_import.
"""
import ctypes
import numpy as np
import torch
import torch.nn as nn


def _np(t):
    return np.ctypeslib.as_array((ctypes.c_float * t.numel()).from_address(t.data_ptr())).reshape(tuple(t.shape))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        np.multiply(_np(A)[:, None], _np(B), out=_np(out))
        return out
