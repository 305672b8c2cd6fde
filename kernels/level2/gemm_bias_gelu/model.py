"""Linear layer followed by the exact (erf) GELU: gelu(x @ W.T + b)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH_SIZE = 2048
IN_FEATURES = 4096
OUT_FEATURES = 4096
# cal: cpu-size BATCH_SIZE=256 IN_FEATURES=512 OUT_FEATURES=512
# cal: allow mm


class Model(nn.Module):
    "nn.Linear then GELU"
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.gelu(self.linear(x))


def get_inputs():
    return [torch.randn(BATCH_SIZE, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
