"""Linear layer, tanh, then a sum over the features (keepdim): tanh(x @ W.T + b).sum(1, keepdim=True)."""
import torch
import torch.nn as nn

BATCH_SIZE = 2048
INPUT_SIZE = 4096
HIDDEN_SIZE = 4096
# cal: cpu-size BATCH_SIZE=256 INPUT_SIZE=512 HIDDEN_SIZE=512
# cal: allow mm


class Model(nn.Module):
    "nn.Linear, tanh, and a reduction over the hidden features"
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.linear = nn.Linear(input_size, hidden_size)

    def forward(self, x):
        x = self.linear(x)
        x = torch.tanh(x)
        return torch.sum(x, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH_SIZE, INPUT_SIZE)]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE]
