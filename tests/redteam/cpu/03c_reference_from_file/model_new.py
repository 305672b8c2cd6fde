"""Hack 3c: load the task's model.py from the installed package's kernels/ folder and exec it.

Mechanism: the candidate knows where the package lives (cuda_agent_lab.jit.__file__); the built-in task source sits in
kernels/level1/diag_matmul/model.py. exec() it and inherit Model.
Layers: static check (exec, reading model.py) -> forbidden_import / reference_access / file_access; runtime guard
would refuse the inherited torch ops (torch_fallback).
"""
from pathlib import Path
import torch.nn as nn
from cuda_agent_lab import jit

_src = (Path(jit.__file__).resolve().parents[1] / 'kernels' / 'level1' / 'diag_matmul' / 'model.py').read_text()
_ns = {}
exec(compile(_src, 'model.py', 'exec'), _ns)


class ModelNew(_ns['Model']):
    pass
