"""The trusted evaluation end to end on the CPU: bad input gets -1 with a code and a message naming the file and line."""
import json, subprocess, sys, textwrap
from pathlib import Path
import pytest
from cuda_agent_lab.sandbox import evaluate
from cuda_agent_lab.tasks import get_task

TASK = 'diag_matmul'
def ref(): return get_task(TASK).solutions['cpu']

def cand(tmp_path, py, **files):
    d = tmp_path/'cand'; d.mkdir()
    (d/'model_new.py').write_text(textwrap.dedent(py))
    for k, v in files.items(): (d/k.replace('_c', '.c')).write_text(textwrap.dedent(v))
    return d

def ev(c, **kw): return evaluate(TASK, c, 'cpu', compile=False, timeout=kw.pop('timeout', 120), **kw)

ROW_SCALE = '''
    import torch, torch.nn as nn
    from pathlib import Path
    from cuda_agent_lab.jit import c_function
    k = c_function(Path(__file__).with_name('k.c'), 'k')
    class ModelNew(nn.Module):
        def forward(self, A, B):
            out = torch.empty_like(B)
            k(A, B, out, B.shape[0], B.shape[1])
            return out
'''

def test_reference_solution_passes():
    r = ev(ref())
    assert r['correct'] and r['reward'] >= 1 and r['violations'] == [], r
    assert r['t_candidate_ms'] > 0 and r['t_eager_ms'] > 0 and r['speedup_eager'] > 0
    assert r['details']['precision']['reduced_precision'] is False
    assert len(r['details']['checks']) == 5
    assert r['details']['device_audit'] == {'available': False, 'why': 'no CUDA device (cpu): the device audit runs on GPUs only'}
    assert r['details']['warm_checks'] is True   # the worker verified the harness's own model before the request

def test_warm_checks_can_be_turned_off(monkeypatch):
    "CAL_WARM_CHECKS=0 in the harness's environment (bench.py --warm-checks 0): the worker skips them, the verdict is the same"
    monkeypatch.setenv('CAL_WARM_CHECKS', '0')
    r = ev(ref())
    assert r['details']['warm_checks'] is None and r['correct'] and r['reward'] >= 1 and r['violations'] == [], r

def test_syntax_error_names_file_and_line(tmp_path):
    r = ev(cand(tmp_path, 'import torch\nclass ModelNew(:\n    pass\n'))
    assert (r['reward'], r['violations']) == (-1, ['syntax_error']) and 'model_new.py line 2' in r['error']

def test_compile_error_has_compiler_message(tmp_path):
    r = ev(cand(tmp_path, ROW_SCALE, k_c='void k(const float* d, const float* B, float* o, long n, long m) {\n  o[0] = nope;\n}\n'))
    assert (r['reward'], r['violations'], r['compiled']) == (-1, ['compile_error'], False)
    assert 'k.c:2' in r['error'] and 'nope' in r['error']

def test_missing_model_new(tmp_path):
    r = ev(cand(tmp_path, 'import torch.nn as nn\nclass Other(nn.Module): pass\n'))
    assert (r['reward'], r['violations']) == (-1, ['no_model_new']) and 'ModelNew' in r['error']

def test_constructor_mismatch(tmp_path):
    r = ev(cand(tmp_path, 'import torch.nn as nn\nclass ModelNew(nn.Module):\n    def __init__(self, a, b): super().__init__()\n'))
    assert (r['reward'], r['violations']) == (-1, ['init_mismatch'])

def test_torch_fallback(tmp_path):
    r = ev(cand(tmp_path, 'import torch, torch.nn as nn\nclass ModelNew(nn.Module):\n    def forward(self, A, B): return torch.diag(A) @ B\n'))
    assert r['reward'] == -1 and r['violations'][0] == 'torch_fallback', r

