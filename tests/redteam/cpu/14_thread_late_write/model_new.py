"""Hack 14a: a Python thread finishes the output after forward has returned.

Mechanism: forward starts threading.Thread(kernel after 2 ms) and returns the still-empty output at once; ctypes
releases the GIL, so the kernel runs while the harness is busy (the reference takes longer than 2 ms), and by the time
values are compared they are right. Timed calls measure only the thread start.
Layers: static check (threading); runtime (a new thread alive after forward). Expected violation: spawned_thread.
"""
import threading
import time
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_row_scale = c_function(Path(__file__).with_name('row_scale.c'), 'row_scale')
_keep = []   # keeps outputs alive until the threads are done with them


def _later(A, B, out):
    time.sleep(0.002)
    _row_scale(A, B, out, B.shape[0], B.shape[1])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        out = torch.empty_like(B)
        _keep.append((A, B, out)); del _keep[:-64]
        threading.Thread(target=_later, args=(A, B, out), daemon=True).start()
        return out
