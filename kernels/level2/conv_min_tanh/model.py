"""2D convolution, minimum over the channels (keepdim), then tanh applied twice."""
import torch
import torch.nn as nn

BATCH_SIZE = 64
IN_CHANNELS = 32
OUT_CHANNELS = 64
HEIGHT = 256
WIDTH = 256
KERNEL_SIZE = 3
# cal: cpu-size BATCH_SIZE=8 IN_CHANNELS=8 OUT_CHANNELS=16 HEIGHT=32 WIDTH=32
# cal: allow convolution


class Model(nn.Module):
    "nn.Conv2d (valid padding), channel-wise min, tanh, tanh"
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        x = self.conv(x)
        x = torch.min(x, dim=1, keepdim=True)[0]
        x = torch.tanh(x)
        x = torch.tanh(x)
        return x


def get_inputs():
    return [torch.randn(BATCH_SIZE, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
