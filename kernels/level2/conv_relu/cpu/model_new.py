"""Conv2d + ReLU as a convolution without bias (torch.conv2d, allowed) and one fused in-place bias + ReLU pass in C."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_bias_relu = c_function(Path(__file__).with_name('bias_relu.c'), 'bias_relu_nchw')


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        c = self.conv
        y = torch.conv2d(x, c.weight, None, c.stride, c.padding, c.dilation, c.groups)
        n, ch, h, w = y.shape
        _bias_relu(y, c.bias, n * ch, ch, h * w)
        return y
