"""SwiGLU block: a one-block-per-row RMSNorm kernel, cuBLAS mm for the gate and up projections, one CUDA kernel for
silu(gate) * up in place, and the down projection with the residual folded into cuBLAS as addmm(x, h, W_down^T)."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_SRC = Path(__file__).with_name('swiglu.cu')
rmsnorm = cuda_kernel(_SRC, 'rmsnorm')
silu_mul = cuda_kernel(_SRC, 'silu_mul')


class ModelNew(nn.Module):
    def __init__(self, embed, hidden):
        super().__init__()
        self.norm = nn.RMSNorm(embed, eps=1e-6)
        self.gate = nn.Linear(embed, hidden, bias=False)
        self.up = nn.Linear(embed, hidden, bias=False)
        self.down = nn.Linear(hidden, embed, bias=False)

    def forward(self, x):
        b, t, e = x.shape
        x2 = x.view(b * t, e)
        xn = torch.empty_like(x2)
        rmsnorm(b * t, 256, x2, self.norm.weight, xn, e, self.norm.eps)
        g = torch.mm(xn, self.gate.weight.t())
        u = torch.mm(xn, self.up.weight.t())
        silu_mul(cdiv(g.numel(), 256), 256, g, u, g.numel())
        return torch.addmm(x2, g, self.down.weight.t()).view(b, t, e)
