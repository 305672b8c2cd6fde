"""Depthwise-separable block (eval mode) on CPU: the depthwise 3x3 conv is a C loop with BatchNorm and ReLU fused into it;
a C loop folds the second BatchNorm into the pointwise weights and bias every call, torch runs the 1x1 conv on the folded
weights (`# cal: allow convolution`), and a C loop adds the bias and applies the ReLU."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

_SRC = Path(__file__).with_name('dwsep.c')
dw3x3_bn_relu = c_function(_SRC, 'dw3x3_bn_relu')
fold_bn = c_function(_SRC, 'fold_bn')
bias_relu = c_function(_SRC, 'bias_relu')


class ModelNew(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)

    def forward(self, x):
        n, c, h, w = x.shape
        y = torch.empty_like(x)
        b1 = self.bn1
        dw3x3_bn_relu(x, self.dw.weight, b1.weight, b1.bias, b1.running_mean, b1.running_var, y, n * c, c, h, w, b1.eps)
        pw, b2 = self.pw.weight, self.bn2
        cout, k = pw.shape[0], pw.numel() // pw.shape[0]
        wf, bf = torch.empty_like(pw), torch.empty(cout, dtype=x.dtype)
        fold_bn(pw, b2.weight, b2.bias, b2.running_mean, b2.running_var, wf, bf, cout, k, b2.eps)
        z = torch.conv2d(y, wf)
        bias_relu(z, bf, n * cout, cout, h * w)
        return z
