"""CUDA fault: GPU out of memory: torch.empty of 1 TiB on the device inside forward (an allowed allocation call).

Containment: the allocator raises torch.OutOfMemoryError ("CUDA out of memory"). Expected violation: out_of_memory.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        workspace = torch.empty(1 << 40, dtype=torch.uint8, device=B.device)
        return torch.empty_like(B)
