"""CUDA hack 12c: c12 with the capture moved into a helper method that `__init__` calls, so that no static rule sees a
capture outside forward (the static rule looks only at module level, class bodies and `__init__` itself).

Layers: static check (blind to it); runtime guard: `watch_cuda_graphs` noted that the capture began while no guard was
active, so the replay inside forward is refused -> torch_fallback (a recapture inside forward would be refused at
torch.mul by the dispatch mode, torch_fallback too).
Expected violation: torch_fallback.
"""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_copy = cuda_kernel(Path(__file__).with_name('graph_kernels.cu'), 'copy_f32')
N = M = 4096   # diag_matmul's GPU size
THREADS = 256


def _copy_into(src, dst):
    _copy(min(cdiv(src.numel(), THREADS), 4096), THREADS, src, dst, src.numel())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._build(N, M)

    def _build(self, n, m):
        self.shape = (n, m)
        self.sA, self.sB = torch.zeros(n, device='cuda'), torch.zeros(n, m, device='cuda')
        self.sOut = torch.empty_like(self.sB)
        torch.mul(self.sA[:, None], self.sB, out=self.sOut)    # warm-up before the capture
        torch.cuda.synchronize()
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            torch.mul(self.sA[:, None], self.sB, out=self.sOut)

    def forward(self, A, B):
        if tuple(B.shape) != self.shape: self._build(*B.shape)
        _copy_into(A, self.sA)
        _copy_into(B, self.sB)
        self.graph.replay()
        out = torch.empty_like(B)
        _copy_into(self.sOut, out)
        return out
