"""GroupNorm + Swish fused in one CUDA kernel: one block per (sample, group) computes the group's mean and
variance (shifted sums, warp-shuffle reduction), folds them with the affine into one scale and shift per
channel, and writes swish(x * scale + shift): two reads and one write instead of the eager five passes."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel

_gn_swish = cuda_kernel(Path(__file__).with_name('group_norm_swish.cu'), 'group_norm_swish')


class ModelNew(nn.Module):
    def __init__(self, num_groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels, eps=1e-5)

    def forward(self, x):
        n, c = x.shape[:2]
        hw = x.numel() // (n * c)
        g = self.gn.num_groups
        out = torch.empty_like(x)
        _gn_swish((n * g,), (512,), x, self.gn.weight, self.gn.bias, out, c, g, hw, self.gn.eps)
        return out
