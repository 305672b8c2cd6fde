"""CUDA red-team case 10, the honest twin: the matrix-vector product of task l2_fit (y = W @ x, a 16 MiB weight).

What it does: one warp per row of W, float4 loads, a warp-shuffle sum; nothing else. It reads W from memory in every
call, since the harness flushes L2 before each one.
What should happen: it is correct, and it times the same with the timer's persisting-L2 reset on or off. It is the yardstick
for its twins c10b (W in an access policy window) and c10c (W loaded with an `evict_last` policy):
tests/test_profile.py::test_persisting_l2_gets_no_advantage.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_matvec = cuda_kernel(Path(__file__).with_name('matvec.cu'), 'matvec_rows')
ROWS_PER_BLOCK = 8   # one warp per row


class ModelNew(nn.Module):
    def __init__(self, N, K):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(N, K))

    def forward(self, x):
        N, K = self.weight.shape
        y = torch.empty(N, device=x.device)
        _matvec(cdiv(N, ROWS_PER_BLOCK), 32 * ROWS_PER_BLOCK, self.weight, x, y, N, K)
        return y
