"""Issue 39 on a machine with several GPUs: evaluations and episodes per hour on one GPU against all of them, in one
run, with the local backend and with Ray; which GPU every worker timed on; and, from the lock trace (`CAL_LOCK_TRACE`),
that each timing had its GPU to itself.

    python scripts/multigpu_bench.py --out /tmp/multigpu.json [--tasks diag_matmul,gelu,transpose_copy] [--rounds 6]
        [--lanes 4] [--waiting 2] [--backends local,ray] [--episodes 1] [--gpu-sets 1,all]

Each setting runs the same work per GPU (`--rounds` candidates of every task per GPU; `--episodes` scripted episodes of
every task per GPU, 4 at once per GPU), so per-GPU rates compare directly: scaling = rate per GPU with all of them /
rate per GPU with one (the issue's target: at least 0.9). The JSON is rewritten after every setting (a cut run keeps
what it measured); a markdown table is printed at the end and written beside it. On the CPU (`--device cpu`) a "GPU
set" of k is k CPU lanes: that run only shows the script works.
"""
import argparse, json, os, statistics, sys, tempfile, time
from pathlib import Path
from cuda_agent_lab.pool import EvalPool, local_gpus
from cuda_agent_lab.profile import read_lock_trace, trace_overlaps
from cuda_agent_lab.rollout import pool_args, read_episodes, run_episodes
from cuda_agent_lab.tasks import get_task


def dump(obj, path):
    tmp = f'{path}.tmp'
    Path(tmp).write_text(json.dumps(obj, indent=1, default=str)); os.replace(tmp, path)


def solution(name, device): return str(get_task(name).solutions['cuda' if device.startswith('cuda') else 'cpu'])


def make_pool(backend, device, gpus, lanes, waiting):
    "The pool of one setting: `gpus` (ids) on cuda, or len(gpus) lanes on the CPU"
    if backend == 'ray':
        return EvalPool(device, backend='ray', gpus=len(gpus)) if device.startswith('cuda') else EvalPool(device, backend='ray', workers=len(gpus))
    if device.startswith('cuda'): return EvalPool(device, **pool_args(device, lanes=lanes, waiting=waiting, gpus=gpus))
    return EvalPool(device, **pool_args(device, workers=len(gpus), waiting=waiting))


def pinning(results, holds, device) -> dict:
    "Each evaluation's worker against the locks its process held: the lane's GPU, and only that GPU's lock"
    by_pid = {}
    for h in holds: by_pid.setdefault(h['pid'], set()).add(h['lock'])
    rows, bad = [], []
    for r in results:
        w = r.get('worker') or {}
        locks = sorted(by_pid.get(w.get('pid'), ()))
        want = f"cuda{w.get('gpu')}.lock" if device.startswith('cuda') and w.get('gpu') is not None else None
        ok = bool(locks) and (want is None or locks == [want])
        rows.append(dict(key=r['key'], pid=w.get('pid'), gpu=w.get('gpu'), host=w.get('host'), locks=locks, ok=ok))
        if not ok: bad.append(rows[-1])
    return dict(workers=len(rows), pinned=len(rows) - len(bad), not_pinned=bad[:5])


def evaluations(backend, device, gpus, tasks, rounds, lanes, waiting, trace) -> dict:
    "Candidates per hour through one pool on `gpus`: `rounds` of every task per GPU"
    os.environ['CAL_LOCK_TRACE'] = str(trace)   # the workers inherit it at their start
    jobs = [dict(task=t, candidate=solution(t, device), device=device, key=f'{backend}:{len(gpus)}:{t}:{i}')
            for i in range(rounds * len(gpus)) for t in tasks]
    with make_pool(backend, device, gpus, lanes, waiting) as pool:
        time.sleep(8 if device.startswith('cuda') else 3)   # the lanes' first workers start ahead, as in a long-running pool
        t0 = time.perf_counter(); rs = list(pool.map(jobs)); wall = time.perf_counter() - t0
    holds = read_lock_trace(trace) if Path(trace).exists() else []
    return dict(gpus=[str(g) for g in gpus], n=len(rs), wall_s=round(wall, 2), per_hour=3600 * len(rs) / wall,
                per_gpu_hour=3600 * len(rs) / wall / len(gpus), all_correct=all(r.get('correct') for r in rs),
                rewards=sorted({r['reward'] for r in rs}), median_eval_s=statistics.median(r['eval_s'] for r in rs),
                timings=len(holds), overlapping_timings=len(trace_overlaps(holds)), pinning=pinning(rs, holds, device) if backend == 'local' else None)


