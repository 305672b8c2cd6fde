"Speed-of-light floor: the copy ceiling, the bytes of an output, and the floor honest kernels must stay above"
import json, types
from pathlib import Path
import pytest, torch
from cuda_agent_lab import profile
from cuda_agent_lab.profile import (SOL_MARGIN, copy_ceiling, ceilings_dir, meta_outputs, output_bytes, speed_of_light,
                                    time_fn, view_bytes)
from cuda_agent_lab.tasks import get_task

ROOT = Path(__file__).parent.parent
H200 = ROOT/'reports'/'bench'/'2026-12-04-h200.json'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    "A fresh cache folder, so every test measures its own ceiling"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path))
    return tmp_path


@pytest.fixture
def measured(monkeypatch):
    "Count the measurements `copy_ceiling` makes; each returns a made-up ceiling (fast)"
    calls = []
    def fake(device='cpu', sizes=None):
        calls.append(str(device)); return {'GBps': 100.0 + len(calls), 'by_size': {'1024': {'copy': 1.0, 'fill': 1.0}}}
    monkeypatch.setattr(profile, 'measure_ceiling', fake)
    return calls


def _load(path, name=None):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name or f'_sol_{Path(path).parent.name}', path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m


def _task_module(name):
    "The module of suite task `name` at its full (GPU) size"
    t = get_task(name); m = types.ModuleType(f'_sol_task_{name}')
    exec(compile(t.source_for('cuda'), str(t.path), 'exec'), m.__dict__)
    return m


# ------------------------------------------------------------------------------------------------ the ceiling
def test_ceiling_is_measured_once_and_cached(cache, monkeypatch):
    calls, real = [], profile.measure_ceiling
    monkeypatch.setattr(profile, 'measure_ceiling', lambda d='cpu', sizes=None: calls.append(d) or real(d, sizes))
    c1, c2 = copy_ceiling('cpu'), copy_ceiling('cpu')   # how long it takes is bench's to say (it waits for the timing lock)
    assert (c1['cached'], c2['cached'], len(calls)) == (False, True, 1)
    assert c1['GBps'] > 0 and c2['GBps'] == c1['GBps'] and c2['by_size'] == c1['by_size']
    assert c1['device_name'] == profile.device_name('cpu')
    assert [p.parent for p in cache.rglob('*.json')] == [ceilings_dir()] and not list(cache.rglob('*.tmp'))


def test_ceiling_is_the_best_rate_over_sizes(cache):
    c = profile.measure_ceiling('cpu', sizes=(1 << 16, 1 << 20))
    assert set(c['by_size']) == {str(1 << 16), str(1 << 20)}
    assert all(r['copy'] > 0 and r['fill'] > 0 for r in c['by_size'].values())
    assert c['GBps'] == max(max(r.values()) for r in c['by_size'].values())


def test_ceiling_is_keyed_by_device_name_torch_and_version(cache, measured, monkeypatch):
    first = copy_ceiling('cpu')
    monkeypatch.setattr(profile, 'device_name', lambda device='cpu': 'Another CPU (64 cores)')
    other = copy_ceiling('cpu')
    assert (first['cached'], other['cached'], other['device_name']) == (False, False, 'Another CPU (64 cores)')
    assert copy_ceiling('cpu')['cached'] and len(measured) == 2
    monkeypatch.setattr(profile, 'CEILING_VERSION', profile.CEILING_VERSION + 1)
    assert not copy_ceiling('cpu')['cached']
    monkeypatch.setattr(torch, '__version__', '0.0.1-other')
    assert not copy_ceiling('cpu')['cached'] and len(measured) == 4
    assert len(list(ceilings_dir().glob('*.json'))) == 4


def test_damaged_or_foreign_cache_file_is_measured_again(cache, measured):
    c = copy_ceiling('cpu')
    p = ceilings_dir()/f"{c['key'][:32]}.json"
    p.write_text('{not json')
    assert not copy_ceiling('cpu')['cached']
    p.write_text(json.dumps({**json.loads(p.read_text()), 'key': 'someone else'}))
    assert not copy_ceiling('cpu')['cached'] and len(measured) == 3
    assert copy_ceiling('cpu')['cached']


