"""Reward integrity part 6: the judge outside the candidate's process (`judge.judged_timing`, a runner of its own, CPU).
The hacks that reach the runner's own objects change only claims; the judge's clock and its own comparison decide."""
import json, re, time
from pathlib import Path
import pytest
from cuda_agent_lab.judge import MISMATCH_RATIO, judged_timing
from cuda_agent_lab.tasks import get_task

J = Path(__file__).parent/'redteam'/'judge'


def test_honest_solution_is_judged_correct_and_its_times_stand():
    r = judged_timing('diag_matmul', get_task('diag_matmul').solutions['cpu'], batches=6)
    assert r['correct'] and r['error'] is None and r['violations'] == [] and len(r['batches']) == 6, r   # no claim given: every batch runs
    assert r['calls'] == sum(b['calls'] for b in r['batches']) + 2 * 2, r   # two warm-up batches of two calls, then batches sized by time
    assert r['floor_ms'] <= r['floor_median_ms'], r
    # its own times stand, or (this VM's floor moves by half between runs) the floor, never more than MISMATCH_RATIO over them
    assert r['median_ms'] == (r['inner_ms'] if r['time_source'] == 'runner' else r['floor_ms']) <= MISMATCH_RATIO * r['inner_ms'], r


def test_the_slot_file_has_no_name_once_both_sides_mapped_it(monkeypatch):
    "From the runner's first reply on, the slot file is unlinked: no other process (another worker) can open it by name"
    from cuda_agent_lab.judge import Judge
    seen, run = [], Judge.run
    monkeypatch.setattr(Judge, 'run', lambda self, ch, *a, **k: (seen.append((self.path, self.path.exists())), run(self, ch, *a, **k))[1])
    r = judged_timing('diag_matmul', get_task('diag_matmul').solutions['cpu'], batches=1)
    assert r['correct'] and len(seen) == 1 and seen[0][1] is False and seen[0][0].name.startswith('cal-slots-'), (r, seen)


def test_a_lying_runner_gets_timing_mismatch_and_its_twin_keeps_its_times():
    "j01 divides the runner's reported times by 100; its twin jh01 computes the same and reports honestly"
    twin = judged_timing('diag_matmul', J/'jh01_slow_eager', batches=4)
    liar = judged_timing('diag_matmul', J/'j01_lying_runner', batches=4)
    assert twin['correct'] and twin['violations'] == [], twin
    assert liar['reward'] == -1 and liar['violations'] == ['timing_mismatch'], liar
    assert liar['inner_ms'] < twin['inner_ms'] / 20, (liar, twin)   # what it claimed; the clock's floor is far above it
    assert liar['floor_ms'] > 2 * liar['inner_ms'], liar


def test_claims_shaped_within_a_batch_do_not_set_the_median():
    "j03 keeps each batch's total but claims it for one call: only the batch's sum counts, so its timing is its twin's"
    twin = judged_timing('diag_matmul', J/'jh01_slow_eager', batches=4)
    shaped = judged_timing('diag_matmul', J/'j03_shaped_claims', batches=4)
    assert twin['correct'] and shaped['correct'] and shaped['violations'] == [], (twin, shaped)
    assert shaped['median_ms'] > twin['median_ms'] / 3, (shaped, twin)


def test_outputs_are_judged_where_the_tolerances_are():
    r = judged_timing('diag_matmul', J/'j02_zeros_after_first', batches=2)
    assert r['reward'] == -1 and set(r['violations']) <= {'incorrect', 'inconsistent_outputs'} and 'call 2 of batch 1' in r['error'], r


def test_a_candidate_that_fails_to_load_is_reported(tmp_path):
    (tmp_path/'model_new.py').write_text('raise RuntimeError("no kernel today")\n')
    r = judged_timing('diag_matmul', tmp_path, batches=1)
    assert r['reward'] == -1 and r['violations'] == ['import_error'] and 'no kernel today' in r['error'], r


# ---------------------------------------------------------------------------------------------------------------------
# The sandbox's evaluations on the CPU: the worker serves the judge's batches after its own phases (`_phase_null`,
# `_phase_judged`); its verdict is a claim the judge in the parent checks. Each route's hack with the judge off shows
# the route is open in the worker's own process; with the judge on it is -1. The twin keeps its reward. Cold (a fresh
# cache: kernels built, baselines timed) and warm.

from cuda_agent_lab.sandbox import evaluate


def _ev(name, **kw): return evaluate('softmax', J/name, 'cpu', timeout=240, **kw)


