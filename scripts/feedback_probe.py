"""Where a served feedback command's seconds go (issue 35): the scripted expert's seven feedback evaluations of the
reference solution, back to back on an EvalPool, each with its wall time and the worker's own phase times.

    python scripts/feedback_probe.py --think 0 --workers 1 --prespawn 1

`--think S` waits S seconds before each command, as a policy's turn would: the pool's next never-used worker is then
started and warm when the command comes. `--prespawn N` keeps N started workers per lane.
"""
import argparse, time
from cuda_agent_lab.pool import EvalPool
from cuda_agent_lab.skill import make_workspace, remove_workspace, run_feedback
from cuda_agent_lab.policy import reference_solution

SEQUENCE = [('profile', True), ('compile', False), ('compile', False), ('verify', False), ('profile', False),
            ('verify', False), ('profile', False)]   # the scripted expert's, in its order

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--think', type=float, default=0.0); ap.add_argument('--workers', type=int, default=1)
    ap.add_argument('--prespawn', type=int, default=1); ap.add_argument('--task', default='diag_matmul')
    a = ap.parse_args()
    ws = make_workspace(a.task, device='cpu')
    sol = reference_solution(a.task, 'cpu')   # as the scripted expert writes it into a workspace
    for n, t in sol.kernels.items(): (ws.root/'kernels'/n).write_text(t)
    (ws.root/'model_new.py').write_text(sol.model_new)
    total, work = 0.0, 0.0
    try:
        with EvalPool('cpu', workers=a.workers, prespawn=a.prespawn) as pool:
            for cmd, ref in SEQUENCE:
                time.sleep(a.think)
                t0 = time.time(); r = run_feedback(cmd, ws.root, a.task, None, 'cpu', ref, pool=pool); dt = time.time() - t0
                ph = (r.get('details') or {}).get('phase_times') or {}
                done = ph.get('done')
                total += dt; work += done or 0.0
                print(f"{cmd + (' --reference' if ref else ''):20s} {dt:5.2f} s  worker's phases {done if done is not None else '-'} s  "
                      f"{'error: ' + str(r.get('error'))[:80] if r.get('error') else ''}")
    finally: remove_workspace(ws)
    print(f'seven commands: {total:.2f} s, of which {work:.2f} s in the workers\' phases (think {a.think:g} s, workers {a.workers}, prespawn {a.prespawn})')

if __name__ == '__main__': main()
