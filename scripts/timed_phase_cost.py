"""What a CPU evaluation's timed phase costs, and how many samples the native sampler got in it (reward integrity part 5,
route 8: on a CPU the timed calls go on until the sampler's windows hold `sandbox.MIN_SAMPLED_S`).

Runs `python -m cuda_agent_lab eval TASK SOLUTION --device cpu --json` ROUNDS times per task (after one run that fills
the cache), with the package on PYTHONPATH first, so two checkouts can be compared. Prints a markdown table of medians:
timed calls, the profile phase's sampled window seconds and due samples, the profile phase's seconds and the whole run's.

    python scripts/timed_phase_cost.py --tasks diag_matmul,softmax,gelu --rounds 3 [--root /path/to/checkout] [--out x.json]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

def one(root:Path, task:str, cache:str) -> dict:
    from cuda_agent_lab.tasks import get_task
    sol = get_task(task).solutions['cpu']
    env = {**os.environ, 'PYTHONPATH': str(root), 'CAL_CACHE_DIR': cache}
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, '-m', 'cuda_agent_lab', 'eval', task, str(sol), '--device', 'cpu', '--json'],
                       capture_output=True, text=True, env=env, cwd=root)
    wall = time.perf_counter() - t0
    d = json.loads(r.stdout); det = d['details']; pt = det.get('phase_times', {})
    prof = (det.get('native_sampler') or {}).get('profile') or {}
    return dict(reward=d['reward'], n=det.get('candidate_timing', {}).get('n'), window_s=prof.get('window_s'), due=prof.get('due'),
                profile_s=(pt['done'] - pt['profile']) if 'done' in pt and 'profile' in pt else None, wall_s=wall)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tasks', default='diag_matmul,softmax,gelu'); ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--root', default=str(Path(__file__).resolve().parents[1])); ap.add_argument('--out', default=None)
    a = ap.parse_args(); root = Path(a.root).resolve(); rows = {}
    with tempfile.TemporaryDirectory() as cache:
        for task in a.tasks.split(','):
            one(root, task, cache)   # fills the cache: kernels, baselines, ceilings
            runs = [one(root, task, cache) for _ in range(a.rounds)]
            med = lambda k: statistics.median(r[k] for r in runs if r[k] is not None) if any(r[k] is not None for r in runs) else None
            rows[task] = dict(rewards=[r['reward'] for r in runs], **{k: med(k) for k in ('n', 'window_s', 'due', 'profile_s', 'wall_s')})
    print(f'checkout: {root}\n\n| task | rewards | timed calls | sampled s | due samples | profile phase s | run s |\n|---|---|---|---|---|---|---|')
    for t, r in rows.items():
        print(f"| {t} | {r['rewards']} | {r['n']} | {r['window_s']} | {r['due']} | {r['profile_s'] and round(r['profile_s'], 3)} | {round(r['wall_s'], 2)} |")
    if a.out: Path(a.out).write_text(json.dumps(dict(root=str(root), rounds=a.rounds, rows=rows), indent=1))

if __name__ == '__main__':
    main()
