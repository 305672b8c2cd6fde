"""What the judge outside the candidate's process costs and how tight its bound is, through the real `evaluate` (issue 56).

For each task the suite's CPU solution is evaluated REPS times with the judge and REPS times without it, alternating
(one at a time, a warm baseline cache), in a fresh worker each time (the path `cal eval` takes). Per evaluation: the
turnaround (`eval_s`), the judged phase's seconds, the judge's calls and compared calls, the claimed median, the judge's
floor (least and median over its batches) and whose figure counted. Prints a markdown table and writes JSON.

    python scripts/judge_cost.py --tasks diag_matmul,softmax,gelu --reps 3 --out reports/x/judge-cost.json
"""
import argparse, json, statistics, time
from pathlib import Path
from cuda_agent_lab.sandbox import evaluate
from cuda_agent_lab.tasks import get_task


def one(task, sol, judge):
    t0 = time.time(); r = evaluate(task, sol, 'cpu', judge=judge); wall = time.time() - t0
    d, pt = r['details'], r['details'].get('phase_times') or {}
    j, ct = d.get('judge') or {}, d.get('candidate_timing') or {}
    return dict(judge=judge, reward=r['reward'], violations=r['violations'], eval_s=round(wall, 3), t_ms=r['t_candidate_ms'],
                claimed_ms=ct.get('claimed_median_ms', ct.get('median_ms')), floor_ms=j.get('floor_ms'), floor_median_ms=j.get('floor_median_ms'),
                inner_ms=j.get('inner_ms'), source=j.get('time_source'), calls=j.get('calls'), checked=j.get('checked'),
                judged_s=round(pt['done'] - pt['judged'], 3) if 'judged' in pt and 'done' in pt else None,
                null_s=round(pt['baselines'] - pt['null'], 3) if 'null' in pt and 'baselines' in pt else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tasks', default='diag_matmul,softmax,gelu')
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    rows = []
    for task in a.tasks.split(','):
        sol = get_task(task).solutions['cpu']
        evaluate(task, sol, 'cpu', judge=False)   # the baselines timed and cached, the kernel built once: not in the figures
        for _ in range(a.reps):
            for judge in (True, False): rows.append(dict(task=task, **one(task, sol, judge)))
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(rows, indent=1))
    med = lambda xs: statistics.median(xs) if xs else float('nan')
    print('| task | turnaround s, judged | without | judged phase s | null phase s | claimed ms | floor ms (least) | floor ms (median) | claimed / least floor | figure that counted | rewards judged / not |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for task in a.tasks.split(','):
        on = [r for r in rows if r['task'] == task and r['judge']]; off = [r for r in rows if r['task'] == task and not r['judge']]
        ratio = [r['claimed_ms'] / r['floor_ms'] for r in on if r['claimed_ms'] and r['floor_ms'] and r['floor_ms'] > 0]
        fmt = lambda xs, f='{:.3g}': ', '.join(f.format(x) for x in xs)
        cells = [task, f"{med([r['eval_s'] for r in on]):.2f}", f"{med([r['eval_s'] for r in off]):.2f}",
                 f"{med([r['judged_s'] for r in on if r['judged_s'] is not None]):.2f}", f"{med([r['null_s'] for r in on if r['null_s'] is not None]):.2f}",
                 fmt([r['claimed_ms'] for r in on if r['claimed_ms']]), fmt([r['floor_ms'] for r in on if r['floor_ms'] is not None]),
                 fmt([r['floor_median_ms'] for r in on if r['floor_median_ms'] is not None]), fmt(ratio, '{:.2f}'),
                 ', '.join(str(r['source']) for r in on), fmt([r['reward'] for r in on], '{}') + ' / ' + fmt([r['reward'] for r in off], '{}')]
        print('| ' + ' | '.join(cells) + ' |')
    allon = [r['eval_s'] for r in rows if r['judge']]; alloff = [r['eval_s'] for r in rows if not r['judge']]
    print(f"\nturnaround, all tasks: judged {statistics.mean(allon):.2f} s mean ({3600 / statistics.mean(allon):.0f} evaluations an hour one at a time), "
          f"without {statistics.mean(alloff):.2f} s ({3600 / statistics.mean(alloff):.0f} an hour): {statistics.mean(allon) / statistics.mean(alloff) - 1:+.1%}")


if __name__ == '__main__':
    main()
