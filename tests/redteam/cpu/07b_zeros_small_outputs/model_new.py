"""Hack 7b: return zeros on a task whose outputs are all smaller than atol (tests/redteam/tasks/small_outputs:
x * 1e-3 for x ~ N(0, 1), so |ref| < 1e-2 nearly everywhere and |0 - ref| <= atol + rtol*|ref| passes elementwise).

Mechanism: the tolerance test is absolute-dominated for small outputs; a constant is "within tolerance".
Layer: verify must not accept an output that carries no information: the float64 relative error of zeros is 1.0
(the precision audit already measures it). Expected violation: incorrect.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.zeros_like(x)
