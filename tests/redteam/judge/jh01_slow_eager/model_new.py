"""Honest twin of j01: the task's own slow computation (a dense diag(A) @ B), reported as it is. Judged correct, and its
judged time is the runner's own where they agree with the judge's clock."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.diag(A) @ B
