"""2D convolution, 2x2 average pooling, tanh, then a sum over channels and space: one value per sample."""
import torch
import torch.nn as nn

BATCH_SIZE = 128
IN_CHANNELS = 32
OUT_CHANNELS = 64
HEIGHT = 160
WIDTH = 160
KERNEL_SIZE = 3
POOL_SIZE = 2
# cal: cpu-size BATCH_SIZE=8 IN_CHANNELS=8 OUT_CHANNELS=16 HEIGHT=32 WIDTH=32
# cal: allow convolution


class Model(nn.Module):
    "nn.Conv2d (valid padding), nn.AvgPool2d, tanh, and a sum over dims 1, 2, 3"
    def __init__(self, in_channels, out_channels, kernel_size, pool_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.avg_pool = nn.AvgPool2d(pool_size)

    def forward(self, x):
        x = self.conv(x)
        x = self.avg_pool(x)
        x = torch.tanh(x)
        return torch.sum(x, dim=[1, 2, 3])


def get_inputs():
    return [torch.randn(BATCH_SIZE, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, POOL_SIZE]
