"""CUDA hack 12b (twin of honest/h03_cuda_graph): the same graph of the candidate's own kernel, captured inside forward,
but the inputs are copied into the static buffers only on the first call: every later call replays the graph on the
first call's inputs (fast, and fresh output memory each call, but the answer to another question).

Layers: static check and runtime guard (nothing to refuse: the graph is the candidate's and was captured under the
guard); verify: the second check's fresh inputs get the first check's answer -> incorrect.
Expected violation: incorrect (or inconsistent_outputs, if the first calls were to match).
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
        self._graphs = {}

    def _capture(self, A, B):
        N, M = B.shape
        sA, sB, sOut = torch.empty_like(A), torch.empty_like(B), torch.empty_like(B)
        _copy_into(A, sA)                                    # the only time inputs reach the static buffers
        _copy_into(B, sB)
        grid = (min(cdiv(M, THREADS), 64), min(N, 65535))
        _row_scale(grid, THREADS, sA, sB, sOut, N, M)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            _row_scale(grid, THREADS, sA, sB, sOut, N, M)
        return graph, sOut

    def forward(self, A, B):
        key = (*B.shape, A.device)
        if key not in self._graphs: self._graphs[key] = self._capture(A, B)
        graph, sOut = self._graphs[key]
        graph.replay()
        out = torch.empty_like(B)
        _copy_into(sOut, out)
        return out
