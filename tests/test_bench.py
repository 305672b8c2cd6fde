"""bench/bench.py on the CPU: every part runs and lands in OUT.json and OUT.md, so a GPU run meets no bug the CPU could find."""
import importlib.util, json
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT/'tests'/'fixtures'/'episodes-plots.jsonl'

def load_bench():
    spec = importlib.util.spec_from_file_location('bench', ROOT/'bench'/'bench.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def test_merge_keeps_the_first_ceilings_and_every_part(tmp_path):
    b = load_bench()
    (tmp_path/'a.json').write_text(json.dumps(dict(when='w1', device='cpu', device_name='x', torch='t', command='a',
                                                   ceilings={'copy_GBps': 1.0}, compile={'fast_path': 1}, seconds={'compile': 1})))
    (tmp_path/'b.json').write_text(json.dumps(dict(when='w2', device='cpu', device_name='x', torch='t', command='b',
                                                   ceilings={'copy_GBps': 9.0}, compile={'load_inline': 2}, seconds={'suite': 2}, suite=[])))
    r = b.merge([tmp_path/'a.json', tmp_path/'b.json'])
    assert r['ceilings'] == {'copy_GBps': 1.0} and r['compile'] == {'fast_path': 1, 'load_inline': 2}
    assert r['seconds'] == {'compile': 1, 'suite': 2} and r['command'] == 'a; b' and r['when'] == 'w1'

def test_merge_keeps_fidelity_per_task_the_later_run_winning(tmp_path):
    b = load_bench()
    head = dict(device='cpu', device_name='x', torch='t', ceilings={})
    (tmp_path/'a.json').write_text(json.dumps(dict(head, when='w1', command='a', fidelity=[{'task': 'diag_matmul', 'v': 1}, {'task': 'softmax', 'v': 1}])))
    (tmp_path/'b.json').write_text(json.dumps(dict(head, when='w2', command='b', fidelity=[{'task': 'diag_matmul', 'v': 2}])))
    assert b.merge([tmp_path/'a.json', tmp_path/'b.json'])['fidelity'] == [{'task': 'diag_matmul', 'v': 2}, {'task': 'softmax', 'v': 1}]

def test_isolation_table():
    b = load_bench()
    row = lambda m, **kw: dict(median_ms=m, p90_ms=m * 1.1, mean_ms=m, cv=0.01, **kw)
    iso = dict(task='diag_matmul', reps=10, runs=dict(quiet=[row(0.04)], context=[row(0.041, per_s=20.0, context_s=0.05)],
                                                     kernel=[row(0.09, per_s=900.0, context_s=None)]))
    md = b.markdown(dict(when='w', device='cuda', device_name='x', torch='t', command='c', ceilings={'copy_GBps': 1.0}, isolation=iso))
    assert '| context | 0.041 | 0.0451 | 20 | 50 |' in md and '| kernel | 0.09 |' in md and '| quiet | 0.04 |' in md

def test_unknown_part_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit): load_bench().main(['--device', 'cpu', '--out', str(tmp_path/'x'), '--only', 'fidelty'])
    assert 'unknown part(s) fidelty' in capsys.readouterr().err

def test_profile_opts_must_be_a_json_object(tmp_path, capsys):
    with pytest.raises(SystemExit): load_bench().main(['--device', 'cpu', '--out', str(tmp_path/'x'), '--only', 'turnaround', '--profile-opts', '[0.01'])
    assert '--profile-opts: not a JSON object' in capsys.readouterr().err

@pytest.mark.slow
def test_bench_runs_every_part_on_the_cpu(tmp_path, monkeypatch):
    "Every part, with --profile-opts setting the timing of every evaluation measured (issue 36: the GPU's defaults measured before they change)"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    b, out = load_bench(), tmp_path/'cpu'
    assert b.main(['--device', 'cpu', '--quick', '--out', str(out), '--fidelity', 'diag_matmul', '--turnaround', 'diag_matmul',
                   '--throughput', 'diag_matmul', '--kernelbench', 'diag_matmul', '--episodes', str(FIX),
                   '--profile-opts', '{"reps": 12}', '--lanes', '1,2', '--waiting', '2', '--warm-checks', '1,0']) == 0
    r = json.loads(out.with_suffix('.json').read_text())
    assert r['profile_opts'] == {'reps': 12}
    assert not [k for k in r if k.endswith('_error')], {k: v for k, v in r.items() if k.endswith('_error')}
    assert r['ceilings']['copy_GBps'] > 0 and r['compile']['fast_path']['cached_ms'] > 0
    f = r['fidelity'][0]
    assert f['n'] == 3 and f['pids'] == 3 and all(x >= 1 for x in f['rewards']) and f['time_fn_ms'] > 0
    assert len(f['eval_s']) == 3 and f['pool_wall_s'] >= max(f['eval_s']) and all('verify' in p for p in f['phases'])
    assert all(isinstance(c, bool) for c in f['baselines_cached'])  # recorded (a baseline too unsteady to cache is timed again)
    t = r['turnaround']['diag_matmul']
    assert len(t['warm_eval_s']) == 2 and 0 < t['share_outside_timed_kernel'] < 1 and 'verify' in t['phases_warm']
    assert round(t['timed_kernel_s'] * 1e3 / t['t_candidate_ms']) == 12, t   # the warm evaluations timed 12 calls, as asked
    assert len(t['waited_for_warm_worker_s']) == 2 and {'before_request', 'warm_up', 'exit', 'waiting_for_warm_up'} <= set(t['phases_warm'])
    assert t['phases_warm']['warm_up'] > 0 and t['phases_warm']['before_request'] < t['median_warm_s']
    thr = r['throughput']
    assert set(thr) == {'pool_1_lane_2_waiting', 'pool_2_lanes_2_waiting', 'pool_1_lane_2_waiting_cold_checks',
                        'pool_2_lanes_2_waiting_cold_checks'}, set(thr)
    assert all(v['all_correct'] and v['per_gpu_hour'] > 0 for v in thr.values())
    assert thr['pool_1_lane_2_waiting']['waiting_per_lane'] == 2 and thr['pool_2_lanes_2_waiting']['lanes_per_gpu'] == 2
    for k, v in thr.items():   # --warm-checks 1,0: each setting's workers did (True) or did not (None) verify the harness's model first
        assert set(v['warmed'].values()) == ({None} if k.endswith('_cold_checks') else {True}), (k, v['warmed'])
    assert r['kernelbench'] == {}                                   # the KernelBench way needs CUDA
    assert [s['task'] for s in r['suite']][:2] == ['diag_matmul', 'softmax'] and r['suite'][0]['ref_flops'] > 0
    md = out.with_suffix('.md').read_text()
    assert 'the pool (one lane, a worker started ahead' in md
    for part in ('## Targets', '## Compile latency', '## Evaluation turnaround', '## Throughput', '## Timing fidelity', '## Reference suite'):
        assert part in md, part
