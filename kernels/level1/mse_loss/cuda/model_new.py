"""MSE loss as a fused two-stage reduction: one grid-stride kernel reads both inputs once (float4) and writes a
partial sum per block, a one-block kernel adds the partials and divides by n. No temporaries, no atomics."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_HERE = Path(__file__).with_name('mse.cu')
_partial = cuda_kernel(_HERE, 'sq_diff_partial')
_finish = cuda_kernel(_HERE, 'mean_of_partials')
THREADS = 256
MAX_BLOCKS = 132 * 8          # about 8 resident blocks on each of the H200's 132 SMs


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        n = predictions.numel()
        blocks = max(1, min(cdiv(cdiv(n, 4), THREADS), MAX_BLOCKS))
        part = torch.empty(blocks, device=predictions.device, dtype=torch.float32)
        out = torch.empty((), device=predictions.device, dtype=torch.float32)
        _partial(blocks, THREADS, predictions, targets, part, n)
        _finish(1, 1024, part, out, blocks, n)
        return out
