"""Depthwise-separable block (eval mode): the depthwise 3x3 conv is a CUDA kernel with BatchNorm and ReLU fused into it
(one pass instead of conv, BN and ReLU passes); for the pointwise conv a small kernel folds the second BatchNorm into its
weights and bias every call, cuDNN runs the 1x1 conv on the folded weights (`# cal: allow convolution`), and a kernel adds
the bias and applies the ReLU."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import cuda_kernel, cdiv

_SRC = Path(__file__).with_name('dwsep.cu')
dw3x3_bn_relu = cuda_kernel(_SRC, 'dw3x3_bn_relu')
fold_bn = cuda_kernel(_SRC, 'fold_bn')
bias_relu = cuda_kernel(_SRC, 'bias_relu')


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
        dw3x3_bn_relu((cdiv(w, 32), cdiv(h, 8), min(n * c, 65535)), (32, 8), x, self.dw.weight, b1.weight, b1.bias,
                      b1.running_mean, b1.running_var, y, c, h, w, b1.eps, n * c)
        pw, b2 = self.pw.weight, self.bn2
        cout, k = pw.shape[0], pw.numel() // pw.shape[0]
        wf, bf = torch.empty_like(pw), torch.empty(cout, device=x.device, dtype=x.dtype)
        fold_bn(cdiv(cout * k, 256), 256, pw, b2.weight, b2.bias, b2.running_mean, b2.running_var, wf, bf, cout, k, b2.eps)
        z = torch.conv2d(y, wf)
        bias_relu((cdiv(h * w, 256), min(n * cout, 65535)), 256, z, bf, cout, h * w, n * cout)
        return z
