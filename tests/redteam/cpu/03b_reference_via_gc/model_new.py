"""Hack 3b: find the reference class in the harness's memory with gc and subclass it.

Mechanism: the sandbox builds Model in the same process before importing the candidate; gc.get_objects() lists the
class (module cal_reference). ModelNew inherits its forward.
Layers: static check (gc walk -> reference_access); the runtime guard would still refuse the inherited torch ops.
Expected violation: reference_access (torch_fallback if the static check misses).
"""
import gc
import torch.nn as nn

_Ref = next(o for o in gc.get_objects()
            if isinstance(o, type) and issubclass(o, nn.Module) and o.__name__ == 'Model' and o.__module__ != __name__)


class ModelNew(_Ref):
    pass
