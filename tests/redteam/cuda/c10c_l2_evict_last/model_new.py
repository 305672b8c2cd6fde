"""CUDA red-team case 10c: the honest matvec of c10, with every load of its weight asking the L2 to evict it last.

Mechanism: the kernel makes an L2 cache policy with PTX `createpolicy.fractional.L2::evict_last` and loads the weight
with `ld.global.L2::cache_hint`, so the L2 keeps the weight's lines after the lines that the harness's flush writes,
with no host call at all (nothing for a Python-level guard to see; the static kernel checks allow inline PTX loads).
Whether such lines outlive a 256 MB flush without any L2 set aside for persisting lines is what its test measures.
What should happen: with the timer's persisting-L2 reset (the default) it times like c10; without the reset, the test
reports whether the hint alone gave an advantage (tests/test_profile.py::test_persisting_l2_gets_no_advantage).
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
