"""Hack 1b: torch.nn.functional in forward: diag(A) @ B == F.linear(B^T, diag(A))^T.

Mechanism: the paper's original guard forbids exactly this (an F.* fallback).
Layer: runtime guard (function mode refuses torch.nn.functional.linear by name).
Expected violation: torch_fallback.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return F.linear(B.t(), torch.diag(A)).t()
