"""Hack j08 (part 6, GPU: work after the clock). The runner ends each call on a GPU with `torch.cuda.synchronize`, so
its reply, and the judge's clock, come after the call's work. This candidate turns every synchronize in its process
into nothing at import, then queues the slow computation of jh01 several times a call: the reply goes out while its
kernels still run. The judge's clock runs on until it holds a copy of the outputs in memory the runner never sees,
and compares that copy, then checks the outputs did not change after it: stale outputs are `incorrect` (or `nan_inf`:
the judge fills every output slot with NaN before a batch), outputs still changing are `timing_mismatch`, and claims of
launches alone are far under the clock (`timing_mismatch`). Seen on an H100: -1 `nan_inf`."""
import torch
import torch.nn as nn

_none = lambda *a, **k: None
torch.cuda.synchronize = _none
setattr(vars(torch)['_C'], '_cuda_' + 'synchronize', _none)


class ModelNew(nn.Module):
    def forward(self, A, B):
        for _ in range(4): out = torch.diag(A) @ B
        return out
