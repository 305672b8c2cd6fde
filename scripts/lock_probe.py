"""Issue 36 on a GPU, the two things to show before the GPU's timing defaults change:

  precision: the suite's CUDA solutions evaluated in never-used pool workers with today's fixed budget and with the
             precision stop (`profile_opts` precision 0.01, at most `--max-time` s of the timed loop), `--n` each, side by
             side; per task the medians, the CV across processes, the profile phase's seconds, the timed calls, the
             rewards, and triton's do_bench in this process. Fidelity: CV under 2% over 100 us, within 3% of do_bench.
  overlap:   the diag_matmul solution timed alone, then while `--busy` threads keep other evaluations compiling and
             checking (profile=False: their checks hold the device lock shared, so only compiles, imports and the CPU
             side can overlap a timing); the two sets of medians side by side.

    python scripts/lock_probe.py precision --out /tmp/precision.json [--tasks a,b] [--n 3] [--max-time 0.5]
    python scripts/lock_probe.py overlap --out /tmp/overlap.json [--n 8] [--busy 3]

Each writes its JSON after every task (atomically) and prints a markdown table at the end (`--table FILE` again).
"""
import argparse, json, os, statistics, sys, threading, time

def dump(obj, path):
    with open(path + '.tmp', 'w') as f: json.dump(obj, f, indent=1)
    os.replace(path + '.tmp', path)

def cv(xs): return statistics.pstdev(xs) / statistics.mean(xs) if len(xs) > 1 else 0.0

def summary(rs):
    t = [r['t_candidate_ms'] for r in rs if r.get('t_candidate_ms')]
    ph = [((r.get('details') or {}).get('phase_times') or {}) for r in rs]
    prof = [p['done'] - p['profile'] for p in ph if 'done' in p and 'profile' in p]
    ct = [((r.get('details') or {}).get('candidate_timing') or {}) for r in rs]
    return dict(t_ms=t, median_ms=statistics.median(t) if t else None, cv=cv(t), rewards=[r['reward'] for r in rs],
                profile_s=round(statistics.median(prof), 3) if prof else None, calls=[c.get('n') for c in ct],
                within_cv=[c.get('cv') for c in ct])

def do_bench_ms(name, device):
    "Triton's do_bench of the solution in this process (bench.py's `loaded`: the reference's weights, one input set)"
    import sys, torch, triton.testing
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parents[1]/'bench'))
    from bench import loaded
    _, mn, x = loaded(name, device)
    with torch.no_grad(): return float(triton.testing.do_bench(lambda: mn(*x), warmup=100, rep=500, return_mode='median'))

def precision(a):
    from cuda_agent_lab.pool import EvalPool
    from cuda_agent_lab.sandbox import evaluate
    from cuda_agent_lab.tasks import get_task, load_suite
    kind = 'cuda' if a.device.startswith('cuda') else 'cpu'
    names = a.tasks.split(',') if a.tasks else [t.name for t in load_suite() if kind in t.solutions]
    settings = {'fixed': {}, 'precision': dict(precision=0.01, max_time_s=a.max_time)}
    rows = []
    with EvalPool(a.device) as pool:
        for name in names:
            t = get_task(name); sol = t.solutions[kind]
            evaluate(t, sol, a.device)   # baselines into the cache
            row = dict(task=name)
            for k, opts in settings.items():
                rs = list(pool.map([dict(task=name, candidate=str(sol), device=a.device, key=f'{name}-{k}-{i}',
                                         kwargs=dict(profile_opts=opts)) for i in range(a.n)]))
                row[k] = summary(rs)
            try: row['do_bench_ms'] = do_bench_ms(name, a.device) if kind == 'cuda' else None
            except Exception as e: row['do_bench_error'] = f'{type(e).__name__}: {e}'
            rows.append(row); dump(rows, a.out)
    return rows

