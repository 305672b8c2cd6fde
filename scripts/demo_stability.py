"""Whether `cal demo` gives the same rewards run after run (issue 36): N runs of the scripted expert's demo on the CPU,
each in a fresh run folder and (unless --warm) a fresh cache, so every run times its own baselines.

    python scripts/demo_stability.py --runs 3 --out reports/bench/demo-stability.json [--workers 2] [--warm] [--no-pool]

Prints, per task, each run's reward and times (candidate, eager, torch.compile, in ms), and each run's wall time.
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

def one_run(i:int, workers:int|None, warm:bool, cache:Path, no_pool:bool=False) -> dict:
    out = Path(tempfile.mkdtemp(prefix=f'cal-demo-{i}-'))
    env = dict(os.environ, CAL_CACHE_DIR=str(cache if warm else Path(tempfile.mkdtemp(prefix='cal-cache-'))/'jit'))
    cmd = [str(Path(sys.executable).with_name('cal')), 'demo', '--out', str(out)] + (['--workers', str(workers)] if workers else []) + (['--no-pool'] if no_pool else [])
    t0 = time.time(); r = subprocess.run(cmd, env=env, capture_output=True, text=True); wall = time.time() - t0
    if r.returncode: raise SystemExit(f'run {i} failed: {r.stdout[-2000:]}{r.stderr[-2000:]}')
    eps = [json.loads(l) for l in (out/'episodes.jsonl').read_text().splitlines() if l.strip()]
    return dict(run=i, wall_s=round(wall, 1), episodes={e['task']: dict(
        reward=e['reward'], **{k: (e.get('evaluation') or {}).get(k) for k in ('t_candidate_ms', 't_eager_ms', 't_compile_ms')},
        wall_s=e.get('wall_s')) for e in eps})

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=3); ap.add_argument('--workers', type=int, default=None)
    ap.add_argument('--warm', action='store_true'); ap.add_argument('--no-pool', action='store_true'); ap.add_argument('--out', default=None)
    a = ap.parse_args()
    cache = Path(tempfile.mkdtemp(prefix='cal-cache-'))/'jit'
    runs = [one_run(i, a.workers, a.warm, cache, a.no_pool) for i in range(a.runs)]
    tasks = sorted(runs[0]['episodes'])
    heads = ' | '.join(f"run {r['run'] + 1}: reward (cand / eager / compile ms)" for r in runs)
    print(f'| task | {heads} |')
    print('|---|' + '---|' * len(runs))
    fmt = lambda x: '-' if x is None else f'{x:.3g}'
    for t in tasks:
        cells = [f"{e['reward']} ({fmt(e['t_candidate_ms'])} / {fmt(e['t_eager_ms'])} / {fmt(e['t_compile_ms'])})"
                 for e in (r['episodes'][t] for r in runs)]
        print(f"| {t} | {' | '.join(cells)} |")
    print(f"| demo wall s | {' | '.join(str(r['wall_s']) for r in runs)} |")
    same = all(r['episodes'][t]['reward'] == runs[0]['episodes'][t]['reward'] for r in runs for t in tasks)
    print(f"\nsame rewards in all {len(runs)} runs: {same}")
    if a.out: Path(a.out).write_text(json.dumps(dict(args=vars(a), runs=runs, same_rewards=same), indent=1))

if __name__ == '__main__': main()
