"""CUDA hack 12 (twin of honest/h03_cuda_graph): the same graph structure -- inputs copied into static buffers by the
candidate's own kernel, a replay, the static output copied into a fresh tensor -- but the graph was captured in
`__init__`, where no guard is active, and what it holds is torch's own row scaling (`torch.mul` of a broadcast view: an
aten kernel). Every output is right; none of it is the candidate's kernel.

Layers: static check (a capture in `__init__`) -> side_stream; runtime guard (the replay of a graph whose capture began
outside every guard) -> torch_fallback.
Expected violation: side_stream or torch_fallback.
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
        self.sA, self.sB = torch.zeros(N, device='cuda'), torch.zeros(N, M, device='cuda')
        self.sOut = torch.empty_like(self.sB)
        torch.mul(self.sA[:, None], self.sB, out=self.sOut)    # warm-up before the capture
        torch.cuda.synchronize()
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            torch.mul(self.sA[:, None], self.sB, out=self.sOut)

    def forward(self, A, B):
        _copy_into(A, self.sA)
        _copy_into(B, self.sB)
        self.graph.replay()
        out = torch.empty_like(B)
        _copy_into(self.sOut, out)
        return out
