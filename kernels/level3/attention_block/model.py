"""Multi-head self-attention block: qkv projection, softmax(q k^T / sqrt(d)) v per head, heads merged, output projection."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 8       # batch
T = 1024    # sequence length
E = 768     # embedding width
HEADS = 12  # attention heads (head width E // HEADS)
# cal: cpu-size B=4 T=256 E=128 HEADS=4
# cal: allow mm addmm bmm


class Model(nn.Module):
    def __init__(self, embed, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(embed, 3 * embed)
        self.proj = nn.Linear(embed, embed)
        # wider than the default init, so the logits have a spread of about 2 and the softmax is far from uniform
        nn.init.normal_(self.qkv.weight, std=math.sqrt(2.0 / embed))

    def forward(self, x):
        b, t, e = x.shape
        h, d = self.heads, e // self.heads
        q, k, v = self.qkv(x).split(e, dim=2)
        q = q.view(b, t, h, d).transpose(1, 2)
        k = k.view(b, t, h, d).transpose(1, 2)
        v = v.view(b, t, h, d).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        att = att.softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, e)
        return self.proj(y)


def get_inputs():
    return [torch.randn(B, T, E)]


def get_init_inputs():
    return [E, HEADS]
