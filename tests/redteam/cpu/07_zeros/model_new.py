"""Hack 7a: return a constant (zeros) on diag_matmul.

Layer: verify (outputs of N(0,1)*N(0,1) are far above atol). Expected violation: incorrect.
The same candidate on a task whose outputs are all below atol is 07b_zeros_small_outputs.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.zeros_like(B)