def episodes(device, gpus, tasks, n, lanes, waiting, out) -> dict:
    "Scripted-expert episodes per hour, `n` of every task per GPU, 4 at once per GPU, on a local pool of `gpus`"
    from cuda_agent_lab.rollout import run_pool
    t0 = time.perf_counter()
    with run_pool(device, 4 * len(gpus), lanes=lanes, waiting=waiting, gpus=gpus if device.startswith('cuda') else None) as pool:
        run_episodes(tasks, 'scripted', device, out, n=n * len(gpus), workers=4 * len(gpus), pool=pool, progress=False)
    wall = time.perf_counter() - t0
    eps = read_episodes(out)
    return dict(gpus=[str(g) for g in gpus], n=len(eps), wall_s=round(wall, 2), per_hour=3600 * len(eps) / wall,
                per_gpu_hour=3600 * len(eps) / wall / len(gpus), rewards=sorted(e['reward'] for e in eps))


def table(res) -> str:
    L = ['| part | backend | GPUs | n | wall s | per hour | per GPU-hour | scaling per GPU | timings / overlapping | workers pinned |',
         '|---|---|---|---|---|---|---|---|---|---|']
    for part in ('evaluations', 'episodes'):
        for backend, sets in res.get(part, {}).items():
            one = next(iter(sets.values()), None)
            for k, r in sets.items():
                if 'error' in r: L.append(f"| {part} | {backend} | {k} | error: {r['error'][:80]} |||||||"); continue
                sc = r['per_gpu_hour'] / one['per_gpu_hour'] if one and 'per_gpu_hour' in one else None
                pin = r.get('pinning') or {}
                L.append(f"| {part} | {backend} | {','.join(r['gpus'])} | {r['n']} | {r['wall_s']} | {r['per_hour']:.0f} | "
                         f"{r['per_gpu_hour']:.0f} | {sc:.2f} | {r.get('timings', '')} / {r.get('overlapping_timings', '')} | "
                         f"{pin.get('pinned', '')}/{pin.get('workers', '')} |")
    return '\n'.join(L)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--out', required=True); ap.add_argument('--device', default='cuda')
    ap.add_argument('--tasks', default='diag_matmul,gelu,transpose_copy'); ap.add_argument('--rounds', type=int, default=6)
    ap.add_argument('--lanes', type=int, default=4); ap.add_argument('--waiting', type=int, default=2)
    ap.add_argument('--backends', default='local,ray'); ap.add_argument('--episodes', type=int, default=1, help='per task per GPU; 0: none')
    ap.add_argument('--gpu-sets', default='1,all', help='GPU counts to compare (the first is the base)')
    ap.add_argument('--cpu-lanes', type=int, default=2, help='--device cpu: the "all" set')
    a = ap.parse_args(argv)
    visible = [str(g) for g in local_gpus()] if a.device.startswith('cuda') else [str(i) for i in range(a.cpu_lanes)]
    if not visible: ap.error('no GPU is visible (CUDA_VISIBLE_DEVICES); use --device cpu for a dry run')
    sets = {k: visible if k == 'all' else visible[:int(k)] for k in a.gpu_sets.split(',')}
    tasks = [t.strip() for t in a.tasks.split(',') if t.strip()]
    res = dict(command='python ' + ' '.join([sys.argv[0]] + (argv if argv is not None else sys.argv[1:])), device=a.device,
               visible=visible, when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), evaluations={}, episodes={})
    work = Path(tempfile.mkdtemp(prefix='multigpu-')); Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    save = lambda: (dump(res, a.out), Path(a.out).with_suffix('.md').write_text(table(res) + '\n'))
    with EvalPool(a.device, **pool_args(a.device, workers=len(visible), gpus=visible if a.device.startswith('cuda') else None)) as p:
        list(p.map([dict(task=t, candidate=solution(t, a.device), device=a.device, key=f'cache:{t}') for t in tasks]))   # baselines cached
    for backend in a.backends.split(','):
        for k, gpus in sets.items():
            try: r = evaluations(backend, a.device, gpus, tasks, a.rounds, a.lanes, a.waiting, work/f'locks-{backend}-{k}.txt')
            except Exception as e: r = dict(error=f'{type(e).__name__}: {e}')
            res['evaluations'].setdefault(backend, {})[k] = r; save()
            print(f"evaluations {backend} {k}: {r.get('per_gpu_hour', r.get('error'))}", flush=True)
    if a.episodes:
        for k, gpus in sets.items():
            try: r = episodes(a.device, gpus, tasks, a.episodes, a.lanes, a.waiting, work/f'episodes-{k}')
            except Exception as e: r = dict(error=f'{type(e).__name__}: {e}')
            res['episodes'].setdefault('local', {})[k] = r; save()
            print(f"episodes {k}: {r.get('per_gpu_hour', r.get('error'))}", flush=True)
    print(table(res))
    return 0


if __name__ == '__main__':
    sys.exit(main())
