"""Conv2d + channel min + tanh + tanh as a cuDNN convolution without bias (torch.conv2d, allowed) and one fused
kernel that adds the bias, takes the minimum over the channels and applies both tanh in a single read of the
convolution output."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_min_tanh = cuda_kernel(Path(__file__).with_name('bias_min_tanh.cu'), 'bias_min_tanh')


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        c = self.conv
        y = torch.conv2d(x, c.weight, None, c.stride, c.padding, c.dilation, c.groups)
        n, ch, h, w = y.shape
        out = torch.empty(n, 1, h, w, device=x.device, dtype=x.dtype)
        _min_tanh((cdiv(cdiv(h * w, 4), 256), n), (256,), y, c.bias, out, ch, h * w)
        return out