def test_input_mutation(tmp_path):
    r = ev(cand(tmp_path, ROW_SCALE.replace("k(A, B, out", "k(A, B, B").replace('torch.empty_like(B)', 'B'),
                k_c='void k(const float* d, const float* B, float* o, long n, long m) {\n for (long i=0;i<n;i++) for (long j=0;j<m;j++) o[i*m+j] = d[i]*B[i*m+j];\n}\n'))
    assert r['reward'] == -1 and set(r['violations']) & {'input_mutated', 'output_aliases_input'}, r

def test_segfault_is_contained_and_next_evaluation_works(tmp_path):
    r = ev(cand(tmp_path, ROW_SCALE, k_c='void k(const float* d, const float* B, float* o, long n, long m) {\n  *(volatile int*)0 = 1;\n}\n'))
    assert (r['reward'], r['violations']) == (-1, ['crash']), r
    assert ev(ref())['reward'] >= 1

def test_hang_times_out(tmp_path):
    "a kernel that never returns: the evaluation is killed at its timeout, in the verify phase (its first call), not before"
    r = ev(cand(tmp_path, ROW_SCALE, k_c='void k(const float* d, const float* B, float* o, long n, long m) {\n  for (volatile long i = 0;; i++);\n}\n'), timeout=25)
    assert (r['reward'], r['violations']) == (-1, ['timeout']), r
    assert r['details']['phase'] == 'verify', f"timed out in phase {r['details']['phase']!r}, before the kernel's first call: raise the timeout"

def test_compile_only_ends_done(tmp_path):
    "n_checks=0: no check runs, the evaluation ends in phase done with no error (correct stays False: nothing was checked)"
    r = ev(ref(), n_checks=0, profile=False)
    assert (r['compiled'], r['correct'], r['reward'], r['violations'], r['error']) == (True, False, -1, [], None), r
    assert r['details']['phase'] == 'done' and 'checks' not in r['details'], r

def test_compile_only_still_stops_on_the_audit(tmp_path):
    "what the audit hook saw while ModelNew was built stops a compile-only evaluation too"
    py = 'import torch.nn as nn\nclass ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n' \
         "        try: open('/'.join(['', 'tmp', 'cal-escape.txt']), 'a')\n        except OSError: pass\n"   # no path the static check reads
    r = ev(cand(tmp_path, py), n_checks=0, profile=False)
    assert r['violations'] == ['file_access'] and r['details']['phase'] == 'init:stopped' and r['error'], r   # found where it happened

def test_missing_files():
    r = evaluate(TASK, '/nonexistent/cand', 'cpu')
    assert (r['reward'], r['violations']) == (-1, ['missing_file']) and '/nonexistent/cand' in r['error']

