"""The compatible candidate formats go through the same trusted evaluation: KernelBench's load_inline and the CUDA-Agent workdir."""
from pathlib import Path
import pytest
from cuda_agent_lab.sandbox import evaluate

FX = Path(__file__).parent/'fixtures'/'formats'

@pytest.mark.slow
@pytest.mark.parametrize('fmt', ['load_inline_cpu', 'workdir_cpu'])
def test_format_passes(fmt):
    r = evaluate('diag_matmul', FX/fmt, 'cpu', compile=False, timeout=900)
    assert r['correct'] and r['reward'] >= 1 and r['violations'] == [], (r['violations'], r['error'])
