"""GroupNorm followed by Swish (SiLU): y = GroupNorm(x); y * sigmoid(y)."""
import torch
import torch.nn as nn

BATCH_SIZE = 32
CHANNELS = 256
HEIGHT = 128
WIDTH = 128
NUM_GROUPS = 32
# cal: cpu-size BATCH_SIZE=8 CHANNELS=64 HEIGHT=32 WIDTH=32 NUM_GROUPS=8


class Model(nn.Module):
    "nn.GroupNorm (affine) then x * sigmoid(x)"
    def __init__(self, num_groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels, eps=1e-5)
        with torch.no_grad():                       # a non-trivial affine, so it is checked
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = self.gn(x)
        return x * torch.sigmoid(x)


def get_inputs():
    return [torch.randn(BATCH_SIZE, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [NUM_GROUPS, CHANNELS]
