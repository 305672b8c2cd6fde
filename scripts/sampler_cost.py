"""What the native sampler (`guard.NativeSampler`, reward integrity part 5, route 8) costs a timed call, in one process.

For each task, the honest solution is called the way the sandbox calls it (`verify.run_candidate`) and timed with
`profile.time_fn` (the CPU's `perf_counter` timer), ROUNDS times with the sampler's window open around each call and
ROUNDS times without, interleaved; per round the median of REPS timed calls. Also the cost of reading and judging the
samples (`collect` per call, `take` per phase), both outside the timed interval. Prints a markdown table, writes JSON.

    python scripts/sampler_cost.py --tasks diag_matmul,softmax,gelu --rounds 7 --reps 200 --out reports/x/sampler-cost.json
"""
import argparse, json, statistics, tempfile, time
import torch
from cuda_agent_lab.guard import NativeSampler, SAMPLE_PERIOD_S
from cuda_agent_lab.profile import time_fn
from cuda_agent_lab.sandbox import import_candidate, load_task_module
from cuda_agent_lab.tasks import get_task
from cuda_agent_lab.verify import draw_inputs, run_candidate

def measure(task:str, sampler:NativeSampler, rounds:int, reps:int) -> dict:
    t = get_task(task)
    mod = load_task_module(t.source_for('cpu'))
    mn = import_candidate(t.solutions['cpu']/'model_new.py').ModelNew(*mod.get_init_inputs())
    sets = [draw_inputs(mod.get_inputs, s, 'cpu') for s in (1, 2, 3)]
    def plain(*x): return run_candidate(mn, x, t.allow)
    def sampled(*x):
        sampler.start()
        try: return run_candidate(mn, x, t.allow)
        finally: sampler.stop()
    collect_s = []
    def prepare(i):
        t0 = time.perf_counter(); sampler.collect(); collect_s.append(time.perf_counter() - t0)
    on, off = [], []
    for _ in range(rounds):
        off.append(time_fn(plain, sets, 'cpu', reps=reps, warmup=5).median_ms)
        on.append(time_fn(sampled, sets, 'cpu', reps=reps, warmup=5, prepare=prepare).median_ms)
    t0 = time.perf_counter(); rep, found = sampler.take(task); take_s = time.perf_counter() - t0
    m_on, m_off = statistics.median(on), statistics.median(off)
    return dict(task=task, rounds=rounds, reps=reps, median_off_ms=m_off, median_on_ms=m_on, overhead=m_on / m_off - 1,
                rounds_off_ms=off, rounds_on_ms=on, collect_us=statistics.median(collect_s) * 1e6, take_ms=take_s * 1e3,
                samples=rep['samples'], due=rep['due'], findings=[v.code for v in found], top=rep['top'])

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tasks', default='diag_matmul,softmax,gelu'); ap.add_argument('--rounds', type=int, default=7)
    ap.add_argument('--reps', type=int, default=200); ap.add_argument('--out', default=None)
    a = ap.parse_args()
    torch.set_num_threads(torch.get_num_threads())
    s = NativeSampler(tempfile.mkdtemp(prefix='cal-sampler-cost-'))
    rows = [measure(t, s, a.rounds, a.reps) for t in a.tasks.split(',')]
    print(f'sampler period {SAMPLE_PERIOD_S * 1e6:.0f} us; medians over {a.rounds} interleaved rounds of {a.reps} timed calls\n')
    print('| task | timed call, no sampler (ms) | with the sampler (ms) | overhead | collect per call (us) | take per phase (ms) | samples (due) | findings |')
    print('|---|---|---|---|---|---|---|---|')
    for r in rows:
        print(f"| {r['task']} | {r['median_off_ms']:.4g} | {r['median_on_ms']:.4g} | {r['overhead']:+.1%} | {r['collect_us']:.1f} | "
              f"{r['take_ms']:.1f} | {r['samples']} ({r['due']}) | {', '.join(r['findings']) or 'none'} |")
    if a.out: open(a.out, 'w').write(json.dumps(dict(period_s=SAMPLE_PERIOD_S, rows=rows), indent=1))

if __name__ == '__main__': main()
