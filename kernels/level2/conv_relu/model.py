"""2D convolution (3x3, padding 1, with bias) followed by ReLU."""
import torch
import torch.nn as nn

BATCH_SIZE = 32
IN_CHANNELS = 64
OUT_CHANNELS = 128
HEIGHT = 128
WIDTH = 128
KERNEL_SIZE = 3
# cal: cpu-size BATCH_SIZE=8 IN_CHANNELS=16 OUT_CHANNELS=32 HEIGHT=32 WIDTH=32
# cal: allow convolution


class Model(nn.Module):
    "nn.Conv2d then ReLU"
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return torch.relu(self.conv(x))


def get_inputs():
    return [torch.randn(BATCH_SIZE, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
