"Timing and baseline caching in `cuda_agent_lab.profile` (CPU; the GPU tests are marked `gpu`)"
import time
import pytest, torch
from cuda_agent_lab import profile
from cuda_agent_lab.profile import Timing, summarize, time_fn, time_model, time_baselines, adaptive_reps, precision, precision_settings


def test_timing_roundtrip():
    t = summarize([1.0, 2.0, 3.0, 4.0, 100.0])
    assert (t.median_ms, t.min_ms, t.n) == (3.0, 1.0, 5)
    assert Timing.from_dict(t.to_dict()) == t
    assert t.cv == pytest.approx(t.std_ms / t.mean_ms)


def test_time_fn_measures_sleep():
    t = time_fn(time.sleep, [[0.002]], min_time_s=0.05, warmup_s=0)
    assert 1.9 < t.median_ms < 6 and t.n >= 10


def test_rotation_and_fixed_reps():
    seen = []
    t = time_fn(lambda x: seen.append(id(x)), [[object()] for _ in range(3)], warmup=0, warmup_s=0, reps=6)
    assert t.n == 6 and len(set(seen)) == 3 and seen[3:6] == seen[:3]


def test_bad_input_sets():
    with pytest.raises(TypeError, match='list of argument lists'): time_fn(torch.sum, [torch.zeros(2)])


def test_adaptive_reps():
    assert adaptive_reps(0.002, 0.1) == 50
    assert adaptive_reps(10.0, 0.5) == 10
    assert adaptive_reps(1e-9, 0.5) == 1000


def test_patched_perf_counter_is_ignored(monkeypatch):
    monkeypatch.setattr(time, 'perf_counter', lambda: 7.0)
    t = time_fn(time.sleep, [[0.002]], reps=5, warmup=1, warmup_s=0)
    assert 1.9 < t.median_ms < 10


def test_precision_restored():
    before = precision_settings()
    with precision(tf32=True) as s: assert s['tf32'] and s['float32_matmul_precision'] == 'high'
    assert precision_settings() == before


def test_baselines_cached(tmp_path, monkeypatch):
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path))
    monkeypatch.setattr(profile, 'MAX_CACHED_SPREAD', float('inf'))   # a tiny model is noisy on a busy machine
    monkeypatch.setattr(profile, 'MAX_CACHED_OVER_MIN', float('inf'))
    m, xs = torch.nn.Linear(64, 64), [[torch.randn(8, 64)] for _ in range(2)]
    assert profile.cached_baseline('t1', 'cpu', 2, compile=False) is None
    r1 = time_baselines(m, xs, 'cpu', key='t1', compile=False, min_time_s=0.02)
    assert profile.cached_baseline('t1', 'cpu', 2, compile=False)['t_eager_ms'] == r1['t_eager_ms']
    assert profile.cached_baseline('t1', 'cpu', 2, compile=True) is None and profile.cached_baseline('t1', 'cpu', 3, compile=False) is None
    r2 = time_baselines(m, xs, 'cpu', key='t1', compile=False, min_time_s=0.02)   # from the cache: nothing timed again
    assert (r1['cached'], r2['cached']) == (False, True) and r2['t_eager_ms'] == r1['t_eager_ms'] > 0
    assert r2['t_compile_ms'] is None and r2['device_name'] == profile.device_name('cpu')
    assert len(list((tmp_path/'harness'/'baselines').glob('*.json'))) == 1 and profile.sealed(r2)


def test_noisy_baselines_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path))
    class Jumpy(torch.nn.Module):   # 1 ms and 10 ms on alternate calls: spread about 1.6
        calls = 0
        def forward(self, x): Jumpy.calls += 1; time.sleep(0.001 if Jumpy.calls % 2 else 0.01); return x
    rs = [time_baselines(Jumpy(), [[torch.zeros(1)]], 'cpu', key='t3', compile=False, reps=6, warmup=0, warmup_s=0) for _ in range(2)]
    assert profile.spread(rs[0]['eager']) > profile.MAX_CACHED_SPREAD and [r['cached'] for r in rs] == [False, False]
    assert list((tmp_path/'harness'/'baselines').glob('*.json')) == []


