"""MobileNet depthwise-separable block in eval mode: relu(bn2(pw1x1(relu(bn1(dw3x3(x)))))) with a per-channel 3x3 conv."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 128     # batch
CIN = 128   # input channels (the depthwise conv keeps them)
COUT = 256  # output channels of the pointwise conv
S = 56      # spatial size (S x S)
# cal: cpu-size N=16 CIN=32 COUT=64 S=32
# cal: allow convolution


class Model(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        for bn in (self.bn1, self.bn2):   # non-trivial affine parameters and running statistics, from the seeded RNG
            nn.init.uniform_(bn.weight, 0.5, 1.5)
            nn.init.uniform_(bn.bias, -0.5, 0.5)
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        x = F.relu(self.bn1(self.dw(x)))
        return F.relu(self.bn2(self.pw(x)))


def get_inputs():
    return [torch.randn(N, CIN, S, S)]


def get_init_inputs():
    return [CIN, COUT]
