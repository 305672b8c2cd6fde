"""Conv2d + ReLU as a cuDNN convolution without bias (torch.conv2d, allowed) and one fused in-place bias + ReLU
kernel: the bias add and the activation share a single read and write of the output."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_bias_relu = cuda_kernel(Path(__file__).with_name('bias_relu.cu'), 'bias_relu_nchw')


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        c = self.conv
        y = torch.conv2d(x, c.weight, None, c.stride, c.padding, c.dilation, c.groups)
        n, ch, h, w = y.shape
        _bias_relu((cdiv(cdiv(h * w, 4), 256), n * ch), (256,), y, c.bias, ch, h * w)
        return y
