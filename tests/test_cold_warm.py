"""Reward integrity across caches: an honest candidate gets the same verdict from an empty cache as from a warm one, in
every candidate format (issue 18).

On the H200 an honest load_inline candidate got -1 (`spawned_thread`) when its task's baselines were not cached: timing
`torch.compile` in the candidate's process left inductor's compile-worker pool behind, and its quiesce timer thread
started while the candidate was being built. The baselines are now timed in a process of their own; these tests hold
every format to one verdict, cold and warm, on the CPU here and (marked `gpu`) on a GPU. The cold run is also each
format's proof that it passes the trusted evaluation (KernelBench's load_inline, the CUDA-Agent workdir, the fast path),
and the warm runs that a workdir's second build rewrites nothing in its build folder, so ninja finds nothing to rebuild.
"""
from pathlib import Path
import pytest
from cuda_agent_lab.sandbox import evaluate

ROOT = Path(__file__).resolve().parents[1]
FX = ROOT/'tests'/'fixtures'/'formats'
FORMATS = {'cpu': {'c_fast_path': ROOT/'kernels/level1/diag_matmul/cpu', 'load_inline': FX/'load_inline_cpu',
                   'workdir': FX/'workdir_cpu'},
           'cuda': {'fast_path': ROOT/'kernels/level1/diag_matmul/cuda', 'load_inline': FX/'load_inline_cuda',
                    'workdir': FX/'workdir_cuda'}}
CASES = [pytest.param(dev, fmt, marks=[pytest.mark.slow] + ([pytest.mark.gpu] if dev == 'cuda' else []), id=f'{dev}-{fmt}')
         for dev in FORMATS for fmt in FORMATS[dev]]


def spreads(b) -> dict:
    "(p90 - p10) / median of the eager and compile timings of a baseline record"
    return {k: round((t['p90_ms'] - t['p10_ms']) / t['median_ms'], 2) for k in ('eager', 'compile') if (t := b.get(k))}


def workdir_builds(cache:Path) -> dict:
    "Modification times of the files in the cache's workdir build folders"
    return {str(f.relative_to(cache)): f.stat().st_mtime_ns for f in cache.glob('jit/workdir-*/*') if f.is_file()}


def verdict(r) -> tuple:
    "What must not depend on the cache: compiled, correct, reward, violations, error"
    return r['compiled'], r['correct'], r['reward'], r['violations'], r['error']


@pytest.mark.parametrize('device,fmt', CASES)
def test_cold_and_warm_caches_give_the_same_verdict(device, fmt, tmp_path, monkeypatch):
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))   # empty: no kernel build, no baseline, no inductor cache
    cold = evaluate('diag_matmul', FORMATS[device][fmt], device, timeout=900)
    assert not cold['details']['baselines']['cached']
    assert cold['correct'] and cold['reward'] >= 1 and cold['violations'] == [], (cold['violations'], cold['error'])
    built = workdir_builds(tmp_path/'cache')
    assert bool(built) == (fmt == 'workdir'), built
    for _ in range(3):   # an unsteady baseline timing (a busy machine) is used once, not cached: evaluate again
        warm = evaluate('diag_matmul', FORMATS[device][fmt], device, timeout=900)
        assert verdict(cold) == verdict(warm), (verdict(cold), verdict(warm))
        if warm['details']['baselines']['cached']: break
    assert warm['details']['baselines']['cached'], f"no warm run found the baselines cached: {spreads(warm['details']['baselines'])}"
    assert workdir_builds(tmp_path/'cache') == built   # the warm runs' builds rewrote no file of the build folder


def test_baselines_are_timed_outside_the_candidates_process(tmp_path, monkeypatch):
    "The structural half of the fix: a cold evaluation's baselines come from a process that never imports the candidate"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    r = evaluate('diag_matmul', FORMATS['cpu']['c_fast_path'], 'cpu', compile=False, timeout=300)
    b, pid = r['details']['baselines'], r['details']['pid']
    assert r['correct'] and not b['cached'] and b['timed_by_pid'] != pid, (b.get('timed_by_pid'), pid, r['error'])
