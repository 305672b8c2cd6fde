"""Attention probabilities: softmax(Q @ K^T / sqrt(head_dim)) over the keys."""
import math
import torch
import torch.nn as nn

BATCH_SIZE = 4
NUM_HEADS = 16
SEQ_LEN = 2048
HEAD_DIM = 64
# cal: cpu-size BATCH_SIZE=2 NUM_HEADS=4 SEQ_LEN=256 HEAD_DIM=32
# cal: allow bmm


class Model(nn.Module):
    "Scaled dot-product scores of queries against keys, normalised by a softmax over the keys"
    def __init__(self):
        super().__init__()

    def forward(self, q, k):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        return torch.softmax(scores, dim=-1)


def get_inputs():
    # std-2 entries give scores of std 4: peaked rows, so the 1e-2 tolerance still checks the large probabilities
    return [2 * torch.randn(BATCH_SIZE, NUM_HEADS, SEQ_LEN, HEAD_DIM), 2 * torch.randn(BATCH_SIZE, NUM_HEADS, SEQ_LEN, HEAD_DIM)]


def get_init_inputs():
    return []
