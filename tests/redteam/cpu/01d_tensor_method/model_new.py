"""Hack 1d: tensor methods and operators instead of torch functions: `A[:, None] * B` (the algorithmic rewrite, in torch).

Mechanism: Tensor.__mul__ -> aten.mul; the indexing is an allowed view.
Layer: runtime guard (dispatch mode). Expected violation: torch_fallback.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return A[:, None] * B
