"""The evaluation pool: jobs, resumable result logs, the local backend on the CPU (fresh warm processes, retry of a killed
worker) and the Ray backend with fake GPUs (pinning, an actor killed mid-sweep), and `cal suite` resuming."""
import os, signal, threading, time, warnings
from pathlib import Path
import pytest
from cuda_agent_lab.pool import EvalPool, Job, as_job, check_pinning
from cuda_agent_lab.records import append_jsonl, done_keys, read_jsonl
from cuda_agent_lab.tasks import get_task

def ref_job(task, key=None, **kw):
    return Job(task, str(get_task(task).solutions['cpu']), 'cpu', dict(compile=False, **kw), key)

# each timed model warms up this long, so a job lasts seconds on any machine and a kill 1 s in always lands mid-job
LONG = dict(warmup_s=5.0, max_reps=10**7)

def wait_for(pred, timeout=300.0):
    "Poll `pred` until it returns something truthy"
    t0 = time.time()
    while time.time() - t0 < timeout:
        if (v := pred()): return v
        time.sleep(0.2)
    raise TimeoutError(f'waited {timeout} s')

# --- fast ---------------------------------------------------------------------------------------------------------------

def test_job_defaults_and_dict_roundtrip():
    j = as_job(dict(task='gelu', candidate='x/model_new.py'), 'cuda')
    assert (j.device, j.key) == ('cuda', 'gelu|x/model_new.py|cuda')
    assert Job.from_dict(j.to_dict()) == j

def test_results_log_skips_and_repairs_a_torn_line(tmp_path):
    log = tmp_path/'out'/'results.jsonl'
    for k in 'ab': append_jsonl(log, dict(key=k))
    with open(log, 'ab') as f: f.write(b'{"key": "c", "tor')
    with warnings.catch_warnings(record=True):
        warnings.simplefilter('always')
        assert done_keys(log) == {'a', 'b'}
    append_jsonl(log, dict(key='c'))
    assert log.read_text().count('\n') == 3 and [r['key'] for r in read_jsonl(log)] == ['a', 'b', 'c']

