"""The CPU timing's two ways to choose the number of timed calls, side by side (issue 36): the fixed 0.5 s budget
(`profile_opts={'min_time_s': 0.5}`) and the precision stop (the sandbox's default on the CPU: the median within 1% at
95% confidence, at most 2 s), three evaluations each of the reference solutions, in one process after another.

    python scripts/cpu_timing_compare.py [--tasks diag_matmul,softmax,gelu,matmul_div_sum_scale] [--repeats 3]

Per task and way: the candidate's median (ms), the calls timed, the seconds of the profile phase, and the reward.
"""
import argparse, time
from cuda_agent_lab.sandbox import evaluate
from cuda_agent_lab.tasks import get_task

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tasks', default='diag_matmul,softmax,gelu,matmul_div_sum_scale'); ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args()
    print('| task | timing | median ms | calls | profile phase s | reward |\n|---|---|---|---|---|---|')
    for task in a.tasks.split(','):
        sol = get_task(task).solutions['cpu']
        for label, opts in [('budget 0.5 s', {'min_time_s': 0.5}), ('precision 1%', {})]:
            rows = []
            for _ in range(a.repeats):
                r = evaluate(task, sol, 'cpu', compile=False, profile_opts=opts)
                ct, pt = r['details']['candidate_timing'], r['details']['phase_times']
                rows.append((ct['median_ms'], ct['n'], pt['done'] - pt['profile'], r['reward']))
            col = lambda k, f: ', '.join(f.format(x[k]) for x in rows)
            print(f"| {task} | {label} | {col(0, '{:.3f}')} | {col(1, '{}')} | {col(2, '{:.2f}')} | {col(3, '{}')} |", flush=True)

if __name__ == '__main__': main()
