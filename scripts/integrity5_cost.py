"""What reward integrity part 5's checks cost, measured through the real `evaluate` (issue 55).

For each task: the honest solution evaluated REPS times with a private build of its kernels (no compile-ahead: the worker
compiles them itself) and REPS times after `pool.compile_ahead` put them in the kernel store (the worker loads the
vouched file); per evaluation the import phase's seconds, the draw of one input set (`details.draw_ms`), the eager
reference (`t_eager_ms`), the timed calls checked, and the speed-of-light ratio (the floor ran). Prints a markdown table
and writes JSON.

    python scripts/integrity5_cost.py --device cpu --tasks diag_matmul,softmax,gelu --reps 5 --out reports/x/cost.json
"""
import argparse, json, os, statistics, tempfile, time
from pathlib import Path
from cuda_agent_lab.pool import compile_ahead
from cuda_agent_lab.sandbox import evaluate
from cuda_agent_lab.tasks import get_task

def phase_s(r, a, b):
    pt = r['details'].get('phase_times') or {}
    return pt[b] - pt[a] if a in pt and b in pt else None

def row(task, device, reps, ahead):
    t = get_task(task)
    sol = t.solutions['cuda' if device.startswith('cuda') else 'cpu']
    if ahead: compile_ahead(sol, device)
    out = []
    for _ in range(reps):
        r = evaluate(task, sol, device, compile=False)
        d = r['details']
        out.append(dict(reward=r['reward'], violations=r['violations'], import_s=phase_s(r, 'import', 'init'),
                        draw_ms=d.get('draw_ms'), t_eager_ms=r['t_eager_ms'], checked=(d.get('timed_checks') or {}).get('outputs_checked'),
                        sol_ratio=(d.get('speed_of_light') or {}).get('ratio'), eval_s=r['eval_s']))
    med = lambda k: statistics.median(x[k] for x in out if x[k] is not None)
    return dict(task=task, kernels='kernel store (vouched)' if ahead else 'private build', reps=reps, runs=out,
                import_s=med('import_s'), draw_ms=med('draw_ms'), t_eager_ms=med('t_eager_ms'), checked=med('checked'),
                sol_ratio=med('sol_ratio'), rewards=sorted({x['reward'] for x in out}))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='cpu'); ap.add_argument('--tasks', default='diag_matmul,softmax,gelu')
    ap.add_argument('--reps', type=int, default=5); ap.add_argument('--out', default=None)
    a = ap.parse_args()
    os.environ['CAL_CACHE_DIR'] = tempfile.mkdtemp(prefix='cal-cost-')   # a fresh store: the private rows never find one
    rows = [row(t, a.device, a.reps, ahead) for ahead in (False, True) for t in a.tasks.split(',')]
    print(f"| task | kernels | import phase s (median of {a.reps}) | draw of one input set ms | eager reference ms | timed outputs checked | t / floor | rewards |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['task']} | {r['kernels']} | {r['import_s']:.3f} | {r['draw_ms']:.2f} | {r['t_eager_ms']:.3f} | {r['checked']:.0f} | {r['sol_ratio']:.1f} | {r['rewards']} |")
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(dict(device=a.device, when=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()), rows=rows), indent=1))

if __name__ == '__main__': main()