# ------------------------------------------------------------------------------------------------ the floor
def test_speed_of_light_on_synthetic_numbers():
    floor = (64 << 20) / 1e9                                   # 64 MiB at 1000 GB/s, in ms
    s = speed_of_light(2 * floor, 64 << 20, ceiling_GBps=1000)
    assert abs(s['floor_ms'] - floor) < 1e-12 and abs(s['ratio'] - 2) < 1e-9 and not s['impossible']
    assert set(s) == {'floor_ms', 'write_bytes', 'read_bytes', 'ceiling_GBps', 'margin', 'ratio', 'impossible'}
    assert json.loads(json.dumps(s)) == s
    assert speed_of_light(1e-6, 64 << 20, ceiling_GBps=1000)['impossible']
    assert [speed_of_light(f * floor, 64 << 20, ceiling_GBps=1000)['impossible'] for f in (0.4, 0.6)] == [True, False]
    assert speed_of_light(0.4 * floor, 64 << 20, ceiling_GBps=1000, margin=0.3)['impossible'] is False
    both = speed_of_light(floor, 32 << 20, 32 << 20, ceiling_GBps=1000)
    assert abs(both['floor_ms'] - floor) < 1e-12 and both['read_bytes'] == 32 << 20
    none = speed_of_light(0.0, 0, ceiling_GBps=1000)
    assert (none['floor_ms'], none['ratio'], none['impossible']) == (0.0, None, False)
    with pytest.raises(ValueError, match='must be positive'): speed_of_light(1.0, 10, ceiling_GBps=0)


def test_output_bytes_counts_each_storage_once_by_its_views():
    a = torch.empty(512, 512)
    assert output_bytes(a) == 1 << 20 and output_bytes([a, (a, {'t': a.t()})]) == 1 << 20
    assert output_bytes(a[:256]) == 1 << 19 and output_bytes(a[0]) == 2048
    assert output_bytes(a.chunk(4)) == 1 << 18                            # views of one storage: the largest
    assert output_bytes((a[:1], a)) == 1 << 20
    assert output_bytes(torch.empty(512).expand(512, 512)) == 2048       # broadcast rows are one row
    assert view_bytes(a[:, ::2]) == 512 * 256 * 4                        # strided: its elements, not its span
    assert output_bytes((a, torch.empty(3, dtype=torch.int8), 'x', 1.5, None)) == (1 << 20) + 3
    x, w = torch.empty(1000), torch.empty(64, 64)
    assert output_bytes((x[:10], x.view(10, 100), a), exclude=(x, [w])) == 1 << 20   # aliases of inputs write nothing
    assert output_bytes(torch.empty(0, 3)) == 0 and output_bytes(torch.tensor(1.0)) == 4
    assert output_bytes(torch.empty(8192, 8192, device='meta')) == 256 << 20
    assert output_bytes(torch.eye(4).to_sparse()) == 0                   # no strided storage: nothing counted


def test_honest_cpu_kernels_are_above_the_floor(cache):
    "The suite's CPU row scaling (C, OpenMP) and a clone, from cache-resident to memory-sized outputs, timed by time_fn"
    ceiling = copy_ceiling('cpu')['GBps']
    row_scale = _load(get_task('diag_matmul').solutions['cpu']/'model_new.py').ModelNew()
    ratios = {}
    for n in (128, 512, 2048):
        sets = [[torch.randn(n), torch.randn(n, n)] for _ in range(3)]
        for name, fn in (('row_scale', row_scale), ('clone', lambda A, B: B.clone())):
            t = time_fn(fn, sets, min_time_s=0.05)
            s = speed_of_light(t.median_ms, output_bytes(fn(*sets[0]), exclude=sets[0]), ceiling_GBps=ceiling)
            assert s['write_bytes'] == n * n * 4
            assert not s['impossible'], (name, n, t, s)
            ratios[name, n] = s['ratio']
    assert min(ratios.values()) > SOL_MARGIN, ratios


