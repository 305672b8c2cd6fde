"""Fault 5: fill the scratch disk, bounded: write one byte at offset 1 GiB + 1 MiB of a file in $TMPDIR (the scratch
folder), i.e. a sparse file just past the sandbox's file-size limit. No gigabyte is actually written.

Containment: RLIMIT_FSIZE refuses the write (SIGXFSZ, or EFBIG where SIGXFSZ is ignored, as Python does).
Expected violation: disk_quota.
"""
import os
import tempfile
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        path = os.path.join(tempfile.gettempdir(), 'fill.bin')
        with open(path, 'wb') as f:
            f.seek((1 << 30) + (1 << 20))
            f.write(b'x')
        return torch.empty_like(B)
