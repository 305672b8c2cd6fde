"""Fault 7: an infinite loop at import time (module level), before ModelNew even exists.

Containment: the wall-clock timeout kills the process group. Expected violation: timeout.
"""
import torch.nn as nn

while True:
    pass


class ModelNew(nn.Module):
    pass