def test_impossible_times_are_flagged(cache):
    ceiling = copy_ceiling('cpu')['GBps']
    assert speed_of_light(1e-6, 64 << 20, ceiling_GBps=ceiling)['impossible']
    made = torch.randn(4096, 4096)                       # a 64 MiB result computed before the clock started
    sets = [[torch.randn(4096)], [torch.randn(4096)]]
    t = time_fn(lambda x: made, sets, min_time_s=0.02)
    s = speed_of_light(t.median_ms, output_bytes(made, exclude=sets[0]), ceiling_GBps=ceiling)
    assert s['impossible'] and s['ratio'] < 0.01, (t, s)


# ------------------------------------------------------------------------------------------------ the H200's figures
def _suite_floors(ceiling_GBps:float) -> dict:
    "Per task of the H200 suite run: the speed-of-light verdict of its recorded solution time at `ceiling_GBps`"
    bench = json.loads(H200.read_text())
    return {s['task']: speed_of_light(s['t_candidate_ms'], output_bytes(meta_outputs(_task_module(s['task']))),
                                      ceiling_GBps=ceiling_GBps) for s in bench['suite']}


def test_h200_suite_solutions_are_well_above_the_floor():
    "The 37 honest solutions timed on the H200, against its recorded copy bandwidth: none flagged, the closest 3x the margin"
    bench = json.loads(H200.read_text())
    assert bench['device_name'] == 'NVIDIA H200' and len(bench['suite']) == 37
    floors = _suite_floors(bench['ceilings']['copy_GBps'])
    ratios = sorted((s['ratio'], name) for name, s in floors.items())
    print('closest to the floor:', ', '.join(f'{n} {r:.2f}' for r, n in ratios[:6]))
    assert not [n for n, s in floors.items() if s['impossible']]
    assert ratios[0][0] > 3 * SOL_MARGIN, ratios[:5]
    # the check has power where outputs are large: a stale output handed back in 10 us (the harness's own time) is flagged
    big = [n for n, s in floors.items() if s['floor_ms'] > 0.01 / SOL_MARGIN]
    assert len(big) >= 10, big
    assert all(speed_of_light(0.01, floors[n]['write_bytes'], ceiling_GBps=floors[n]['ceiling_GBps'])['impossible'] for n in big)


# ------------------------------------------------------------------------------------------------ on a GPU
@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA GPU')
def test_copy_ceiling_on_gpu(cache):
    "The GPU ceiling is cached, at least a plain DRAM copy's rate, and honest GPU work stays above its floor"
    c = copy_ceiling('cuda')
    print(f"{c['device_name']}: ceiling {c['GBps']:.0f} GB/s;",
          ', '.join(f"{int(n) >> 20} MiB copy {r['copy']:.0f} fill {r['fill']:.0f}" for n, r in c['by_size'].items()))
    assert not c['cached'] and copy_ceiling('cuda')['cached']
    a = torch.empty(1 << 28, device='cuda'); b = torch.empty_like(a)       # 1 GiB each, events, no flush (as bench.py)
    times = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); b.copy_(a); e.record(); e.synchronize(); times.append(s.elapsed_time(e))
    plain = 2 * a.nbytes / min(times) / 1e6
    assert c['GBps'] >= 0.95 * plain, (c['GBps'], plain)
    x = [[torch.randn(4 << 20, device='cuda')] for _ in range(3)]
    honest = {'copy 1 GiB': (lambda: b.copy_(a), [[]]), 'neg 16 MiB': (torch.neg, x), 'sum 16 MiB': (lambda v: v.sum(0), x),
              'scale 16 MiB': (lambda v: v * 2.0, x)}
    for name, (fn, sets) in honest.items():
        s = speed_of_light(time_fn(fn, sets, 'cuda', min_time_s=0.1).median_ms, output_bytes(fn(*sets[0]), exclude=sets[0]),
                           ceiling_GBps=c['GBps'])
        print(f'{name}: ratio {s["ratio"]}')
        assert not s['impossible'], (name, s)
    del a, b
    if c['device_name'] == 'NVIDIA H200':   # the recorded suite against the ceiling measured now
        floors = _suite_floors(c['GBps'])
        worst = min((s['ratio'], n) for n, s in floors.items())
        print('closest recorded solution to the measured floor:', worst)
        assert worst[0] > 2 * SOL_MARGIN, worst
