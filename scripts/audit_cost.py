"""What the device audit (issue 31) costs an evaluation: level-1 solutions evaluated by warm workers (started and warmed
ahead, as the pool's waiting workers are) and by fresh processes, each verdict's turnaround beside the audited call's
own time (`device_audit.trace_s + judge_s`). Prints a markdown table and writes JSON; run on a GPU host:

    python scripts/audit_cost.py --tasks diag_matmul,gelu --n 4 --out /tmp/audit-cost.json
"""
import argparse, json, statistics, time
from cuda_agent_lab.sandbox import evaluate, spawn_worker
from cuda_agent_lab.tasks import get_task

def one(task, worker=None) -> dict:
    t = get_task(task)
    r = evaluate(t, t.solutions['cuda'], 'cuda', compile=False, worker=worker)
    a = (r.get('details') or {}).get('device_audit') or {}
    audit_s = (a.get('trace_s') or 0) + (a.get('judge_s') or 0)
    return dict(task=task, warm=worker is not None, reward=r['reward'], violations=r['violations'], eval_s=r['eval_s'],
                audit_s=round(audit_s, 4), share=round(audit_s / max(r['eval_s'] - audit_s, 1e-9), 4),
                activities=a.get('activities'), audit_violations=a.get('violations'), t_candidate_ms=r['t_candidate_ms'],
                timeline=(r.get('details') or {}).get('timeline'))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tasks', default='diag_matmul'); ap.add_argument('--n', type=int, default=4)
    ap.add_argument('--fresh', type=int, default=2); ap.add_argument('--out', required=True)
    a = ap.parse_args()
    rows = []
    for task in a.tasks.split(','):
        one(task)   # the task's baselines recorded once, as in any run after the first
        for _ in range(a.n):
            w = spawn_worker('cuda'); w.wait_ready(); time.sleep(0.5)
            rows.append(one(task, w))
        rows += [one(task) for _ in range(a.fresh)]
    json.dump(rows, open(a.out, 'w'), indent=1)
    print('| task | worker | reward | turnaround s (median) | audited call s (median) | audit / rest |\n|---|---|---|---|---|---|')
    for task in a.tasks.split(','):
        for warm in (True, False):
            rs = [r for r in rows if r['task'] == task and r['warm'] == warm]
            if not rs: continue
            med = lambda k: statistics.median(r[k] for r in rs)
            print(f"| {task} | {'warm' if warm else 'fresh'} | {sorted({r['reward'] for r in rs})} | {med('eval_s'):.3f} | "
                  f"{med('audit_s'):.4f} | {med('share'):.1%} |")

if __name__ == '__main__': main()