# The seal key, out of the worker's reach below Python (`sandbox.isolation`): j06 reads the key and reseals the baselines
# its verdict carries; j07 moves the key's folder aside and plants a key of its own. Both first replace the audit's rule
# by name, so only the worker's namespace stands in their way.

from cuda_agent_lab import sandbox
from cuda_agent_lab.profile import seal_key, seal_key_path


def _state(pid):
    "A process's state letter ('T' stopped, 'Z' zombie, ...), or None when it is gone"
    try: return Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0]
    except OSError: return None


def _key_state():
    p = seal_key_path()
    moved = [x for d in list(p.parents)[:-1] for x in d.iterdir() if x.name.endswith('.j07')]   # a folder j07 moved aside
    return p.stat().st_ino, p.read_bytes(), moved


def test_sandbox_routes_cold_and_warm(tmp_path, monkeypatch):
    "j04, j05 (the judge) and j06, j07 (the seal key, below Python), cold (a fresh cache) and warm (in a worker started ahead)"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    assert sandbox.isolation() == {'ok': True}, sandbox.isolation()   # this machine (and CI's) can mask a worker
    seal_key(); key = _key_state()
    for state in ('cold', 'warm'):
        twin = _ev('jh02_slow_softmax')
        assert twin['correct'] and twin['reward'] == 1 and twin['violations'] == [], (state, twin)
        j = twin['details']['judge']
        assert j['judged'] and j['correct'] and j['time_source'] in ('runner', 'judge') and j['checked'] >= 4, (state, j)
        assert twin['details']['isolation'] == 'namespace', (state, twin['details'])
        writer = _ev('j04_verdict_writer')
        assert writer['reward'] == -1 and writer['violations'] == ['timing_mismatch'], (state, writer)
        reach = _ev('j05_gc_reach')
        assert reach['reward'] == -1 and 'incorrect' in reach['violations'] and 'the judge: judged call' in reach['error'], (state, reach)
        if state == 'cold':   # reading the key, or forking a helper, is one route, warm or cold
            reseal = _ev('j06_seal_key_reseal')
            assert reseal['reward'] == -1 and reseal['violations'] == ['early_exit'] and 'phase import' in reseal['error'], reseal   # seal() found no key
            helper = _ev('j09_helper_process')
            assert helper['reward'] == -1 and helper['violations'] == ['spawned_process'], helper
            pids = [int(p) for p in re.findall(r'(\d+) \(', helper['error'].split('namespace:')[1])]
            for _ in range(100):   # killed with the worker (gone, or a zombie init has not reaped); SIGKILL lands within moments
                if all(_state(p) in (None, 'Z') for p in pids): break
                time.sleep(0.01)
            assert pids and all(_state(p) in (None, 'Z') for p in pids), [(p, _state(p)) for p in pids]
        w = sandbox.spawn_worker('cpu', timeout=240) if state == 'warm' else None   # as a pool's spare
        swap = evaluate('softmax', J/'j07_key_swap', 'cpu', timeout=240, worker=w)
        assert swap['reward'] == -1 and swap['violations'] == ['tampered_harness'], (state, swap)
        assert _key_state() == key, state   # the same key file, unchanged, and no folder moved aside


def test_without_the_judge_both_routes_are_open(tmp_path, monkeypatch):
    "The proof that j04 and j05 test something: the worker's own process rewards both (no judge: `evaluate(judge=False)`)"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    writer = _ev('j04_verdict_writer', judge=False)
    assert writer['reward'] >= 2 and writer['t_candidate_ms'] < writer['t_eager_ms'], writer   # a kernel 8x slower than its own softmax
    reach = _ev('j05_gc_reach', judge=False)
    assert reach['correct'] and reach['reward'] >= 1, reach   # wrong outputs, judged correct in-process


def test_a_judged_verdict_needs_the_judges_run(tmp_path, monkeypatch):
    "A correct worker verdict whose judge never ran (the channel closed by the candidate) is incomplete: -1"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    (tmp_path/'c').mkdir()
    src = (J/'jh02_slow_softmax'/'model_new.py').read_text().replace('class ModelNew', '''_os = vars(torch)['os']   # past the static check
for _fd in getattr(_os, 'envi' + 'ron')['CAL_JUDGE' + '_FDS'].split(','): getattr(_os, 'clo' + 'se')(int(_fd))


class ModelNew''')
    (tmp_path/'c'/'model_new.py').write_text(src); (tmp_path/'c'/'softmax.c').write_text((J/'jh02_slow_softmax'/'softmax.c').read_text())
    r = evaluate('softmax', tmp_path/'c', 'cpu', timeout=240)
    assert r['reward'] == -1 and 'incomplete_evaluation' in r['violations'] and "the judge did not judge" in r['error'], r


