"""LSTM cell step on CPU: both GEMMs in torch's BLAS, chained through addmm's input, and one C loop that adds b_hh, applies
the gate nonlinearities, updates the cell and writes h' and c' straight into the stacked output."""
from pathlib import Path
import torch
import torch.nn as nn
from cuda_agent_lab.jit import c_function

lstm_gates = c_function(Path(__file__).with_name('lstm.c'), 'lstm_gates')


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.ih = nn.Linear(input_size, 4 * hidden_size)
        self.hh = nn.Linear(hidden_size, 4 * hidden_size)

    def forward(self, x, h, c):
        b, hid = c.shape
        gates = torch.addmm(self.ih.bias, x, self.ih.weight.t())
        gates = torch.addmm(gates, h, self.hh.weight.t())
        out = torch.empty(2, b, hid, dtype=x.dtype)
        lstm_gates(gates, self.hh.bias, c, out, b, hid)
        return out
