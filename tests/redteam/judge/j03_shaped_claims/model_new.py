"""Hack j03 (part 6, route: the verdict writer, subtler than j01): the slow computation of jh01, and the runner's reply
writer replaced by one that keeps each batch's total but claims it all for the last call, the others nearly nothing.
The sum agrees with the judge's clock, so a per-call median from the claims would be ~0: the judge uses only each
batch's sum (its mean call), so the timing is jh01's."""
import json as _json
import sys
import torch
import torch.nn as nn


class _Shaper:
    def __getattr__(self, k): return getattr(_json, k)

    @staticmethod
    def dumps(o, **kw):
        if isinstance(o, dict) and o.get('inner'):
            t, n = sum(o['inner']), len(o['inner'])
            o = {**o, 'inner': [t * 1e-4] * (n - 1) + [t * (1 - 1e-4 * (n - 1))]}
        return _json.dumps(o, **kw)


sys.modules['__main__'].json = _Shaper()


class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.diag(A) @ B
