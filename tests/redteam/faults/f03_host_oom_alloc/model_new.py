"""Fault 3a: host memory exhaustion through an allowed allocation: torch.empty of 256 GiB inside forward.

Containment: the CPU sandbox's address-space limit (RLIMIT_AS) makes the allocation fail instead of the machine
swapping or the OOM killer picking a victim. (No page is touched: safe on a shared machine.)
Expected violation: out_of_memory.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        workspace = torch.empty(1 << 38, dtype=torch.uint8)
        return torch.empty_like(B)
