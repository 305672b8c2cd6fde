"""How tight the judge's outside bound is on a GPU (issue 56): the suite's honest CUDA solutions judged through a runner
of their own (`judge.judged_timing(device='cuda')`: slots in the judge's GPU memory through CUDA IPC, the clock from
waking the runner to holding a copy of the outputs), every batch run (no claim to stop early). Per task: the least and
median floor a call (the clock less the transfer priced on the null model), the runner's own wall time a call (each call
ended by a synchronize), and with --sandbox the sandbox's timing of the same solution (`evaluate`: CUDA events, L2
flushed before each call). Prints a markdown table and writes JSON.

    python scripts/judge_gpu.py --tasks diag_matmul,softmax --out /tmp/judge-gpu.json --sandbox
"""
import argparse, json, statistics, time
from pathlib import Path
from cuda_agent_lab.judge import judged_timing
from cuda_agent_lab.tasks import get_task


def local(task, sol, reps=20):
    """The same solution in this process on memory of its own (no IPC): per call, CUDA events back to back, and the
    wall time of a call ended by a synchronize (what the runner does); where the bound's gap comes from"""
    import torch
    from cuda_agent_lab.sandbox import import_candidate, load_task_module
    from cuda_agent_lab.verify import draw_inputs
    mod = load_task_module(task.source_for('cuda'))
    model = import_candidate(Path(sol)/'model_new.py').ModelNew(*mod.get_init_inputs()).cuda().eval()
    xs = [x.cuda() for x in draw_inputs(mod.get_inputs, 1, 'cpu')]
    with torch.no_grad():
        for _ in range(3): model(*xs)
        torch.cuda.synchronize()
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
        for a, b in ev: a.record(); model(*xs); b.record()
        torch.cuda.synchronize()
        events = statistics.median(a.elapsed_time(b) for a, b in ev)
        walls = []
        for _ in range(reps):
            t0 = time.perf_counter(); model(*xs); torch.cuda.synchronize(); walls.append((time.perf_counter() - t0) * 1e3)
    return dict(local_events_ms=events, local_wall_ms=statistics.median(walls))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tasks', default='diag_matmul,softmax,gelu,layer_norm,batched_matmul,conv_relu,gemm_bias_gelu')
    ap.add_argument('--batches', type=int, default=6)
    ap.add_argument('--sandbox', action='store_true')
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    rows = []
    for task in a.tasks.split(','):
        sol = get_task(task).solutions['cuda']
        t0 = time.time()
        try: r = judged_timing(task, sol, device='cuda', batches=a.batches, timeout=300)
        except Exception as e: r = dict(correct=False, error=f'{type(e).__name__}: {e}')
        row = dict(task=task, judged_s=round(time.time() - t0, 2), correct=r.get('correct'), violations=r.get('violations'),
                   error=(r.get('error') or '')[:300], floor_ms=r.get('floor_ms'), floor_median_ms=r.get('floor_median_ms'),
                   inner_ms=r.get('inner_ms'), calls_per_batch=r.get('calls_per_batch'), transfer_ms=r.get('transfer_ms'),
                   batches=r.get('batches'))
        try: row.update(local(get_task(task), sol))
        except Exception as e: row['local_error'] = f'{type(e).__name__}: {e}'[:300]
        if a.sandbox:
            from cuda_agent_lab.sandbox import evaluate
            v = evaluate(task, sol, 'cuda', timeout=300)
            row.update(sandbox_ms=v['t_candidate_ms'], sandbox_reward=v['reward'])
        rows.append(row); print(json.dumps({k: row[k] for k in row if k != 'batches'}), flush=True)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(rows, indent=1))
    f = lambda x: '-' if x is None else f'{x:.4g}'
    print('| task | correct | floor ms (least) | floor ms (median) | runner ms | least floor / runner | sandbox ms | least floor / sandbox | calls a batch | local events ms | local wall ms |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        q = lambda x, y: '-' if not x or not y else f'{x / y:.3f}'
        print(f"| {r['task']} | {r['correct']} | {f(r['floor_ms'])} | {f(r['floor_median_ms'])} | {f(r['inner_ms'])} | "
              f"{q(r['floor_ms'], r['inner_ms'])} | {f(r.get('sandbox_ms'))} | {q(r['floor_ms'], r.get('sandbox_ms'))} | {r['calls_per_batch']} | "
              f"{f(r.get('local_events_ms'))} | {f(r.get('local_wall_ms'))} |")


if __name__ == '__main__':
    main()
