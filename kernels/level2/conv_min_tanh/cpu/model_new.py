"""Conv2d + channel min + tanh + tanh as a convolution without bias (torch.conv2d, allowed) and one fused C pass
that adds the bias, keeps a running minimum over the channel planes and applies both tanh."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_min_tanh = c_function(Path(__file__).with_name('bias_min_tanh.c'), 'bias_min_tanh')


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        c = self.conv
        y = torch.conv2d(x, c.weight, None, c.stride, c.padding, c.dilation, c.groups)
        n, ch, h, w = y.shape
        out = torch.empty(n, 1, h, w, dtype=x.dtype)
        _min_tanh(y, c.bias, out, n, ch, h * w)
        return out