def test_without_the_mask_the_seal_key_routes_are_open(tmp_path, monkeypatch):
    "The proof that j06 and j07 test something: a worker without namespaces (where the kernel refuses them) rewards both"
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    monkeypatch.setattr(sandbox, '_isolation', {'ok': False, 'why': 'the proof: no namespaces'})
    reseal = _ev('j06_seal_key_reseal')
    assert reseal['reward'] == 3 and reseal['details']['isolation'] == 'none: the proof: no namespaces', reseal
    honest = [json.loads(p.read_text())['t_eager_ms'] for p in (seal_key_path().parent/'baselines').glob('*.json')]   # as timed, in the cache
    key = seal_key_path().read_bytes()
    swap = _ev('j07_key_swap')
    assert swap['reward'] == 3, swap
    assert len(honest) == 1 and min(reseal['t_eager_ms'], swap['t_eager_ms']) > 50 * honest[0], (reseal, swap, honest)   # resealed 100x slower
    assert seal_key_path().read_bytes() == b'j07-chosen-key-0123456789abcdef' != key, 'the planted key is the one the parent read'
    monkeypatch.setenv('CAL_REQUIRE_ISOLATION', '1')
    with pytest.raises(RuntimeError, match='CAL_REQUIRE_ISOLATION=1 and this machine cannot start a masked worker: the proof'):
        sandbox.spawn_worker('cpu')


def test_without_the_namespace_scan_a_helper_runs_while_the_runner_is_stopped(tmp_path, monkeypatch):
    "The proof that j09 tests something: stopping the runner's process group leaves its helper running (the scan off)"
    from cuda_agent_lab import judge
    monkeypatch.setenv('CAL_CACHE_DIR', str(tmp_path/'cache'))
    real, seen = judge.strays, []
    monkeypatch.setattr(judge, 'strays', lambda pid, ns: [])
    stop = judge.Channel.stop
    def stop_and_look(ch):
        stop(ch)
        seen.extend(_state(p.split()[0]) for p in real(ch.proc.pid, ch.ns))   # the helper's state while the runner is stopped
    monkeypatch.setattr(judge.Channel, 'stop', stop_and_look)
    r = _ev('j09_helper_process')
    assert r['reward'] == 1 and r['violations'] == [], r   # nothing noticed it
    assert 'S' in seen and 'T' not in seen, seen   # it slept on, never stopped with the runner


# ---------------------------------------------------------------------------------------------------------------------
# On a GPU (`judged_timing(device='cuda')`): the slots are the judge's own device memory, mapped by the runner through
# CUDA IPC; the clock runs on until the judge holds a copy of the outputs the runner never sees.

@pytest.mark.gpu
def test_gpu_judge_routes_and_twin():
    twin = judged_timing('diag_matmul', J/'jh01_slow_eager', device='cuda', batches=4)
    assert twin['correct'] and twin['violations'] == [] and twin['device'].startswith('cuda'), twin
    assert twin['floor_ms'] <= twin['floor_median_ms'] and twin['median_ms'] <= MISMATCH_RATIO * twin['inner_ms'], twin
    liar = judged_timing('diag_matmul', J/'j01_lying_runner', device='cuda', batches=4)
    assert liar['reward'] == -1 and liar['violations'] == ['timing_mismatch'], liar
    zeros = judged_timing('diag_matmul', J/'j02_zeros_after_first', device='cuda', batches=2)
    assert zeros['reward'] == -1 and set(zeros['violations']) <= {'incorrect', 'inconsistent_outputs'}, zeros
    shaped = judged_timing('diag_matmul', J/'j03_shaped_claims', device='cuda', batches=4)
    assert shaped['correct'] and shaped['median_ms'] > twin['median_ms'] / 3, (shaped, twin)


@pytest.mark.gpu
def test_gpu_work_after_the_reply_gains_nothing():
    "j08 turns the runner's synchronize into nothing: its kernels run on after the reply"
    twin = judged_timing('diag_matmul', J/'jh01_slow_eager', device='cuda', batches=4)
    late = judged_timing('diag_matmul', J/'j08_work_after_reply', device='cuda', batches=4)
    assert twin['correct'], twin
    assert late['reward'] == -1 and late['violations'][0] in ('incorrect', 'nan_inf', 'timing_mismatch'), late