def test_cal_eval_json_contract():
    p = subprocess.run([sys.executable, '-m', 'cuda_agent_lab', 'eval', TASK, str(ref()), '--device', 'cpu', '--json', '--no-compile'],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    for k in ('task', 'device', 'compiled', 'correct', 'reward', 't_candidate_ms', 't_eager_ms', 't_compile_ms',
              'speedup_eager', 'speedup_compile', 'violations', 'error'):
        assert k in r, k
    assert r['reward'] >= 1 and r['t_compile_ms'] is None

def test_cal_eval_missing_file_exit_code():
    p = subprocess.run([sys.executable, '-m', 'cuda_agent_lab', 'eval', TASK, '/nonexistent.py', '--device', 'cpu'],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and 'missing_file' in p.stdout


PROBE = Path(__file__).parent/'fixtures'/'probe_call_state'

def test_timed_and_verified_calls_look_alike():
    "From inside forward, every signal the probe reads (modes, grad, gc, stack depth and recursion headroom, threads, "
    "settings, environment) is the same in the verified calls and in the timed ones: it prints one observation"
    r = ev(PROBE)
    assert r['correct'] and r['reward'] >= 1 and r['violations'] == [], r
    assert r['details']['timed_checks']['outputs_checked'] >= 10, r['details']['timed_checks']
    seen = [json.loads(l[len('PROBE '):]) for l in r['details']['stdout_tail'].splitlines() if l.startswith('PROBE ')]
    assert len(seen) == 1, seen
    assert (seen[0]['function_modes'], seen[0]['dispatch_modes'], seen[0]['gc'], seen[0]['grad']) == \
        (['_FunctionGuard'], ['_DispatchGuard'], False, False), seen


def test_a_cpu_evaluation_waits_while_a_timing_holds_the_cores():
    "A CPU timing holds the CPU lock exclusive; another evaluation's worker start, compile and import wait for it (readers-writer lock)"
    import fcntl, os, threading
    from cuda_agent_lab.profile import lock_path
    fd = os.open(lock_path('cpu'), os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, fcntl.LOCK_EX)                       # a timing in another process, 3 s from now
    threading.Timer(3.0, lambda: (fcntl.flock(fd, fcntl.LOCK_UN), os.close(fd))).start()
    waited = ev(ref(), n_checks=0, profile=False)
    free = ev(ref(), n_checks=0, profile=False)
    assert waited['compiled'] and free['compiled'], (waited, free)
    tw, tf = waited['details']['timeline'], free['details']['timeline']   # seconds after each call
    assert tw['ready'] > 2.5 and tf['ready'] < tw['ready'] - 1.0, (tw, tf)   # the worker's start (importing torch) waited for the timing


def test_checks_run_beside_another_share_and_only_the_timing_waits():
    """Checks hold the device lock shared (issue 36): an evaluation checks while another process holds it shared (another
    evaluation's checks), and only its timings, which take it exclusive, wait for that share to end (the first of them: the
    judge's pricing of the transfer, right after the task is built)"""
    import fcntl, os, threading, time
    from cuda_agent_lab.profile import lock_path
    assert ev(ref())['correct']                          # the baselines timed and cached first (their timing would wait too)
    fd = os.open(lock_path('cpu'), os.O_RDWR | os.O_CREAT, 0o666)
    fcntl.flock(fd, fcntl.LOCK_SH)                       # another evaluation's checks, for 10 s
    released = []
    def release(): released.append(time.time()); fcntl.flock(fd, fcntl.LOCK_UN); os.close(fd)
    timer = threading.Timer(10.0, release); timer.start()
    try: r = ev(ref())
    finally: timer.join()
    assert r['correct'], r
    pt, end = r['details']['phase_times'], time.time()
    assert pt['profile'] - pt['verify'] < 3.0, pt        # the checks did not wait for the share
    assert pt['baselines'] - pt['null'] > 3.0, pt        # the first timing did: the judge pricing the transfer on the null model (it holds the lock exclusive)
    assert end >= released[0], (end, released)

def test_cpu_children_get_a_steady_malloc(tmp_path):
    """A CPU evaluation's process (candidate or baselines) starts with glibc's mmap threshold fixed and trimming off, so
    where a large tensor lands does not depend on the process's earlier allocations (the sandbox notebook's figures)"""
    from cuda_agent_lab.sandbox import STEADY_MALLOC, _env
    cpu, gpu = _env('cpu', None, tmp_path), _env('cuda', 0, tmp_path, harness=True)
    assert all(cpu[k] == v for k, v in STEADY_MALLOC.items()) and int(cpu['MALLOC_MMAP_THRESHOLD_']) >= 32 << 20
    assert not any(k in gpu for k in STEADY_MALLOC)
    # glibc takes them: a freed 8 MiB block is reused by the next one (no fresh mmap, so the same address)
    code = ("import ctypes; c = ctypes.CDLL(None); c.malloc.restype = ctypes.c_void_p; c.free.argtypes = [ctypes.c_void_p]\n"
            "a = c.malloc(8 << 20); c.free(a); b = c.malloc(8 << 20); print(a == b)")
    env = {k: v for k, v in cpu.items() if k != 'TMPDIR'}
    assert subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True).stdout.strip() == 'True'
