"""ResNet BasicBlock in eval mode: relu(bn2(conv2(relu(bn1(conv1(x))))) + x) with 3x3 convolutions and an identity shortcut."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 128     # batch
C = 64      # channels (in = out, stride 1: identity shortcut)
S = 56      # spatial size (S x S)
# cal: cpu-size N=8 C=32 S=32
# cal: allow convolution


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        for bn in (self.bn1, self.bn2):   # non-trivial affine parameters and running statistics, from the seeded RNG
            nn.init.uniform_(bn.weight, 0.5, 1.5)
            nn.init.uniform_(bn.bias, -0.5, 0.5)
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


def get_inputs():
    return [torch.randn(N, C, S, S)]


def get_init_inputs():
    return [C]
