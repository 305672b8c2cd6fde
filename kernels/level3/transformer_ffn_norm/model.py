"""Pre-norm transformer feed-forward: y = x + fc2(GELU_tanh(fc1(LayerNorm(x)))) over (batch, tokens, width)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 8       # batch
T = 1024    # tokens
E = 1024    # model width
HID = 4096  # hidden width
# cal: cpu-size B=4 T=128 E=256 HID=1024
# cal: allow mm addmm


class Model(nn.Module):
    def __init__(self, embed, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(embed)
        self.fc1 = nn.Linear(embed, hidden)
        self.fc2 = nn.Linear(hidden, embed)
        nn.init.uniform_(self.norm.weight, 0.5, 1.5)   # a non-trivial affine LayerNorm, from the seeded RNG
        nn.init.uniform_(self.norm.bias, -0.5, 0.5)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x)), approximate='tanh'))


def get_inputs():
    return [torch.randn(B, T, E)]


def get_init_inputs():
    return [E, HID]
