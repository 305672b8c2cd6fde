"""Attention probabilities as a BLAS batched GEMM (torch.bmm, allowed) and one fused in-place C pass per row
for the 1/sqrt(d) scaling and the softmax."""
import math
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_softmax = c_function(Path(__file__).with_name('scaled_softmax.c'), 'scaled_softmax')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k):
        b, h, s, d = q.shape
        sk = k.shape[2]
        scores = torch.bmm(q.view(b * h, s, d), k.view(b * h, sk, d).transpose(1, 2))   # (b*h, s, sk), fresh
        _softmax(scores, b * h * s, sk, 1.0 / math.sqrt(d))
        return scores.view(b, h, s, sk)
