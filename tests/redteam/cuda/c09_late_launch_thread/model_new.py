"""CUDA hack 14: a host thread launches the kernel 1 ms after forward returned, i.e. after the harness's device-wide
synchronisation: the timed interval holds no GPU work at all, and the values are usually there by the time they are
compared.

Layers: static check (threading) / runtime (a thread alive after forward) -> spawned_thread.
"""
import threading
import time
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_row_scale = cuda_kernel(Path(__file__).with_name('row_scale.cu'), 'row_scale')


def _grid(N, M):
    return (min(cdiv(M, 256), 64), min(N, 65535))

_keep = []


def _later(A, B, out, N, M):
    time.sleep(0.001)
    _row_scale(_grid(N, M), 256, A, B, out, N, M)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        N, M = B.shape
        out = torch.empty_like(B)
        _keep.append((A, B, out)); del _keep[:-64]
        threading.Thread(target=_later, args=(A, B, out, N, M), daemon=True).start()
        return out
