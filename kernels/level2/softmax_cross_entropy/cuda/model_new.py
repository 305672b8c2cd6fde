"""Per-sample cross-entropy in one CUDA kernel: one block per row runs an online log-sum-exp (max and sum of
exponentials merged across threads with warp shuffles) and subtracts the target logit, so the logits are read
once and no log-probability tensor is written."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_ce = cuda_kernel(Path(__file__).with_name('cross_entropy.cu'), 'cross_entropy_rows')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        rows, classes = logits.shape
        loss = torch.empty(rows, device=logits.device, dtype=logits.dtype)
        _ce((rows,), (256,), logits, targets, loss, classes)
        return loss
