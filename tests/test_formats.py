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


@pytest.mark.slow
def test_workdir_rebuild_leaves_the_build_folder_untouched(tmp_path, monkeypatch):
    "A second build of the same workdir rewrites no file of its build folder, so ninja finds nothing to rebuild"
    from cuda_agent_lab import jit
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path))
    jit.load_workdir_kernels(FX/'workdir_cpu')
    build = next((tmp_path/'jit').glob('workdir-*'))
    before = {f.name: f.stat().st_mtime_ns for f in build.iterdir() if f.is_file()}
    jit.load_workdir_kernels(FX/'workdir_cpu')
    assert {f.name: f.stat().st_mtime_ns for f in build.iterdir() if f.is_file()} == before
