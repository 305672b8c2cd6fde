"""Fault 8: print gigabytes to stdout from forward (1 MiB lines until something stops it; bounded at 1.5 GiB so it
ends even without a limit).

Containment: stdout goes to a file in the scratch folder under RLIMIT_FSIZE (1 GiB): the write fails (EFBIG, or SIGXFSZ
where not ignored) instead of filling the disk. Expected violation: output_flood.
"""
import sys
import torch
import torch.nn as nn

_LINE = ('x' * ((1 << 20) - 1)) + '\n'


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        for _ in range(1536):
            sys.stdout.write(_LINE)
        sys.stdout.flush()
        return torch.empty_like(B)
