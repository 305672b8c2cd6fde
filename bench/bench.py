"""The throughput and fidelity benchmark of the trusted evaluation, for one GPU (run on the H200 through the device tool).

    python bench/bench.py --out reports/bench/2026-12-02-h200 [--quick]

Writes OUT.json (every figure) and OUT.md (the same as tables). Each figure is measured in this one run, on this one
machine: ceilings (copy bandwidth, fp32/tf32/bf16 matmul rate), compile latency of the same kernel through each
path, evaluation turnaround per candidate, throughput (evaluations per GPU-hour), timing fidelity (the same candidate in
20 fresh processes; agreement with triton.testing.do_bench), and the reference suite against the ceilings (from a run
folder of the scripted expert, `--episodes`). Needs torch with CUDA and the package on PYTHONPATH; Triton is optional.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, textwrap, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from cuda_agent_lab import jit, profile                       # noqa: E402
from cuda_agent_lab.sandbox import evaluate                   # noqa: E402
from cuda_agent_lab.tasks import get_task, load_suite         # noqa: E402

ROW_SCALE_CU = (ROOT/'kernels/level1/diag_matmul/cuda/row_scale.cu').read_text()


def events_ms(fn, reps=20):
    "Median ms of `fn()` between CUDA events, after a warm-up"
    for _ in range(3): fn()
    torch.cuda.synchronize(); out = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); out.append(s.elapsed_time(e))
    return statistics.median(out)


def ceilings() -> dict:
    "Copy bandwidth (GB/s, read+write) and matmul rates (TFLOP/s) measured here"
    a = torch.empty(1 << 28, dtype=torch.float32, device='cuda'); b = torch.empty_like(a)     # 1 GiB each
    t = events_ms(lambda: b.copy_(a))
    res = {'copy_GBps': 2 * a.numel() * 4 / t / 1e6}
    n = 8192
    for name, dt, tf32 in [('fp32_TFLOPs', torch.float32, False), ('tf32_TFLOPs', torch.float32, True), ('bf16_TFLOPs', torch.bfloat16, False)]:
        x, y = torch.randn(n, n, device='cuda', dtype=dt), torch.randn(n, n, device='cuda', dtype=dt)
        torch.backends.cuda.matmul.allow_tf32 = tf32
        res[name] = 2 * n ** 3 / events_ms(lambda: x @ y, 10) / 1e9
    torch.backends.cuda.matmul.allow_tf32 = False
    del a, b; torch.cuda.empty_cache()
    return res


LOAD_INLINE = r'''
import sys, time, torch
from pathlib import Path
from torch.utils.cpp_extension import load_inline
src = Path(sys.argv[1]).read_text().replace('extern "C" __global__', '__global__')
src += """
torch::Tensor row_scale_launch(torch::Tensor d, torch::Tensor B) {
    auto out = torch::empty_like(B); int n = B.size(0), m = B.size(1);
    dim3 grid(std::min((m / 4 + 255) / 256, 1024), std::min(n, 65535));
    row_scale<<<grid, 256>>>(d.data_ptr<float>(), B.data_ptr<float>(), out.data_ptr<float>(), n, m);
    return out;
}"""
t0 = time.perf_counter()
load_inline('bench_row_scale_' + sys.argv[2], cpp_sources='torch::Tensor row_scale_launch(torch::Tensor d, torch::Tensor B);',
            cuda_sources=src, functions=['row_scale_launch'], extra_cuda_cflags=['-O3'], build_directory=sys.argv[3])
print(time.perf_counter() - t0)
'''


def load_inline_latency(tag:str) -> float:
    "Seconds for `load_inline` to build and load the row-scaling kernel, in a fresh process with a fresh build folder"
    with tempfile.TemporaryDirectory() as d, tempfile.NamedTemporaryFile('w', suffix='.cu') as f:
        f.write(ROW_SCALE_CU); f.flush()
        r = subprocess.run([sys.executable, '-c', LOAD_INLINE, f.name, tag, d], capture_output=True, text=True, timeout=900)
        if r.returncode: return float('nan')
        return float(r.stdout.strip().splitlines()[-1])


def compile_figures(quick:bool) -> dict:
    res = {'fast_path': jit.compile_latency('cuda', n=5)}
    if not quick:
        res['load_inline_cold_s'] = load_inline_latency(str(os.getpid()))
    return res


def turnaround(names, n:int=3) -> dict:
    "Wall seconds of `evaluate` per reference candidate (baselines cached by a first run), and the share outside the kernel"
    out = {}
    for name in names:
        t = get_task(name); cand = t.path.parent/'cuda'
        evaluate(t, cand, 'cuda')                              # baselines into the cache
        runs = [evaluate(t, cand, 'cuda') for _ in range(n)]
        ct = [r['details'].get('candidate_timing') or {} for r in runs]
        kernel_s = [c.get('median_ms', 0) * c.get('n', 0) / 1e3 for c in ct]
        out[name] = dict(level=t.level, eval_s=[r['eval_s'] for r in runs], reward=[r['reward'] for r in runs],
                         median_eval_s=statistics.median(r['eval_s'] for r in runs),
                         share_outside_timed_kernel=1 - statistics.median(k / r['eval_s'] for k, r in zip(kernel_s, runs)))
    return out


def throughput(names) -> dict:
    "Evaluations per GPU-hour of the level-1 reference candidates: one by one (fresh process each), and with the pool"
    cands = [(get_task(n), get_task(n).path.parent/'cuda') for n in names]
    t0 = time.perf_counter(); rs = [evaluate(t, c, 'cuda') for t, c in cands]; serial = time.perf_counter() - t0
    res = {'n': len(cands), 'serial_s': serial, 'serial_per_hour': 3600 * len(cands) / serial,
           'serial_all_correct': all(r['correct'] for r in rs)}
    try:
        from cuda_agent_lab.pool import EvalPool
        with EvalPool(device='cuda') as pool:
            jobs = [dict(task=t.name, candidate=str(c), device='cuda', key=t.name) for t, c in cands]
            t0 = time.perf_counter(); prs = list(pool.map(jobs)); pooled = time.perf_counter() - t0
        res.update(pool_s=pooled, pool_per_hour=3600 * len(cands) / pooled,
                   pool_all_correct=all(r.get('correct') for r in prs))
    except Exception as e:                                      # the pool is optional here; say why it is missing
        res['pool_error'] = f'{type(e).__name__}: {e}'
    return res


def fidelity(n:int=20) -> dict:
    "The diag-matmul solution evaluated `n` times in fresh processes: spread of its time; and do_bench on the same kernel"
    t = get_task('diag_matmul'); cand = t.path.parent/'cuda'
    rs = [evaluate(t, cand, 'cuda') for _ in range(n)]
    tc = [r['t_candidate_ms'] for r in rs if r['t_candidate_ms']]
    res = {'n': len(tc), 't_candidate_ms': tc, 'cv': statistics.pstdev(tc) / statistics.mean(tc),
           'speedup_compile': [r['speedup_compile'] for r in rs], 't_compile_ms': rs[-1]['t_compile_ms'],
           't_eager_ms': rs[-1]['t_eager_ms']}
    ns = {'__file__': str(cand/'model_new.py'), '__name__': 'model_new'}
    exec(compile((cand/'model_new.py').read_text(), str(cand/'model_new.py'), 'exec'), ns)
    mn = ns['ModelNew']().cuda()
    A, B = torch.randn(4096, device='cuda'), torch.randn(4096, 4096, device='cuda')
    res['time_fn_ms'] = profile.time_fn(mn, [[A, B]], 'cuda').median_ms
    try:
        import triton.testing
        res['do_bench_ms'] = float(triton.testing.do_bench(lambda: mn(A, B), warmup=100, rep=500, return_mode='median'))
    except Exception as e: res['do_bench_error'] = f'{type(e).__name__}: {e}'
    res['kernel_only_ms'] = events_ms(lambda: mn(A, B), 50)
    from cuda_agent_lab.guard import forbid_torch
    def guarded(A, B):
        with torch.no_grad(), forbid_torch(allow=(), record=[], functional=False): return mn(A, B)
    res['time_fn_guarded_ms'] = profile.time_fn(guarded, [[A, B]], 'cuda').median_ms
    for name, f in [('host_us_per_call', lambda: mn(A, B)), ('host_us_per_guarded_call', lambda: guarded(A, B))]:
        torch.cuda.synchronize(); t0 = time.perf_counter()
        for _ in range(200): f()
        res[name] = (time.perf_counter() - t0) / 200 * 1e6; torch.cuda.synchronize()
    return res


def suite_vs_ceilings(episodes_path:Path, ceil:dict) -> list:
    "Per task of a scripted-expert run: times, speedups, and the solution's bandwidth on its minimum traffic"
    rows = []
    for line in episodes_path.read_text().splitlines():
        try: ep = json.loads(line)
        except json.JSONDecodeError: continue
        ev, t = ep['evaluation'], get_task(ep['task'])
        ns = {}; exec(compile(t.source, str(t.path), 'exec'), ns)
        torch.manual_seed(0)
        inputs = [x for x in ns['get_inputs']() if isinstance(x, torch.Tensor)]
        with torch.no_grad():
            m = ns['Model'](*ns['get_init_inputs']()).cuda().eval()
            y = m(*[x.cuda() for x in inputs])
        ys = y if isinstance(y, (tuple, list)) else [y]
        nbytes = sum(x.numel() * x.element_size() for x in inputs) + sum(p.numel() * p.element_size() for p in m.parameters()) \
                 + sum(o.numel() * o.element_size() for o in ys if isinstance(o, torch.Tensor))
        tc = ev.get('t_candidate_ms')
        gbps = nbytes / tc / 1e6 if tc else None
        rows.append(dict(task=ep['task'], level=ep['level'], reward=ep['reward'], t_eager_ms=ev.get('t_eager_ms'),
                         t_compile_ms=ev.get('t_compile_ms'), t_candidate_ms=tc, speedup_eager=ev.get('speedup_eager'),
                         speedup_compile=ev.get('speedup_compile'), min_bytes=nbytes, GBps=gbps,
                         frac_of_copy=gbps / ceil['copy_GBps'] if gbps else None))
        del m, y, ys; torch.cuda.empty_cache()
    return rows


def _f(x, p=3): return '-' if x is None else (f'{x:.{p}g}' if isinstance(x, float) else str(x))


def markdown(r:dict) -> str:
    c, f, comp, thr = r['ceilings'], r.get('fidelity', {}), r.get('compile', {}), r.get('throughput', {})
    fp = comp.get('fast_path', {})
    lines = [f"# Benchmark, {r['when']}", '', f"{r['device']}; torch {r['torch']}. Command: `{r['command']}`", '',
             '## Ceilings measured in this run', '', '| copy GB/s | fp32 TFLOP/s | tf32 TFLOP/s | bf16 TFLOP/s |', '|---|---|---|---|',
             f"| {_f(c['copy_GBps'], 4)} | {_f(c['fp32_TFLOPs'])} | {_f(c['tf32_TFLOPs'])} | {_f(c['bf16_TFLOPs'])} |", '',
             '## Compile latency of the row-scaling kernel', '', '| path | seconds |', '|---|---|',
             f"| fast path, cold (median of 5 fresh processes) | {_f(fp.get('cold_ms', 0) / 1e3)} |",
             f"| fast path, cached | {_f(fp.get('cached_ms', 0) / 1e3)} |",
             f"| load_inline, cold | {_f(comp.get('load_inline_cold_s'))} |", '']
    if 'turnaround' in r:
        lines += ['## Evaluation turnaround (verify 5 checks + profile, baselines cached)', '',
                  '| task | level | median s | runs (s) | share outside the timed kernel |', '|---|---|---|---|---|']
        lines += [f"| {k} | {v['level']} | {_f(v['median_eval_s'])} | {', '.join(_f(x) for x in v['eval_s'])} | {v['share_outside_timed_kernel']:.1%} |"
                  for k, v in r['turnaround'].items()] + ['']
    if thr:
        lines += ['## Throughput (level-1 reference candidates)', '', f"- one by one, a fresh process each: {_f(thr['serial_per_hour'], 4)} evaluations per GPU-hour ({thr['n']} in {_f(thr['serial_s'])} s)",
                  f"- with the pool: {_f(thr.get('pool_per_hour'), 4)} per GPU-hour" + (f" ({thr['pool_error']})" if 'pool_error' in thr else ''), '']
    if f:
        lines += ['## Timing fidelity (diag_matmul solution)', '', f"- {f['n']} fresh processes: t_candidate median {_f(statistics.median(f['t_candidate_ms']))} ms, CV {f['cv']:.2%}",
                  f"- in one process: time_fn {_f(f['time_fn_ms'])} ms (under the sandbox's guard {_f(f.get('time_fn_guarded_ms'))} ms), triton do_bench {_f(f.get('do_bench_ms'))} ms, plain events {_f(f['kernel_only_ms'])} ms",
                  f"- host time per call, no sync: {_f(f.get('host_us_per_call'))} us bare, {_f(f.get('host_us_per_guarded_call'))} us under the guard",
                  f"- eager {_f(f['t_eager_ms'])} ms, torch.compile {_f(f['t_compile_ms'])} ms; speedup vs compile median {_f(statistics.median(x for x in f['speedup_compile'] if x))}x", '']
    if r.get('suite'):
        lines += ['## Reference suite against the ceilings', '', '| task | L | reward | eager ms | compile ms | solution ms | vs eager | vs compile | GB/s (min traffic) | of copy |',
                  '|---|---|---|---|---|---|---|---|---|---|']
        lines += [f"| {s['task']} | {s['level']} | {s['reward']} | {_f(s['t_eager_ms'])} | {_f(s['t_compile_ms'])} | {_f(s['t_candidate_ms'])} | "
                  f"{_f(s['speedup_eager'])} | {_f(s['speedup_compile'])} | {_f(s['GBps'])} | {_f(s['frac_of_copy'])} |" for s in r['suite']]
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='output path without extension: writes OUT.json and OUT.md')
    ap.add_argument('--episodes', default=None, help='episodes.jsonl of a scripted-expert run on this GPU (the suite table)')
    ap.add_argument('--quick', action='store_true', help='skip load_inline and use 5 fidelity runs')
    ap.add_argument('--only', default='ceilings,compile,turnaround,throughput,fidelity,suite', help='comma-separated parts')
    a = ap.parse_args()
    parts, out = set(a.only.split(',')), Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    r = dict(when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), device=torch.cuda.get_device_name(), torch=torch.__version__,
             command='python ' + ' '.join(sys.argv))
    def save():
        out.with_suffix('.json').write_text(json.dumps(r, indent=1, default=str)); out.with_suffix('.md').write_text(markdown(r))
    r['ceilings'] = ceilings(); save()
    steps = [('compile', lambda: compile_figures(a.quick)),
             ('turnaround', lambda: turnaround(['diag_matmul', 'matmul_div_sum_scale', 'resnet_basic_block'])),
             ('throughput', lambda: throughput([t.name for t in load_suite(levels=[1])])),
             ('fidelity', lambda: fidelity(5 if a.quick else 20)),
             ('suite', lambda: suite_vs_ceilings(Path(a.episodes), r['ceilings']) if a.episodes else [])]
    for name, fn in steps:
        if name not in parts: continue
        t0 = time.perf_counter()
        try: r[name] = fn()
        except Exception as e: r[name + '_error'] = f'{type(e).__name__}: {e}'
        r.setdefault('seconds', {})[name] = round(time.perf_counter() - t0, 1)
        save(); print(f'{name}: {r["seconds"][name]} s', flush=True)


if __name__ == '__main__':
    main()
