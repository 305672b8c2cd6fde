"""Matrix-vector product: `torch.matmul(A, B)` for A of shape (M, K) and B of shape (K, 1)."""
import torch
import torch.nn as nn

M = 4096
K = 65536
# cal: cpu-size M=4096 K=2048


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, 1)]


def get_init_inputs():
    return []
