"""Where the checks' time goes (issue 36: the five checks were the largest phase of a warm GPU evaluation, 0.4-1.0 s).

For each task, the reference solution is loaded in this process as bench.py loads it, and `verify` is run the way the
sandbox runs it (five seeds, inputs drawn ahead on the device, the task's allowances), `--rounds` times: the first
round is cold (first calls, the float64 copy's first use), the later ones warm. Each round's wall time is split
by the steps of `run_check`, each step synchronised, and a cProfile of the last round lists its costliest functions.

    python scripts/verify_phases.py --device cuda --tasks diag_matmul,softmax --out /tmp/verify_phases.json
"""
import argparse, cProfile, io, json, os, pstats, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parents[1]/'bench'))
import torch
from cuda_agent_lab import verify as V
from bench import loaded_pair

def timed(acc, key, device, fn):
    V.sync(device); t0 = time.perf_counter(); r = fn(); V.sync(device)
    acc[key] = acc.get(key, 0.0) + time.perf_counter() - t0
    return r

def one_round(t, task, model, mn, device, n_checks):
    "verify's work, step by step (the same calls as `run_check`), summed over the checks; seconds by step"
    acc, seeds = {}, [1000 + i for i in range(n_checks)]
    sets = timed(acc, 'draw_inputs', device, lambda: [V.draw_inputs(task.get_inputs, s, device, make_on=device) for s in seeds])
    allow = t.allow
    for i, x in enumerate(sets):
        pristine = timed(acc, 'clone_pristine', device, lambda: V.clone_inputs(x))
        out, bad = timed(acc, 'call_guarded', device, lambda: V.call_guarded(mn, x, device, allow, None))
        assert not bad, bad
        timed(acc, 'alias_mutation', device, lambda: (V.aliases_input(out, x), V.mutated_inputs(x, pristine)))
        def ref_():
            with torch.no_grad(): return model(*V.clone_inputs(pristine))
        ref = timed(acc, 'reference', device, ref_)
        timed(acc, 'structure', device, lambda: V.check_structure(out, ref))
        timed(acc, 'values', device, lambda: V.check_values(out, ref, t.atol, t.rtol))
        timed(acc, 'rel_error', device, lambda: V.rel_error(out, V.tree_map(lambda u: u.double(), ref)))
        if i == 0:
            r64 = timed(acc, 'float64_reference', device, lambda: V.float64_reference(model, pristine))
            timed(acc, 'precision_audit', device, lambda: V.precision_audit(out, ref, r64))
    return {k: round(v, 4) for k, v in acc.items()}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='cuda'); ap.add_argument('--tasks', default='diag_matmul')
    ap.add_argument('--rounds', type=int, default=3); ap.add_argument('--checks', type=int, default=5)
    ap.add_argument('--out', default=None)
    a = ap.parse_args()
    res = {'device': torch.cuda.get_device_name() if a.device.startswith('cuda') else 'cpu', 'tasks': {}}
    for name in a.tasks.split(','):
        t, task, model, mn = loaded_pair(name, a.device)
        row = {'rounds': []}
        for r in range(a.rounds):
            t0 = time.perf_counter(); steps = one_round(t, task, model, mn, a.device, a.checks)
            steps['total'] = round(time.perf_counter() - t0, 4); row['rounds'].append(steps)
        # the whole of verify as the sandbox calls it, once cold-free, under cProfile
        seeds = [2000 + i for i in range(a.checks)]
        sets = [V.draw_inputs(task.get_inputs, s, a.device, make_on=a.device) for s in seeds]
        t0 = time.perf_counter()
        v = V.verify(model, mn, task.get_inputs, seeds, a.device, t.atol, t.rtol, t.allow, None, sets)
        row['verify_s'] = round(time.perf_counter() - t0, 4); row['correct'] = v['correct']
        pr = cProfile.Profile(); pr.enable()
        V.verify(model, mn, task.get_inputs, seeds, a.device, t.atol, t.rtol, t.allow, None, sets)
        pr.disable(); s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats('cumulative').print_stats(30)
        row['cprofile'] = s.getvalue()
        res['tasks'][name] = row
        print(f"## {name}: verify {row['verify_s']} s (correct {row['correct']})")
        for i, st in enumerate(row['rounds']): print(f"round {i}: " + ', '.join(f'{k} {v}' for k, v in st.items()))
        print(row['cprofile'][:6000])
        if a.out:
            with open(a.out + '.tmp', 'w') as f: json.dump(res, f, indent=1)
            os.replace(a.out + '.tmp', a.out)

if __name__ == '__main__': main()