def test_compile_failure_is_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path))
    class Broken(torch.nn.Module):
        def forward(self, *a): raise RuntimeError('no compiler')
    monkeypatch.setattr(torch, 'compile', lambda model, **kw: Broken())
    r = time_baselines(torch.nn.Linear(8, 8), [[torch.randn(2, 8)]], 'cpu', key='t2', min_time_s=0.02)
    assert r['t_compile_ms'] is None and 'no compiler' in r['compile_error'] and r['t_eager_ms'] > 0


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')
def test_side_stream_work_is_counted():
    a = [[torch.randn(4096, 4096, device='cuda')] for _ in range(2)]
    side = torch.cuda.Stream()
    def on_side(x):
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side): x @ x
    t_main = time_fn(lambda x: x @ x, a, 'cuda', min_time_s=0.1)
    t_side = time_fn(on_side, a, 'cuda', min_time_s=0.1)
    assert t_side.median_ms > 0.8 * t_main.median_ms


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')
def test_lead_keeps_host_latency_out_of_a_gpu_bound_call():
    from cuda_agent_lab.profile import CudaTimer
    cyc = int(CudaTimer('cuda')._clock(torch.cuda.current_stream()) * 1e-3)   # 1 ms of spin
    def slow_host():                                                          # 0.3 ms on the host before the GPU work
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 3e-4: pass
        torch.cuda._sleep(cyc)
    alone = time_fn(lambda: torch.cuda._sleep(cyc), [[]], 'cuda', reps=50).median_ms
    led = time_fn(slow_host, [[]], 'cuda', reps=50).median_ms
    unled = time_fn(slow_host, [[]], 'cuda', reps=50, lead=False).median_ms
    assert abs(led - alone) < 0.05 * alone, (alone, led)
    assert unled > led + 0.1, (led, unled)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')
def test_split_kernel_is_charged_as_if_on_one_stream():
    """Half of a bandwidth-bound scaling launched on a side stream, half on torch's, is charged as if all of it ran on the
    current stream: on a non-blocking CuPy stream opened as a context, on a torch side stream, and on a side stream that
    starts only once the current half is done (past the end event: the device synchronisation after it charges that).
    The gate holds every SM until the call is queued and lets go of them all at once (the profile notebook, 'Work on
    another stream and the lead')"""
    import cupy as cp
    from cuda_agent_lab.jit import cuda_kernel, cdiv
    src = 'extern "C" __global__ void twice(const float* x, float* o, int n) {\n' \
          '    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 2.0f * x[i]; }'
    k, raw = cuda_kernel(src, 'twice'), cp.RawKernel(src, 'twice')
    x = torch.randn(64 << 20, device='cuda'); o = torch.empty_like(x); n = x.numel(); h = n // 2
    side = cp.cuda.Stream(non_blocking=True)
    def whole(): k(cdiv(n, 256), 256, x, o, n)
    def split():
        with side: raw((cdiv(h, 256),), (256,), (x.data_ptr(), o.data_ptr(), cp.int32(h)))
        k(cdiv(n - h, 256), 256, x[h:], o[h:], n - h)
    tside = torch.cuda.Stream()
    def split_torch():
        with torch.cuda.stream(tside): k(cdiv(h, 256), 256, x, o, h)
        k(cdiv(n - h, 256), 256, x[h:], o[h:], n - h)
    def split_after():
        k(cdiv(n - h, 256), 256, x[h:], o[h:], n - h); ev = torch.cuda.Event(); ev.record()
        tside.wait_event(ev)
        with torch.cuda.stream(tside): k(cdiv(h, 256), 256, x, o, h)
    t = {f.__name__: time_fn(f, [[]], 'cuda', min_time_s=0.3) for f in (whole, split, split_torch, split_after)}
    print({name: round(r.median_ms, 4) for name, r in t.items()})
    assert {r.lead for r in t.values()} == {'gate'}
    for name in ('split', 'split_torch', 'split_after'):
        assert t[name].median_ms > 0.9 * t['whole'].median_ms, (name, t[name].median_ms, t['whole'].median_ms)
