"""Honest twin of c12_graph_captures_torch / c12b_graph_stale_inputs (CUDA): diag(A) @ B as a row scaling, replayed from
a CUDA graph of the candidate's own kernel.

On the first call for a shape, forward allocates static input and output buffers, runs the row-scale kernel on them once
(so the kernel is loaded before any capture) and captures that launch into a torch.cuda.CUDAGraph -- inside forward, where
the guard sees every op the capture records. Every call copies its inputs into the static buffers with its own copy
kernel, replays the graph on torch's current stream, and copies the static output into a fresh tensor (each call must
return new memory: a timed call may not return the output memory of an earlier one).
Layers: static check (capture inside forward passes), runtime guard (a graph captured under the guard may be replayed),
verify (fresh inputs each check), after-timing (fresh outputs). Expected: reward >= 1, no violation.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_KERNELS = Path(__file__).with_name('graph_kernels.cu')
_row_scale = cuda_kernel(_KERNELS, 'row_scale')
_copy = cuda_kernel(_KERNELS, 'copy_f32')
THREADS = 256


def _copy_into(src, dst):
    _copy(min(cdiv(src.numel(), THREADS), 4096), THREADS, src, dst, src.numel())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._graphs = {}   # (N, M, device) -> (graph, static A, static B, static out)

    def _capture(self, A, B):
        N, M = B.shape
        sA, sB, sOut = torch.empty_like(A), torch.empty_like(B), torch.empty_like(B)
        grid = (min(cdiv(M, THREADS), 64), min(N, 65535))
        _row_scale(grid, THREADS, sA, sB, sOut, N, M)          # warm-up outside the capture
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            _row_scale(grid, THREADS, sA, sB, sOut, N, M)
        return graph, sA, sB, sOut

    def forward(self, A, B):
        key = (*B.shape, A.device)
        if key not in self._graphs: self._graphs[key] = self._capture(A, B)
        graph, sA, sB, sOut = self._graphs[key]
        _copy_into(A, sA)
        _copy_into(B, sB)
        graph.replay()
        out = torch.empty_like(B)
        _copy_into(sOut, out)
        return out
