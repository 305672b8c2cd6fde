"""The throughput and fidelity benchmark of the trusted evaluation (run on the H200 through the device tool).

    python bench/bench.py --out reports/bench/2026-12-02-h200 [--episodes RUN/episodes.jsonl] [--quick] [--only PARTS]
    python bench/bench.py --device cpu --quick --out /tmp/bench-cpu      # the same code on a CPU (a dry run; CI runs it)

Writes OUT.json (every figure, with the raw samples) and OUT.md (the same as tables, each target marked met or not).
Every figure is measured in this one run on this one machine:
- ceilings: copy bandwidth and fp32/tf32/bf16 matmul rates;
- compile: the row-scaling kernel of diag_matmul through each path (fast path cold and cached, load_inline, a
  CUDA-Agent workdir), each in a fresh process;
- turnaround: one evaluation (5 checks + profile, baselines cached) of a level-1, level-2 and level-3 reference
  solution, in a fresh process and in a worker started ahead, with the time per phase and the share outside the timed kernel;
- throughput: evaluations per GPU-hour of the level-1 reference solutions through the pool (one and two lanes per GPU,
  one and two workers waiting per lane),
  against the same kernels evaluated the KernelBench way (load_inline, one process, one after the other);
- fidelity: one candidate evaluated N times, each in a process no other candidate touched (coefficient of variation),
  and in one process the harness's timer against `triton.testing.do_bench` and plain events on the same module;
- isolation: the diag-matmul solution timed (no lock) while another process makes CUDA contexts, or runs kernels;
- suite: per task of a scripted-expert run, eager/compile/solution times and the solution's bandwidth (minimum traffic)
  and FLOP rate (the reference's FLOPs) against the ceilings.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from cuda_agent_lab import jit, profile                       # noqa: E402
from cuda_agent_lab.sandbox import evaluate, import_candidate, load_task_module, spawn_worker   # noqa: E402
from cuda_agent_lab.tasks import get_task, load_suite         # noqa: E402

ROW_SCALE_CU = (ROOT/'kernels/level1/diag_matmul/cuda/row_scale.cu').read_text()
TARGETS = dict(compile_cold_s=0.5, compile_cached_s=0.01, turnaround_l1_s=0.3, evals_per_gpu_hour=10_000, cv=0.02,
               diag_speedup_compile=40.0)


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def cv(xs): return statistics.pstdev(xs) / statistics.mean(xs) if len(xs) > 1 and statistics.mean(xs) else None


def is_cuda(device:str) -> bool: return device.startswith('cuda')


def sync(device):
    if is_cuda(device): torch.cuda.synchronize()


def wall_ms(fn, device, reps=20):
    "Median ms of `fn()`: CUDA events on a GPU, perf_counter on the CPU, after a warm-up"
    for _ in range(3): fn()
    sync(device); out = []
    for _ in range(reps):
        if is_cuda(device):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); fn(); e.record(); torch.cuda.synchronize(); out.append(s.elapsed_time(e))
        else:
            t0 = time.perf_counter(); fn(); out.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(out)


# ---------------------------------------------------------------------------------------------------- ceilings
def ceilings(device) -> dict:
    "Copy bandwidth (GB/s, read + write) and matmul rates (TFLOP/s) of this device"
    n_copy, n = (1 << 28, 8192) if is_cuda(device) else (1 << 24, 1024)
    a = torch.empty(n_copy, dtype=torch.float32, device=device).normal_(); b = torch.empty_like(a)
    res = {'copy_GBps': 2 * a.numel() * 4 / wall_ms(lambda: b.copy_(a), device) / 1e6}
    kinds = [('fp32_TFLOPs', torch.float32, False)] + ([('tf32_TFLOPs', torch.float32, True), ('bf16_TFLOPs', torch.bfloat16, False)]
                                                        if is_cuda(device) else [])
    for name, dt, tf32 in kinds:
        x, y = torch.randn(n, n, device=device, dtype=dt), torch.randn(n, n, device=device, dtype=dt)
        with profile.precision(tf32, device): res[name] = 2 * n ** 3 / wall_ms(lambda: x @ y, device, 10) / 1e9
    del a, b
    if is_cuda(device): torch.cuda.empty_cache()
    return res


# ---------------------------------------------------------------------------------------------------- compile latency
LOAD_INLINE = r'''
import sys, time, torch
from pathlib import Path
from torch.utils.cpp_extension import load_inline
src = Path(sys.argv[1]).read_text().replace('extern "C" __global__', '__global__') + """
torch::Tensor row_scale_launch(torch::Tensor d, torch::Tensor B) {
    auto out = torch::empty_like(B); long n = B.size(0), m = B.size(1);
    dim3 grid(std::min((m / 4 + 255) / 256, 1024L), std::min(n, 65535L));
    row_scale<<<grid, 256>>>(d.data_ptr<float>(), B.data_ptr<float>(), out.data_ptr<float>(), n, m);
    return out;
}"""
torch.zeros(1, device="cuda")
t0 = time.perf_counter()
m = load_inline('bench_row_scale_' + sys.argv[2], cpp_sources='torch::Tensor row_scale_launch(torch::Tensor d, torch::Tensor B);',
                cuda_sources=src, functions=['row_scale_launch'], extra_cuda_cflags=['-O3'], build_directory=sys.argv[3])
print(time.perf_counter() - t0)
'''

WORKDIR_BINDING = r'''#include "cal_binding.h"
#include <cuda_runtime.h>
void row_scale_launch(const float* d, const float* B, float* out, long n, long m);
static torch::Tensor row_scale(torch::Tensor d, torch::Tensor B) {
    auto out = torch::empty_like(B);
    row_scale_launch(d.data_ptr<float>(), B.data_ptr<float>(), out.data_ptr<float>(), B.size(0), B.size(1));
    return out;
}
CAL_REGISTER(row_scale) { m.def("row_scale", &row_scale, "diag(d) @ B as a row scaling"); }
'''
WORKDIR_LAUNCH = r'''
void row_scale_launch(const float* d, const float* B, float* out, long n, long m) {
    dim3 grid(std::min((m / 4 + 255) / 256, 1024L), std::min(n, 65535L));
    row_scale<<<grid, 256>>>(d, B, out, n, m);
}
'''
WORKDIR_BUILD = r'''
import sys, time, torch
from cuda_agent_lab.jit import load_workdir_kernels
torch.zeros(1, device="cuda")
t0 = time.perf_counter(); load_workdir_kernels(sys.argv[1]); print(time.perf_counter() - t0)
'''


def _fresh_seconds(script:str, *args, env=None) -> float:
    r = subprocess.run([sys.executable, '-c', script, *map(str, args)], capture_output=True, text=True, timeout=900,
                       env={**os.environ, 'PYTHONPATH': f"{ROOT}:{os.environ.get('PYTHONPATH', '')}", **(env or {})})
    if r.returncode: raise RuntimeError(r.stderr[-1500:])
    return float(r.stdout.strip().splitlines()[-1])


def load_inline_latency() -> dict:
    "load_inline of the row-scaling kernel in fresh processes: a new build folder (cold), then the same one again (cached)"
    with tempfile.TemporaryDirectory() as d, tempfile.NamedTemporaryFile('w', suffix='.cu') as f:
        f.write(ROW_SCALE_CU); f.flush()
        tag = str(os.getpid())
        return {'cold_s': _fresh_seconds(LOAD_INLINE, f.name, tag, d), 'cached_s': _fresh_seconds(LOAD_INLINE, f.name, tag, d)}


def workdir_latency() -> dict:
    "The same kernel as a CUDA-Agent workdir (kernels/row_scale.cu + kernels/row_scale_binding.cpp), built by the jit module"
    with tempfile.TemporaryDirectory() as d:
        k = Path(d)/'wd'/'kernels'; k.mkdir(parents=True)
        (k/'row_scale.cu').write_text(ROW_SCALE_CU.replace('extern "C" __global__', '__global__') + WORKDIR_LAUNCH)
        (k/'row_scale_binding.cpp').write_text(WORKDIR_BINDING)
        env = {'CAL_CACHE_DIR': str(Path(d)/'cache'), 'TORCH_EXTENSIONS_DIR': str(Path(d)/'ext')}
        return {'cold_s': _fresh_seconds(WORKDIR_BUILD, k.parent, env=env), 'cached_s': _fresh_seconds(WORKDIR_BUILD, k.parent, env=env)}


def compile_figures(device, quick:bool) -> dict:
    res = {'fast_path': jit.compile_latency('cuda' if is_cuda(device) else 'cpu', n=3 if quick else 5)}
    if is_cuda(device) and not quick:
        for name, fn in [('load_inline', load_inline_latency), ('workdir', workdir_latency)]:
            try: res[name] = fn()
            except Exception as e: res[name + '_error'] = f'{type(e).__name__}: {e}'
    return res


# ---------------------------------------------------------------------------------------------------- turnaround
def solution(name:str, device:str) -> Path:
    return get_task(name).solutions['cuda' if is_cuda(device) else 'cpu']


def detail(r:dict, key:str) -> dict:
    "One section of an evaluation result's details ({} when it has none)"
    return (r.get('details') or {}).get(key) or {}


def baselines_cached(r:dict):
    "Whether the evaluation read its baselines from the cache (False: it timed eager and torch.compile itself)"
    return detail(r, 'baselines').get('cached')


def per_hour(n:int, wall_s:float) -> float: return 3600 * n / wall_s


def phase_seconds(r:dict) -> dict:
    "Seconds spent in each phase of the sandbox worker, from the phase start times in the verdict"
    t = detail(r, 'phase_times')
    names = list(t)
    out = {a: round(t[b] - t[a], 4) for a, b in zip(names, names[1:])}
    if 'done' in t and r.get('eval_s'): out['outside_worker'] = round(r['eval_s'] - t['done'], 4)   # start-up wait, hand-over
    tl, at = detail(r, 'timeline'), lambda a, b: round(tl[b] - tl[a], 4)
    if tl.get('request') is not None: out['before_request'] = tl['request']   # copy, hand-over, and any wait for the warm-up
    if None not in (tl.get('sent'), tl.get('ready')): out['waiting_for_warm_up'] = max(0.0, at('sent', 'ready'))
    if None not in (tl.get('spawned'), tl.get('ready')): out['warm_up'] = at('spawned', 'ready')   # import, context (under the lock)
    if None not in (tl.get('done'), tl.get('exited')): out['exit'] = at('done', 'exited')
    return out


def turnaround(names, device, n:int=3, on_task=None) -> dict:
    "Wall seconds of one evaluation per reference solution (baselines cached by a first run): a fresh process, a worker started ahead; `on_task(out)` after each task (a cut run keeps what it measured)"
    out = {}
    for name in names:
        t, cand = get_task(name), solution(name, device)
        first = evaluate(t, cand, device)                      # baselines into the cache
        fresh = [evaluate(t, cand, device, **_kw()) for _ in range(n)]
        w, warm, ready_wait = spawn_worker(device), [], []
        for _ in range(n):   # a candidate that finds a warm worker (in the agent loop the policy writes for seconds in between)
            t_wait = time.perf_counter(); w.wait_ready(); ready_wait.append(round(time.perf_counter() - t_wait, 3))
            nxt = spawn_worker(device)                        # the next one warms up while this one evaluates
            warm.append(evaluate(t, cand, device, worker=w, **_kw())); w = nxt
        w.discard()
        ct, pw = [detail(r, 'candidate_timing') for r in warm], [phase_seconds(r) for r in warm]
        kernel_s = [c.get('median_ms', 0) * c.get('n', 0) / 1e3 for c in ct]
        out[name] = dict(level=t.level, first_eval_s=first['eval_s'], fresh_eval_s=[r['eval_s'] for r in fresh],
                         warm_eval_s=[r['eval_s'] for r in warm], rewards=[r['reward'] for r in fresh + warm],
                         median_fresh_s=median(r['eval_s'] for r in fresh), median_warm_s=median(r['eval_s'] for r in warm),
                         timed_kernel_s=median(kernel_s), t_candidate_ms=median(c.get('median_ms') for c in ct),
                         share_outside_timed_kernel=1 - median(k / r['eval_s'] for k, r in zip(kernel_s, warm)),
                         phases_warm=pw[-1], phases_fresh=[phase_seconds(r) for r in fresh], phases_warm_all=pw,
                         baselines_cached=[baselines_cached(r) for r in fresh + warm], host_ms=median(c.get('host_ms') for c in ct),
                         waited_for_warm_worker_s=ready_wait)
        if on_task: on_task(out)
    return out


# ---------------------------------------------------------------------------------------------------- throughput
# The same kernels the KernelBench way: a model_new.py whose kernel is built by load_inline, evaluated in one process,
# one candidate after the other (build, 5 correctness trials, 100 timed trials with events and a synchronisation).
KB_LAUNCHERS = {
    'diag_matmul': ('row_scale.cu', 'torch::Tensor launch(torch::Tensor A, torch::Tensor B)', '''{
    auto out = torch::empty_like(B); long n = B.size(0), m = B.size(1);
    dim3 grid(std::min((m / 4 + 255) / 256, 1024L), std::min(n, 65535L));
    row_scale<<<grid, 256>>>(A.data_ptr<float>(), B.data_ptr<float>(), out.data_ptr<float>(), n, m);
    return out; }'''),
    'gelu': ('gelu.cu', 'torch::Tensor launch(torch::Tensor x)', '''{
    auto y = torch::empty_like(x); long n = x.numel();
    gelu<<<std::max(1L, std::min((n + 4 * 4 * 256 - 1) / (4 * 4 * 256), 132L * 16)), 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y; }'''),
    'transpose_copy': ('transpose.cu', 'torch::Tensor launch(torch::Tensor x)', '''{
    long b = x.size(0), m = x.size(1), n = x.size(2);
    auto y = torch::empty({b, n, m}, x.options());
    transpose_batched<<<dim3((n + 31) / 32, (m + 31) / 32, b), dim3(32, 8)>>>(x.data_ptr<float>(), y.data_ptr<float>(), m, n);
    return y; }'''),
}

KB_WORKER = r'''
import json, sys, tempfile, time, torch
from torch.utils.cpp_extension import load_inline
jobs, out = json.loads(sys.argv[1]), []
torch.zeros(1, device='cuda')
for j in jobs:
    t0 = time.perf_counter()
    ns = {}; exec(compile(open(j['model']).read(), j['model'], 'exec'), ns)
    ext = load_inline(j['ext'], cpp_sources=j['decl'] + ';', cuda_sources=j['cu'], functions=['launch'],
                      extra_cuda_cflags=['-O3'], build_directory=tempfile.mkdtemp())
    t_build = time.perf_counter() - t0
    model = ns['Model'](*ns['get_init_inputs']()).cuda().eval()
    ok = True
    with torch.no_grad():
        for trial in range(5):
            torch.manual_seed(trial); x = [a.cuda() for a in ns['get_inputs']()]
            ok &= torch.allclose(ext.launch(*x), model(*x), atol=1e-2, rtol=1e-2)
        x = [a.cuda() for a in ns['get_inputs']()]
        times = []
        for _ in range(3): ext.launch(*x)
        torch.cuda.synchronize()
        for _ in range(100):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); ext.launch(*x); e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e))
    times.sort()
    out.append(dict(task=j['task'], correct=bool(ok), build_s=t_build, total_s=time.perf_counter() - t0, median_ms=times[50]))
print(json.dumps(out))
'''


def kernelbench_way(names) -> dict:
    "The KernelBench way on the same kernels: load_inline builds, one process, serial; evaluations per GPU-hour"
    jobs = []
    for name in names:
        cu_file, decl, body = KB_LAUNCHERS[name]
        cu = (solution(name, 'cuda')/cu_file).read_text().replace('extern "C" __global__', '__global__')
        jobs.append(dict(task=name, model=str(get_task(name).path), ext=f'kb_{name}_{os.getpid()}', decl=decl, cu=f'{cu}\n{decl} {body}\n'))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, '-c', KB_WORKER, json.dumps(jobs)], capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t0
    if r.returncode: raise RuntimeError(r.stderr[-2000:])
    per = json.loads(r.stdout.strip().splitlines()[-1])
    return dict(n=len(per), wall_s=wall, per_hour=per_hour(len(per), wall), candidates=per)


PROFILE_OPTS = {}   # the evaluations' timing options (`sandbox.evaluate`'s profile_opts), from --profile-opts: {} keeps the device's defaults

def _kw() -> dict: return dict(profile_opts=PROFILE_OPTS) if PROFILE_OPTS else {}

def pool_throughput(names, device, lanes:int=1, rounds:int=1, waiting:int=1, warm_checks:bool=True) -> dict:
    """Evaluations per GPU-hour of the reference solutions of `names` (`rounds` times each) through `EvalPool` (`waiting`
    workers started ahead per lane, compile-ahead; `warm_checks=False`: the workers skip `sandbox._warm_checks`)"""
    from unittest.mock import patch
    from cuda_agent_lab.pool import EvalPool
    with patch.dict(os.environ, CAL_WARM_CHECKS='1' if warm_checks else '0'), \
         EvalPool(device=device, lanes_per_gpu=lanes, prespawn=waiting) as pool:   # the workers' environment is this process's
        time.sleep(8 if is_cuda(device) else 4)   # the lanes' first workers start ahead, as in a long-running pool
        jobs = [dict(task=n, candidate=str(solution(n, device)), device=device, key=f'{n}:{lanes}:{waiting}:{i}', kwargs=_kw())
                for i in range(rounds) for n in names]
        t0 = time.perf_counter(); rs = list(pool.map(jobs)); wall = time.perf_counter() - t0
    gpus = max(1, len(pool.gpus)) if is_cuda(device) else 1
    return dict(n=len(rs), lanes_per_gpu=lanes, waiting_per_lane=waiting, warm_checks=warm_checks, wall_s=wall,
                per_gpu_hour=per_hour(len(rs), wall) / gpus, warmed={r['key']: (r.get('details') or {}).get('warm_checks') for r in rs},
                all_correct=all(r.get('correct') for r in rs), median_eval_s=median(r['eval_s'] for r in rs),
                rewards={r['key']: r['reward'] for r in rs}, eval_s={r['key']: r['eval_s'] for r in rs},
                phases={r['key']: phase_seconds(r) for r in rs}, baselines_cached={r['key']: baselines_cached(r) for r in rs})


def throughput(device, names, kb_names, rounds:int=1, lanes=(1, 2), waiting=(1, 2), warm_checks=(True,), on_setting=None) -> dict:
    """The pool on `names` (`rounds` times) with each of `lanes` per GPU, `waiting` workers per lane and `warm_checks`, and
    on the KernelBench-way tasks, after a pass that caches every baseline; `on_setting(results so far)` after each setting"""
    from cuda_agent_lab.pool import EvalPool
    every = list(dict.fromkeys(names + kb_names))
    with EvalPool(device=device) as pool:                      # untimed: baselines into the cache, as in a long sweep
        list(pool.map([dict(task=n, candidate=str(solution(n, device)), device=device, key=f'{n}:cache') for n in every]))
    res = {}
    for wc in warm_checks:
        for l in lanes:
            for w in waiting:
                key = f"pool_{l}_lane{'s' if l > 1 else ''}{f'_{w}_waiting' if w > 1 else ''}{'' if wc else '_cold_checks'}"
                res[key] = pool_throughput(names, device, l, rounds, w, wc)
                if on_setting: on_setting(res)
    if set(kb_names) != set(names): res['pool_kernelbench_tasks'] = pool_throughput(kb_names, device, 1, rounds)
    return res


# ---------------------------------------------------------------------------------------------------- fidelity
def loaded_pair(name:str, device):
    "The task of `name`, its loaded module, its reference `Model` and its reference solution's ModelNew holding the same weights, on `device`"
    t = get_task(name); task = load_task_module(t.source_for(device), str(t.path))
    torch.manual_seed(0)
    init = task.get_init_inputs()
    model = task.Model(*init).to(device).eval()
    mn = import_candidate(solution(name, device)/'model_new.py').ModelNew(*init).to(device).eval()
    mn.load_state_dict(model.state_dict())
    return t, task, model, mn

def loaded(name:str, device):
    "The task of `name`, its reference solution's ModelNew (holding the reference's weights) and an input set, on `device`"
    t, task, _, mn = loaded_pair(name, device)
    return t, mn, [a.to(device) for a in task.get_inputs()]


def in_process(name:str, device) -> dict:
    "One solution timed in this process: the harness's `time_fn` (bare and under the guard), do_bench, plain events, host cost"
    from cuda_agent_lab.guard import forbid_torch
    t, mn, x = loaded(name, device)
    def guarded(*a):
        with torch.no_grad(), forbid_torch(allow=t.allow, record=[], functional=False): return mn(*a)
    res = {'time_fn_ms': profile.time_fn(mn, [x], device).median_ms, 'time_fn_guarded_ms': profile.time_fn(guarded, [x], device).median_ms,
           'plain_events_ms': wall_ms(lambda: mn(*x), device, 50)}
    if is_cuda(device):   # the timer without its lead (the previous timer): the host's launch latency against the flush alone
        res['time_fn_no_lead_ms'] = profile.time_fn(mn, [x], device, lead=False).median_ms
        res['time_fn_guarded_no_lead_ms'] = profile.time_fn(guarded, [x], device, lead=False).median_ms
    if is_cuda(device):
        try:
            import triton.testing
            res['do_bench_ms'] = float(triton.testing.do_bench(lambda: mn(*x), warmup=100, rep=500, return_mode='median'))
        except Exception as e: res['do_bench_error'] = f'{type(e).__name__}: {e}'
    for key, f in [('host_us_per_call', lambda: mn(*x)), ('host_us_per_guarded_call', lambda: guarded(*x))]:
        sync(device); t0 = time.perf_counter()
        for _ in range(200): f()
        res[key] = (time.perf_counter() - t0) / 200 * 1e6; sync(device)
    return res


def fidelity(name:str, device, n:int=20) -> dict:
    "The reference solution of `name` evaluated `n` times, each in a never-used process (the pool's), then timed in this one"
    from cuda_agent_lab.pool import EvalPool
    t, cand = get_task(name), solution(name, device)
    evaluate(t, cand, device)                                  # baselines into the cache
    with EvalPool(device=device) as pool:
        t0 = time.perf_counter()
        rs = list(pool.map([dict(task=name, candidate=str(cand), device=device, key=f'{name}-{i}', kwargs=_kw()) for i in range(n)]))
        wall = time.perf_counter() - t0
    tc = [r['t_candidate_ms'] for r in rs if r['t_candidate_ms']]
    res = dict(task=name, n=len(tc), t_candidate_ms=tc, median_ms=median(tc), cv=cv(tc), within_run_cv=median(
               detail(r, 'candidate_timing').get('cv') for r in rs),
               speedup_compile=[r['speedup_compile'] for r in rs], speedup_eager=[r['speedup_eager'] for r in rs],
               rewards=[r['reward'] for r in rs], t_compile_ms=rs[-1]['t_compile_ms'], t_eager_ms=rs[-1]['t_eager_ms'],
               pids=len({(r.get('worker') or {}).get('pid') for r in rs}), pool_wall_s=wall, eval_s=[r['eval_s'] for r in rs],
               phases=[phase_seconds(r) for r in rs], baselines_cached=[baselines_cached(r) for r in rs], host_ms=[detail(r, 'candidate_timing').get('host_ms') for r in rs])
    res.update(in_process(name, device))
    return res


# ---------------------------------------------------------------------------------------------------- isolation
# What another process on the same GPU does to a timing: making and destroying CUDA contexts (what a worker's warm-up does),
# or running kernels (the positive control: time-slicing between contexts must show).
CHURN = r'''
import ctypes, sys, time
mode, seconds = sys.argv[1], float(sys.argv[2])
if mode == 'kernel':
    import torch
    torch.zeros(1, device='cuda'); torch.cuda.synchronize()
    print('go', flush=True); end, n = time.time() + seconds, 0
    while time.time() < end: torch.cuda._sleep(20000); torch.cuda.synchronize(); n += 1
    print(n / seconds, 0, flush=True)
else:
    cu = ctypes.CDLL('libcuda.so.1'); assert cu.cuInit(0) == 0
    dev, ctx, p = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_uint64()
    cu.cuDeviceGet(ctypes.byref(dev), 0)
    print('go', flush=True); end, made = time.time() + seconds, []
    while time.time() < end:
        t0 = time.perf_counter()
        assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0   # a new context: the last round released its own
        cu.cuCtxSetCurrent(ctx); cu.cuMemAlloc_v2(ctypes.byref(p), 64 << 20); cu.cuCtxSynchronize()
        made.append(time.perf_counter() - t0)
        cu.cuMemFree_v2(p); cu.cuCtxSetCurrent(None); cu.cuDevicePrimaryCtxRelease_v2(dev)
    print(len(made) / seconds, sorted(made)[len(made) // 2], flush=True)
'''


def isolation(name:str='diag_matmul', device='cuda', reps:int=3000, rounds:int=2) -> dict:
    "The solution of `name` timed with `time_fn` (no lock) while another process is quiet, churns CUDA contexts, or runs kernels"
    _, mn, x = loaded(name, device)
    profile.time_fn(mn, [x], device, lock=False, reps=200)   # warm
    out = {}
    for _ in range(rounds):
        for mode in ('quiet', 'context', 'kernel'):
            p = None if mode == 'quiet' else subprocess.Popen([sys.executable, '-c', CHURN, mode, '6'], stdout=subprocess.PIPE, text=True)
            if p is not None: p.stdout.readline()   # 'go': the other process is set up and churning
            tm = profile.time_fn(mn, [x], device, lock=False, reps=reps)
            row = dict(median_ms=tm.median_ms, p90_ms=tm.p90_ms, mean_ms=tm.mean_ms, cv=tm.cv)
            if p is not None:
                rate, made = p.stdout.readline().split(); p.wait()
                row.update(per_s=float(rate), context_s=float(made) if mode == 'context' else None)
            out.setdefault(mode, []).append(row)
    return dict(task=name, reps=reps, runs=out)


# ---------------------------------------------------------------------------------------------------- the suite
def reference_flops(model, inputs) -> int:
    "FLOPs of the reference forward, counted by torch's FlopCounterMode (matmuls and convolutions)"
    from torch.utils.flop_counter import FlopCounterMode
    with torch.no_grad(), FlopCounterMode(display=False) as fc: model(*inputs)
    return int(fc.get_total_flops())


def suite_vs_ceilings(episodes_path:Path, ceil:dict, device) -> list:
    "Per task of a scripted-expert run: times, speedups, and the solution's bandwidth and FLOP rate against the ceilings"
    from cuda_agent_lab.rollout import read_episodes
    rows = []
    for ep in read_episodes(episodes_path):
        ev, t = ep['evaluation'], get_task(ep['task'])
        task = load_task_module(t.source_for(device), str(t.path))
        torch.manual_seed(0)
        inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
        with torch.no_grad():
            m = task.Model(*task.get_init_inputs()).to(device).eval()
            y = m(*inputs)
        ys = y if isinstance(y, (tuple, list)) else [y]
        nbytes = sum(x.numel() * x.element_size() for x in inputs if isinstance(x, torch.Tensor)) \
                 + sum(p.numel() * p.element_size() for p in m.parameters()) \
                 + sum(o.numel() * o.element_size() for o in ys if isinstance(o, torch.Tensor))
        flops, tc = reference_flops(m, inputs), ev.get('t_candidate_ms')
        gbps, tflops = (nbytes / tc / 1e6, flops / tc / 1e9) if tc else (None, None)
        rows.append(dict(task=ep['task'], level=ep['level'], reward=ep['reward'], correct=ev.get('correct'),
                         violations=ev.get('violations'), t_eager_ms=ev.get('t_eager_ms'), t_compile_ms=ev.get('t_compile_ms'),
                         t_candidate_ms=tc, speedup_eager=ev.get('speedup_eager'), speedup_compile=ev.get('speedup_compile'),
                         min_bytes=nbytes, GBps=gbps, frac_of_copy=gbps / ceil['copy_GBps'] if gbps else None,
                         ref_flops=flops, TFLOPs=tflops if flops else None,
                         frac_of_fp32=tflops / ceil['fp32_TFLOPs'] if flops and tflops else None))
        del m, y, ys
        if is_cuda(device): torch.cuda.empty_cache()
    return rows


# ---------------------------------------------------------------------------------------------------- the report
def _f(x, p=3): return '-' if x is None else (f'{x:.{p}g}' if isinstance(x, float) else str(x))


def _met(ok) -> str: return '-' if ok is None else ('met' if ok else 'NOT met')


def targets(r:dict) -> list:
    "(target, measured, met) for each target of the benchmark that this run measured"
    out, comp, thr = [], r.get('compile', {}), r.get('throughput', {})
    fp = comp.get('fast_path')
    if fp:
        out.append(('fast-path compile+load, cold < 0.5 s', f"{fp['cold_ms'] / 1e3:.3f} s", fp['cold_ms'] / 1e3 < TARGETS['compile_cold_s']))
        out.append(('fast-path compile+load, cached < 10 ms', f"{fp['cached_ms']:.2f} ms", fp['cached_ms'] / 1e3 < TARGETS['compile_cached_s']))
    l1 = [v for v in r.get('turnaround', {}).values() if v['level'] == 1]
    if l1: out.append((f"turnaround < {TARGETS['turnaround_l1_s']} s on level 1 (warm worker)", f"{l1[0]['median_warm_s']:.2f} s", l1[0]['median_warm_s'] < TARGETS['turnaround_l1_s']))
    if thr:
        best = max((v['per_gpu_hour'] for k, v in thr.items() if k.startswith('pool_') and isinstance(v, dict)), default=None)
        if best: out.append((f">= {TARGETS['evals_per_gpu_hour']:,} evaluations per GPU-hour (level 1, pool)", f'{best:.0f}', best >= TARGETS['evals_per_gpu_hour']))
    for f in r.get('fidelity', []):
        if f.get('pool_wall_s') and get_task(f['task']).level == 1:   # the fidelity part's pool: one level-1 candidate, n fresh processes
            rate, ev = per_hour(f['n'], f['pool_wall_s']), median(f['eval_s'])
            if not l1: out.append((f"turnaround < {TARGETS['turnaround_l1_s']} s on level 1 (pool, worker started ahead; {f['task']} x{f['n']})", f'{ev:.2f} s median', ev < TARGETS['turnaround_l1_s']))
            if not thr: out.append((f">= {TARGETS['evals_per_gpu_hour']:,} evaluations per GPU-hour (level 1, pool; {f['task']} x{f['n']})", f'{rate:.0f}', rate >= TARGETS['evals_per_gpu_hour']))
        if f.get('median_ms') and f['median_ms'] > 0.1:
            out.append((f"CV < 2% across fresh processes, kernel over 100 us ({f['task']})", f"{f['cv']:.2%}", f['cv'] < TARGETS['cv']))
        if f['task'] == 'diag_matmul' and is_cuda(r.get('device', 'cpu')):
            s = median(f['speedup_compile'])
            lo = min(x for x in f['speedup_compile'] if x)
            out.append(('diag_matmul >= 40x over torch.compile at N = 4096 (median of fresh processes)', f'{s:.1f}x (min {lo:.1f}x)',
                        s >= TARGETS['diag_speedup_compile']))
    return out


def markdown(r:dict) -> str:
    c, comp, thr = r['ceilings'], r.get('compile', {}), r.get('throughput', {})
    L = [f"# Benchmark, {r['when']}", '', f"{r['device_name']} ({r['device']}); torch {r['torch']}. Command: `{r['command']}`",
         f"Seconds per part: {r.get('seconds', {})}", '']
    tg = targets(r)
    if tg: L += ['## Targets', '', '| target | measured | |', '|---|---|---|'] + [f'| {a} | {b} | {_met(m)} |' for a, b, m in tg] + ['']
    L += ['## Ceilings measured in this run', '', '| ' + ' | '.join(c) + ' |', '|' + '---|' * len(c), '| ' + ' | '.join(_f(v, 4) for v in c.values()) + ' |', '']
    if comp:
        fp = comp.get('fast_path', {})
        L += ['## Compile latency of the row-scaling kernel (each in a fresh process)', '', '| path | cold s | cached s |', '|---|---|---|',
              f"| fast path (NVRTC / cc), median of fresh processes | {_f(fp.get('cold_ms', 0) / 1e3)} | {_f(fp.get('cached_ms', 0) / 1e3)} |"]
        for k in ('load_inline', 'workdir'):
            if k in comp: L.append(f"| {k} | {_f(comp[k]['cold_s'])} | {_f(comp[k]['cached_s'])} |")
            elif k + '_error' in comp: L.append(f"| {k} | failed: {comp[k + '_error'][:200]} | |")
        L.append('')
    if 'turnaround' in r:
        L += ['## Evaluation turnaround (verify 5 checks + profile, baselines cached)', '',
              '| task | level | fresh process s | warm worker s | waited for it to warm up s | timed kernel s | share outside the timed kernel | phases (warm), s |',
              '|---|---|---|---|---|---|---|---|']
        L += [f"| {k} | {v['level']} | {_f(v['median_fresh_s'])} | {_f(v['median_warm_s'])} | {_f(median(v.get('waited_for_warm_worker_s') or [None]))} | {_f(v['timed_kernel_s'])} | "
              f"{v['share_outside_timed_kernel']:.1%} | {', '.join(f'{p} {s:.2f}' for p, s in v['phases_warm'].items())} |"
              for k, v in r['turnaround'].items()] + ['']
    kb = r.get('kernelbench')
    if thr or kb:
        L += ['## Throughput', '', '| how | candidates | wall s | evaluations per GPU-hour | all correct | per evaluation s (median) | phases (median s) |',
              '|---|---|---|---|---|---|---|']
        for k, v in thr.items():
            ph = list(v.get('phases', {}).values())
            L.append(f"| {k} | {v['n']} | {_f(v['wall_s'])} | {_f(v['per_gpu_hour'], 4)} | {v['all_correct']} | {_f(v.get('median_eval_s'))} | "
                     + ', '.join(f"{p} {median(x.get(p) for x in ph if x.get(p) is not None):.2f}" for p in (ph[0] if ph else {})) + ' |')
        if kb:
            L.append(f"| KernelBench way (load_inline, one process, serial) | {kb['n']} | {_f(kb['wall_s'])} | {_f(kb['per_hour'], 4)} | "
                     f"{all(x['correct'] for x in kb['candidates'])} | {_f(median(x['total_s'] for x in kb['candidates']))} | build, 5 checks, 100 timings |")
            L += ['', 'KernelBench way, per candidate: ' + ', '.join(f"{x['task']} build {x['build_s']:.1f} s, total {x['total_s']:.1f} s, "
                                                              f"{x['median_ms']:.4g} ms" for x in kb['candidates'])]
        if r.get('kernelbench_error'): L += ['', f"KernelBench way failed: {r['kernelbench_error'][:300]}"]
        L.append('')
    iso = r.get('isolation')
    if iso:
        L += [f"## Another process on the GPU during a timing ({iso['task']}, {iso['reps']} calls per run, no lock)", '',
              '| other process | median ms per run | p90 ms per run | its rate per s | context made in, ms |', '|---|---|---|---|---|']
        for mode, rows in iso['runs'].items():
            L.append(f"| {mode} | {', '.join(_f(x['median_ms'], 4) for x in rows)} | {', '.join(_f(x['p90_ms'], 4) for x in rows)} | "
                     f"{_f(median(x.get('per_s') for x in rows))} | {_f(median((x.get('context_s') or 0) * 1e3 for x in rows) if mode == 'context' else None)} |")
        L += ['', 'context: a loop making a CUDA context, allocating 64 MB and destroying it; kernel: a loop of ~10 us spin kernels '
                  '(the positive control: two contexts time-share the GPU).', '']
    for f in r.get('fidelity', []):
        L += [f"## Timing fidelity: {f['task']}", '',
              f"- {f['n']} evaluations, each in a never-used process ({f['pids']} distinct pids): t_candidate median {_f(f['median_ms'], 4)} ms, "
              f"CV {_f(f['cv'])} across processes (median CV within one run {_f(f['within_run_cv'])})",
              f"- in one process: time_fn {_f(f['time_fn_ms'], 4)} ms (under the guard {_f(f['time_fn_guarded_ms'], 4)} ms), "
              f"do_bench {_f(f.get('do_bench_ms'), 4)} ms, plain events {_f(f['plain_events_ms'], 4)} ms; without the timer's lead "
              f"{_f(f.get('time_fn_no_lead_ms'), 4)} ms (under the guard {_f(f.get('time_fn_guarded_no_lead_ms'), 4)} ms)",
              f"- host time per call, no synchronisation: {_f(f['host_us_per_call'])} us bare, {_f(f['host_us_per_guarded_call'])} us under the guard",
              *([f"- the pool (one lane, a worker started ahead for each evaluation): {f['n']} evaluations in {_f(f['pool_wall_s'])} s, "
                 f"{_f(per_hour(f['n'], f['pool_wall_s']), 4)} per GPU-hour; per evaluation {_f(median(f['eval_s']))} s median "
                 f"({_f(min(f['eval_s']))}-{_f(max(f['eval_s']))} s), phases (median s): "
                 + ', '.join(f"{p} {median(x.get(p) for x in f['phases']):.2f}" for p in f['phases'][0])] if f.get('pool_wall_s') else []),
              f"- eager {_f(f['t_eager_ms'], 4)} ms, torch.compile {_f(f['t_compile_ms'], 4)} ms; speedup vs compile median "
              f"{_f(median(f['speedup_compile']))}x (min {_f(min(x for x in f['speedup_compile'] if x))}x), rewards {f['rewards']}", '']
    if r.get('suite'):
        L += ['## Reference suite against the ceilings', '',
              '| task | L | reward | eager ms | compile ms | solution ms | vs eager | vs compile | GB/s (min traffic) | of copy | TFLOP/s (ref FLOPs) | of fp32 |',
              '|---|---|---|---|---|---|---|---|---|---|---|---|']
        L += [f"| {s['task']} | {s['level']} | {s['reward']} | {_f(s['t_eager_ms'])} | {_f(s['t_compile_ms'])} | {_f(s['t_candidate_ms'])} | "
              f"{_f(s['speedup_eager'])} | {_f(s['speedup_compile'])} | {_f(s['GBps'])} | {_f(s['frac_of_copy'])} | {_f(s['TFLOPs'])} | {_f(s['frac_of_fp32'])} |"
              for s in r['suite']]
        L += ['', 'GB/s: inputs, parameters and outputs each moved once, over the solution time. TFLOP/s: the reference '
                  "forward's matmul/convolution FLOPs (torch's FlopCounterMode) over the solution time, so an algorithmic rewrite "
                  'that skips FLOPs (diag_matmul, matmul_div_sum_scale) shows an effective rate above the ceiling.']
    return '\n'.join(L) + '\n'


PARTS = 'compile,fidelity,turnaround,throughput,kernelbench,suite,isolation'


def merge(paths) -> dict:
    "One result from several runs' OUT.json: the first run's ceilings and header, every part, the later run winning a repeat"
    r = {}
    for p in paths:
        d = json.loads(Path(p).read_text())
        for k, v in d.items():
            if k in ('ceilings', 'when', 'device', 'device_name', 'torch') and k in r: continue
            if k in ('seconds', 'compile') and isinstance(v, dict): r.setdefault(k, {}).update(v)
            elif k == 'fidelity':   # per task: a later run's task replaces the earlier one, other tasks are kept
                r[k] = list({f['task']: f for f in r.get(k, []) + v}.values())
            elif k == 'command': r['command'] = (r['command'] + '; ' if 'command' in r else '') + v
            else: r[k] = v
    return r


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='output path without extension: writes OUT.json and OUT.md')
    ap.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu', help='cuda or cpu')
    ap.add_argument('--episodes', default=None, help='episodes.jsonl of a scripted-expert run on this device (the suite table)')
    ap.add_argument('--quick', action='store_true', help='fewer repeats; skip the load_inline, workdir and KernelBench-way builds')
    ap.add_argument('--only', default=PARTS, help=f'comma-separated parts of {PARTS} (the ceilings are always measured)')
    ap.add_argument('--merge', nargs='+', default=None, help="OUT.json files of earlier runs to merge into OUT (nothing is measured)")
    ap.add_argument('--fidelity', default='diag_matmul,softmax', help='tasks for the fidelity part')
    ap.add_argument('--fidelity-n', type=int, default=20, help='evaluations per fidelity task')
    ap.add_argument('--turnaround', default='diag_matmul,matmul_div_sum_scale,resnet_basic_block', help='a level-1, -2 and -3 task')
    ap.add_argument('--throughput', default='level1', help="tasks for the pool's throughput: level1 or comma-separated names")
    ap.add_argument('--kernelbench', default='diag_matmul,gelu,transpose_copy', help='tasks evaluated the KernelBench way')
    ap.add_argument('--turnaround-n', type=int, default=3, help='evaluations per turnaround task in fresh processes, and as many in workers started ahead')
    ap.add_argument('--rounds', type=int, default=1, help="evaluations of each throughput task, each in its own process")
    ap.add_argument('--lanes', default='1,2', help="throughput: the pool's lanes per GPU, a setting each")
    ap.add_argument('--waiting', default='1,2', help="throughput: workers started ahead per lane, a setting each")
    ap.add_argument('--warm-checks', default='1', help="throughput: 1 (workers verify a harness model before their request), 0 (not), or 1,0: both, a setting each")
    ap.add_argument('--profile-opts', default='{}', help='JSON timing options for every evaluation measured (e.g. \'{"precision": 0.01, "max_time_s": 0.5}\'); {}: the device\'s defaults')
    a = ap.parse_args(argv)
    try: PROFILE_OPTS.update(json.loads(a.profile_opts))
    except (ValueError, TypeError) as e: ap.error(f'--profile-opts: not a JSON object ({e}); e.g. \'{{"precision": 0.01}}\'')
    parts, out, dev = set(a.only.split(',')), Path(a.out), a.device
    out.parent.mkdir(parents=True, exist_ok=True)
    if unknown := parts - set(PARTS.split(',')): ap.error(f"--only: unknown part(s) {', '.join(sorted(unknown))}; the parts are {PARTS}")
    if a.merge:
        r = merge(p for p in a.merge if Path(p).exists())
        out.with_suffix('.json').write_text(json.dumps(r, indent=1, default=str)); out.with_suffix('.md').write_text(markdown(r))
        print(markdown(r)); return 0
    names = lambda s: [t.name for t in load_suite(levels=[1])] if s == 'level1' else s.split(',')
    r = dict(when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), device=dev, profile_opts=dict(PROFILE_OPTS),
             device_name=profile.device_name(dev), torch=torch.__version__, command='python ' + ' '.join(sys.argv))
    def save():
        tmp = out.with_suffix('.json.tmp'); tmp.write_text(json.dumps(r, indent=1, default=str)); os.replace(tmp, out.with_suffix('.json'))
        out.with_suffix('.md').write_text(markdown(r))
    r['ceilings'] = ceilings(dev); save()
    n = 3 if a.quick else a.fidelity_n
    steps = [('compile', lambda: compile_figures(dev, a.quick)),
             ('fidelity', lambda: [fidelity(t, dev, n) for t in a.fidelity.split(',')]),
             ('suite', lambda: suite_vs_ceilings(Path(a.episodes), r['ceilings'], dev) if a.episodes else []),
             ('throughput', lambda: throughput(dev, names(a.throughput), a.kernelbench.split(','), a.rounds,
                                               [int(x) for x in a.lanes.split(',')], [int(x) for x in a.waiting.split(',')],
                                               [x.strip() != '0' for x in a.warm_checks.split(',')],
                                               on_setting=lambda o: (r.__setitem__('throughput', dict(o)), save()))),
             ('turnaround', lambda: turnaround(a.turnaround.split(','), dev, 2 if a.quick else a.turnaround_n,
                                               on_task=lambda o: (r.__setitem__('turnaround', o), save()))),
             ('kernelbench', lambda: kernelbench_way(a.kernelbench.split(',')) if is_cuda(dev) else {}),
             ('isolation', lambda: isolation(a.fidelity.split(',')[0], dev) if is_cuda(dev) else {})]
    for name, fn in steps:
        if name not in parts: continue
        t0 = time.perf_counter()
        try: r[name] = fn()
        except Exception as e:
            import traceback; r[name + '_error'] = f'{type(e).__name__}: {e}'; traceback.print_exc()
        r.setdefault('seconds', {})[name] = round(time.perf_counter() - t0, 1)
        save(); print(f'{name}: {r["seconds"][name]} s', flush=True)
    print(markdown(r))
    return 0


if __name__ == '__main__':
    sys.exit(main())
