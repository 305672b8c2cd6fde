"""What each layer around a candidate's call costs inside the timed interval (reward integrity part 3).

Times the suite's reference solution of a task with `profile.time_fn`, in this process, wrapped as the sandbox's
timed calls were before part 3 (the dispatch layer alone) and as they are now (`verify.run_candidate`: both guard
layers, gc paused, the profiler's range, a fixed depth; plus a profiler session around each call, as `TimedCalls` opens
one). Rounds alternate the variants so drift hits them alike. Prints a markdown table and writes --out as JSON.

    python scripts/guard_cost.py --task diag_matmul --device cpu --out reports/cpu-2026-12-04/guard-cost.json
"""
import argparse, importlib.util, json, platform, statistics, sys
from pathlib import Path
import torch
from cuda_agent_lab import verify
from cuda_agent_lab.guard import forbid_torch, op_audit
from cuda_agent_lab.profile import device_name, time_fn
from cuda_agent_lab.sandbox import CALL_DEPTH, load_task_module
from cuda_agent_lab.tasks import get_task
from cuda_agent_lab.verify import draw_inputs, run_candidate


def load(task, device):
    kind = 'cuda' if device.startswith('cuda') else 'cpu'
    spec = importlib.util.spec_from_file_location('cal_guard_cost', task.solutions[kind]/'model_new.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    ref = load_task_module(task.source_for(device))
    mn = mod.ModelNew(*ref.get_init_inputs()).to(device).eval()
    return mn, [draw_inputs(ref.get_inputs, s, device) for s in range(3)]


def variants(mn):
    audit = op_audit()
    def bare(*x):
        with torch.no_grad(): return mn(*x)
    def dispatch_only(*x):   # the timed call before part 3
        with torch.no_grad(), forbid_torch(functional=False): return mn(*x)
    def both_layers(*x):
        with torch.no_grad(), forbid_torch(): return mn(*x)
    def run(*x): return run_candidate(mn, x)
    return {'no guard': (bare, None), 'dispatch layer only (before part 3)': (dispatch_only, None),
            'both guard layers': (both_layers, None), 'run_candidate (part 3)': (run, None),
            'run_candidate + profiler session (part 3, as timed)': (run, audit)}


def timed(fn, audit, sets, device):
    if audit is None: return time_fn(fn, sets, device, min_time_s=0.3).median_ms
    def prepare(i): audit.start()
    def call(*x):
        out = fn(*x); audit.stop(1); return out   # the session's stop falls inside the interval here: an upper bound
    return time_fn(call, sets, device, min_time_s=0.3, prepare=prepare).median_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--task', default='diag_matmul'); ap.add_argument('--device', default='cpu')
    ap.add_argument('--rounds', type=int, default=5); ap.add_argument('--out', default=None)
    a = ap.parse_args()
    verify.CALL_DEPTH = CALL_DEPTH
    mn, sets = load(get_task(a.task), a.device)
    vs = variants(mn)
    got = {k: [] for k in vs}
    for _ in range(a.rounds):
        for k, (fn, audit) in vs.items(): got[k].append(timed(fn, audit, sets, a.device) * 1e3)
    rows = {k: statistics.median(v) for k, v in got.items()}
    base = rows['dispatch layer only (before part 3)']
    print(f"# What a timed call costs by its guard layers: {a.task} on {device_name(a.device)}, torch {torch.__version__}\n")
    print(f"command: `python {' '.join(sys.argv)}`; median over {a.rounds} rounds of time_fn medians\n")
    print('| wrapping | median us | vs before part 3 |\n|---|---|---|')
    for k, v in rows.items(): print(f'| {k} | {v:.1f} | {v - base:+.1f} us |')
    if a.out:
        Path(a.out).write_text(json.dumps(dict(task=a.task, device=a.device, device_name=device_name(a.device),
                                               torch=torch.__version__, rounds=got, median_us=rows), indent=1))


if __name__ == '__main__':
    main()
