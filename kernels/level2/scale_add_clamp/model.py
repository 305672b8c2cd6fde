"""Elementwise chain: clamp(x * scale + y, min_val, max_val)."""
import torch
import torch.nn as nn

BATCH_SIZE = 64
CHANNELS = 64
HEIGHT = 256
WIDTH = 256
SCALE = 2.0
MIN_VAL = -1.0
MAX_VAL = 2.0
# cal: cpu-size BATCH_SIZE=16 CHANNELS=32 HEIGHT=64 WIDTH=64


class Model(nn.Module):
    "Scale a tensor, add a second one, and clamp the result"
    def __init__(self, scale, min_val, max_val):
        super().__init__()
        self.scale, self.min_val, self.max_val = scale, min_val, max_val

    def forward(self, x, y):
        x = x * self.scale
        x = x + y
        return torch.clamp(x, self.min_val, self.max_val)


def get_inputs():
    return [torch.randn(BATCH_SIZE, CHANNELS, HEIGHT, WIDTH), torch.randn(BATCH_SIZE, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [SCALE, MIN_VAL, MAX_VAL]