def test_concurrent_appends_stay_whole_lines(tmp_path):
    log = tmp_path/'r.jsonl'
    ts = [threading.Thread(target=lambda i=i: [append_jsonl(log, dict(key=f'{i}-{n}', pad='x' * 5000)) for n in range(20)]) for i in range(4)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert len(done_keys(log)) == 80

def test_pinning_check():
    ok = [dict(cuda_visible_devices='0', gpu_ids=['0']), dict(cuda_visible_devices='1', gpu_ids=['1'])]
    check_pinning(ok)
    with pytest.raises(RuntimeError, match='pinned'): check_pinning([ok[0], ok[0]])
    with pytest.raises(RuntimeError, match='pinned'): check_pinning([dict(cuda_visible_devices='0,1', gpu_ids=['0'])])

def test_unknown_backend():
    with pytest.raises(ValueError, match="'local'"): EvalPool('cpu', backend='dask')

# --- slow: real evaluations ---------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_local_pool_two_candidates_in_fresh_processes(tmp_path, monkeypatch):
    from cuda_agent_lab.profile import read_lock_trace, trace_overlaps
    monkeypatch.setenv('CAL_LOCK_TRACE', str(tmp_path/'locks.txt'))   # every exclusive hold of a device lock, by pid
    jobs = [ref_job('diag_matmul'), ref_job('gelu')]
    with EvalPool('cpu', workers=2) as pool:
        res = {r['key']: r for r in pool.map(jobs)}
    holds = read_lock_trace(tmp_path/'locks.txt')
    assert {r['worker']['pid'] for r in res.values()} <= {h['pid'] for h in holds}, holds   # each worker timed under the lock
    assert {h['lock'] for h in holds} == {'cpu.lock'} and trace_overlaps(holds) == [], holds   # two lanes, never two timings at once
    assert set(res) == {j.key for j in jobs}
    for r in res.values():
        assert r['correct'] and r['reward'] >= 1 and r['violations'] == [] and r['attempts'] == 1, r
    pids = [r['worker']['pid'] for r in res.values()]
    assert len(set(pids)) == 2 and os.getpid() not in pids
    assert res[jobs[0].key]['worker']['warm']   # the first job found a spare started ahead

@pytest.mark.slow
def test_run_pool_workers_waiting_serve_requests_back_to_back():
    """TRL calls its rollouts' tools one after the other: with two workers waiting per lane, a request sent the moment the
    one before it ended finds a worker already warm; with one, it waits for the warm-up of a worker started just then"""
    from cuda_agent_lab.rollout import run_pool
    second = {}
    for waiting in (2, 1):
        with run_pool('cpu', 1, waiting=waiting) as pool:
            assert pool.prespawn == waiting
            first = pool.submit(ref_job('diag_matmul', key='a')).result()
            second[waiting] = pool.submit(ref_job('diag_matmul', key='b')).result()
        assert first['correct'] and second[waiting]['correct'], (first, second[waiting])
    tl = {w: r['details']['timeline'] for w, r in second.items()}
    assert tl[2]['ready'] < tl[2]['sent'] and tl[2]['spawned'] < -1.0, tl   # warmed up while the first request ran
    assert tl[1]['ready'] > tl[1]['sent'] and tl[1]['spawned'] > -0.5, tl   # the twin: started when the first ended
    with pytest.raises(ValueError, match='waiting=0'): run_pool('cpu', 1, waiting=0)

@pytest.mark.slow
def test_local_worker_killed_mid_evaluation_is_retried_once():
    with EvalPool('cpu') as pool:
        f = pool.submit(ref_job('diag_matmul', key='k', profile_opts=LONG))   # at least 10 s: the kill lands mid-job
        pid = wait_for(lambda: pool.running().get('k'))
        time.sleep(1.0)
        os.killpg(pid, signal.SIGKILL)
        r = f.result(timeout=600)
    assert r['attempts'] == 2 and r['correct'] and r['worker']['pid'] != pid, r

@pytest.mark.slow
def test_suite_resumes_from_its_log(tmp_path):
    from cuda_agent_lab.pool import evaluate_suite
    out = tmp_path/'suite'
    append_jsonl(f'{out}.jsonl', dict(key='diag_matmul:cpu', task='diag_matmul', level=1, correct=True, reward=2,
                                       violations=[], eval_s=0.0, error=None, marker='from the log'))
    lines = []
    rows = evaluate_suite('cpu', names=['diag_matmul', 'gelu'], out=out, progress=lines.append, compile=False)
    assert [r['task'] for r in rows] == ['diag_matmul', 'gelu'] and rows[0]['marker'] == 'from the log'
    assert rows[1]['correct'] and rows[1]['reward'] >= 1, rows[1]
    assert any('resuming: 1 of 2' in l for l in lines) and not any('] diag_matmul' in l for l in lines), lines
    assert done_keys(f'{out}.jsonl') == {'diag_matmul:cpu', 'gelu:cpu'}

# --- slow: Ray with fake GPUs -------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_ray_actors_pinned_and_a_killed_actor_loses_nothing(ray_fake_gpus):
    ray = ray_fake_gpus
    jobs = [ref_job(t, key=f'{t}-{i}', profile_opts=LONG) for i in range(2) for t in ('diag_matmul', 'gelu')]
    with EvalPool('cpu', backend='ray') as pool:
        assert sorted(i['cuda_visible_devices'] for i in pool.infos) == ['0', '1']   # each actor sees exactly its own GPU
        assert all(i['gpu_ids'] == [i['cuda_visible_devices']] for i in pool.infos)
        fs = {j.key: pool.submit(j) for j in jobs}
        running = wait_for(pool.running)
        victim = next(iter(running.values()))
        time.sleep(1.0)
        lost = {k for k, a in pool.running().items() if a == victim}
        ray.kill(victim)
        res = {k: f.result(timeout=900) for k, f in fs.items()}
    assert set(res) == {j.key for j in jobs} and all(r['key'] == k for k, r in res.items())
    assert all(r['correct'] and r['reward'] >= 1 for r in res.values()), res
    attempts = {k: r['attempts'] for k, r in res.items()}
    twice = {k for k, n in attempts.items() if n == 2}
    assert twice and twice <= lost and set(attempts.values()) <= {1, 2}, (attempts, lost)

@pytest.mark.slow
def test_compile_ahead_fills_the_cubin_cache_without_a_gpu(tmp_path, monkeypatch):
    from cuda_agent_lab import jit
    from cuda_agent_lab.pool import compile_ahead
    try: jit.nvrtc_library()
    except RuntimeError: pytest.skip('no NVRTC here')
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    sol = Path(get_task('diag_matmul').solutions['cuda'])
    v = compile_ahead(sol, 'cuda', arch='sm_90')
    assert v['kernels'] == ['row_scale.cu'] and v['kernel_errors'] == [] and v['phase'] == 'done', v
    from cuda_agent_lab.sandbox import vouched_kernels
    vouched = vouched_kernels(sol)   # what the parent puts in the evaluation's request: the store's build, its record sealed
    assert len(vouched) == 1 and next(iter(vouched)).endswith('.cubin'), vouched
    def no_compiler(*a, **k): raise AssertionError('compiled again: compile-ahead missed the cache key')
    monkeypatch.setattr(jit, 'nvrtc_compile', no_compiler)
    monkeypatch.setattr(jit, '_mode', dict(kind='sandboxed', vouched=vouched, seal=None))   # as in the evaluation's worker
    assert jit.cubin_for((sol/'row_scale.cu').read_text(), 'row_scale.cu', 'row_scale', 'sm_90')   # what cuda_kernel will look up
