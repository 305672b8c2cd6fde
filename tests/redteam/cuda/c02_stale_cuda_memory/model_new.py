"""CUDA hack 5: return torch.empty_like(B) without writing it. The caching allocator hands back a block freed earlier
(the previous check's reference output, its N x N diagonal matrix, or an earlier input), i.e. stale cudaMalloc memory.

Layer: verify (fresh secret inputs per check; the candidate runs before the reference, so no block holds the answer to
*these* inputs). Expected violation: incorrect (nan_inf if the stale bytes decode as NaN/Inf).
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.empty_like(B)
