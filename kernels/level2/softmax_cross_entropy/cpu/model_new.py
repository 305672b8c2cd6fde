"""Per-sample cross-entropy in one C pass per row: vectorised max, sum of exponentials, log, minus the target
logit; no log-probability tensor is written."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_ce = c_function(Path(__file__).with_name('cross_entropy.c'), 'cross_entropy_rows')


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        rows, classes = logits.shape
        loss = torch.empty(rows, dtype=logits.dtype)
        _ce(logits, targets, loss, rows, classes)
        return loss
