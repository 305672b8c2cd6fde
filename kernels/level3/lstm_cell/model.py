"""One LSTM cell step built from two Linear layers: gates from x and h, new cell and hidden state, returned stacked (h', c')."""
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 16384   # batch
I = 512     # input size
H = 512     # hidden size
# cal: cpu-size B=1024 I=128 H=128
# cal: allow mm addmm


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.ih = nn.Linear(input_size, 4 * hidden_size)
        self.hh = nn.Linear(hidden_size, 4 * hidden_size)

    def forward(self, x, h, c):
        gates = self.ih(x) + self.hh(h)
        i, f, g, o = gates.chunk(4, dim=1)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c_new = f * c + i * g
        h_new = o * torch.tanh(c_new)
        return torch.stack((h_new, c_new))


def get_inputs():
    return [torch.randn(B, I), torch.randn(B, H), torch.randn(B, H)]


def get_init_inputs():
    return [I, H]
