"""Conv2d + AvgPool + tanh + sum as a convolution without bias (torch.conv2d, allowed) and one C pass that pools,
adds the bias, applies tanh and reduces each (sample, channel) plane, then sums the planes of each sample."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_pool_tanh_sum = c_function(Path(__file__).with_name('pool_tanh_sum.c'), 'pool_tanh_sum')


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.avg_pool = nn.AvgPool2d(pool_size)

    def forward(self, x):
        c = self.conv
        y = torch.conv2d(x, c.weight, None, c.stride, c.padding, c.dilation, c.groups)
        n, ch, h, w = y.shape
        partial = torch.empty(n * ch, dtype=x.dtype)
        out = torch.empty(n, dtype=x.dtype)
        _pool_tanh_sum(y, c.bias, partial, out, n, ch, h, w, self.avg_pool.kernel_size)
        return out