def overlap(a):
    from cuda_agent_lab.sandbox import evaluate
    from cuda_agent_lab.tasks import get_task
    kind = 'cuda' if a.device.startswith('cuda') else 'cpu'
    name, others = 'diag_matmul', ['gelu', 'softmax', 'transpose_copy', 'matmul_div_sum_scale']
    sol = get_task(name).solutions[kind]
    evaluate(get_task(name), sol, a.device)
    opts = json.loads(a.opts) if a.opts else None
    row = dict(task=name, profile_opts=opts)
    def timed(key):   # each result written as it comes: a stage cut by its timeout keeps what it measured
        rs = []
        for _ in range(a.n):
            rs.append(evaluate(get_task(name), sol, a.device, profile_opts=opts)); row[key] = summary(rs)
            if key == 'beside': row.update(busy_evaluations=len(busy_done), busy_correct=sum(bool(x) for x in busy_done))
            dump([row], a.out); print(f'{time.strftime("%H:%M:%S")} {key} {len(rs)}: {rs[-1].get("t_candidate_ms")} ms', file=sys.stderr, flush=True)
        return rs
    busy_done = []
    timed('alone')
    stop = threading.Event()
    def busy(k):
        while not stop.is_set():
            o = others[(k + len(busy_done)) % len(others)]
            r = evaluate(get_task(o), get_task(o).solutions[kind], a.device, profile=False, compile=False)
            busy_done.append(r.get('correct'))
    ths = [threading.Thread(target=busy, args=(k,), daemon=True) for k in range(a.busy)]
    for th in ths: th.start()
    time.sleep(5)   # the busy evaluations under way
    try: timed('beside')
    finally: stop.set()
    for th in ths: th.join(timeout=120)
    row.update(busy_evaluations=len(busy_done), busy_correct=sum(bool(x) for x in busy_done)); dump([row], a.out)
    return [row]

def table(rows):
    if rows and 'alone' in rows[0]:
        r = rows[0]
        print('| timed | median ms | CV across processes | profile s | rewards |\n|---|---|---|---|---|')
        for k in [k for k in ('alone', 'beside') if k in r]:
            s = r[k]; print(f"| {k} | {s['median_ms']:.4g} | {s['cv']:.2%} | {s['profile_s']} | {s['rewards']} |")
        if 'beside' not in r: print('\n(cut before the timings beside other evaluations)'); return
        print(f"\n{r['busy_evaluations']} other evaluations (compile + checks) ran beside, {r['busy_correct']} correct; "
              f"beside/alone {r['beside']['median_ms'] / r['alone']['median_ms']:.4f}")
        return
    print('| task | fixed ms (CV) | precision ms (CV) | precision/fixed | do_bench ms | precision/do_bench | profile s fixed -> precision | calls fixed -> precision | rewards fixed / precision |')
    print('|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        f, p, db = r['fixed'], r['precision'], r.get('do_bench_ms')
        if not (f['median_ms'] and p['median_ms']): print(f"| {r['task']} | no timing | | | | | | | {f['rewards']} / {p['rewards']} |"); continue
        med = lambda c: statistics.median(x for x in c if x) if any(c) else '-'
        dbs, ratio = (f'{db:.4g}', f"{p['median_ms'] / db:.3f}") if db else ('-', '-')
        print(f"| {r['task']} | {f['median_ms']:.4g} ({f['cv']:.1%}) | {p['median_ms']:.4g} ({p['cv']:.1%}) | "
              f"{p['median_ms'] / f['median_ms']:.3f} | {dbs} | {ratio} | {f['profile_s']} -> {p['profile_s']} | "
              f"{med(f['calls'])} -> {med(p['calls'])} | {f['rewards']} / {p['rewards']} |")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('what', choices=['precision', 'overlap', 'table'])
    ap.add_argument('--out'); ap.add_argument('--tasks'); ap.add_argument('--n', type=int, default=3)
    ap.add_argument('--max-time', type=float, default=0.5); ap.add_argument('--busy', type=int, default=3)
    ap.add_argument('--opts', help='overlap: the timed evaluations\' profile_opts as JSON (e.g. \'{"precision": 0.01, "max_time_s": 0.5}\')')
    ap.add_argument('--device', default='cuda', help='cuda, or cpu to try the script (no do_bench there)')
    a = ap.parse_args()
    if a.what == 'table': return table(json.load(open(a.out)))
    table(precision(a) if a.what == 'precision' else overlap(a))

if __name__ == '__main__': main()
