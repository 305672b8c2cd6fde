"""Final evaluations of many episodes at once: `env.finish_all` on one evaluation pool against `finish()` one by one.

Makes N episodes with `KernelEnv` (driven by hand: each reads model_new.py, then writes its task's reference solution,
then stops), ends them one after another with `finish()` (a sandbox process each, nothing overlapping), makes them again
and ends them together with `finish_all` (a local pool with a lane per episode). Prints when each final evaluation ran
and the wall time of both ways, and writes --out as JSON and markdown. The evaluations are the full trusted ones
(torch.compile baseline included) unless --no-compile.

    python scripts/finish_all_overlap.py --tasks gelu,softmax,l2_norm,diag_matmul --out reports/cpu-2026-12-05/finish-all
"""
import argparse, json, platform, time, os
from pathlib import Path
from cuda_agent_lab.env import KernelEnv, finish_all
from cuda_agent_lab.policy import reference_solution
from cuda_agent_lab.profile import device_name
from cuda_agent_lab.records import write_atomic


def tool(name, i=0, **args):
    return {'id': f'c{i}-{name}', 'type': 'function', 'function': {'name': name, 'arguments': json.dumps(args)}}


def episodes(tasks, device, eval_kw, tag):
    "One env per task, each with the reference solution written into its workspace, not yet finished"
    envs = []
    for k, t in enumerate(tasks):
        sol = reference_solution(t, device)
        e = KernelEnv(t, device, policy=tag, k=k, **eval_kw); e.reset()
        e.step({'role': 'assistant', 'content': None, 'tool_calls': [tool('Read', file_path='model_new.py')]})
        writes = [tool('Write', i, file_path=f'kernels/{n}', content=s) for i, (n, s) in enumerate(sol.kernels.items())]
        e.step({'role': 'assistant', 'content': None, 'tool_calls': writes + [tool('Write', 9, file_path='model_new.py', content=sol.model_new)]})
        envs.append(e)
    return envs


def rows(envs, t0):
    return [dict(id=e.record['id'], reward=e.reward, correct=e.record['evaluation']['correct'],
                 started_s=round(e.record['final_eval']['started'] - t0, 2), ended_s=round(e.record['final_eval']['ended'] - t0, 2),
                 eval_s=e.record['final_eval']['seconds']) for e in envs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--tasks', default='gelu,softmax,l2_norm,diag_matmul')
    ap.add_argument('--device', default='cpu')
    ap.add_argument('--no-compile', action='store_true', help='skip the torch.compile baseline')
    ap.add_argument('--out', default=None, help='write OUT.json and OUT.md')
    a = ap.parse_args()
    tasks, kw = a.tasks.split(','), (dict(compile=False) if a.no_compile else {})
    for t in tasks: KernelEnv(t, a.device, **kw).close()   # fail early on a name

    envs = episodes(tasks, a.device, kw, 'warm')     # a first round fills the compile and baseline caches for both ways
    list(finish_all(envs))
    envs = episodes(tasks, a.device, kw, 'one-by-one')
    t0 = time.time()
    for e in envs: e.finish()
    seq = dict(wall_s=round(time.time() - t0, 2), evaluations=rows(envs, t0))
    envs = episodes(tasks, a.device, kw, 'finish-all')
    t0 = time.time()
    done = [e.record['id'] for e, _ in finish_all(envs)]
    par = dict(wall_s=round(time.time() - t0, 2), evaluations=rows(envs, t0), completion_order=done)
    ev = par['evaluations']
    par['all_overlap'] = max(r['started_s'] for r in ev) < min(r['ended_s'] for r in ev)
    res = dict(tasks=tasks, device=a.device, device_name=device_name(a.device), cpus=os.cpu_count(), compile=not a.no_compile,
               python=platform.python_version(), one_by_one=seq, finish_all=par,
               command='python ' + ' '.join(__import__('sys').argv))
    lines = [f"# Final evaluations of {len(tasks)} episodes: one by one, and with finish_all", '',
             f"{res['device_name']} ({res['cpus']} CPUs), torch.compile baseline {'on' if res['compile'] else 'off'}; "
             f"command: `{res['command']}`", '',
             f"- one by one (`finish()` each): {seq['wall_s']} s", f"- `finish_all` (one pool, a lane each): {par['wall_s']} s; "
             f"all {len(tasks)} evaluations running at once: {'yes' if par['all_overlap'] else 'no'}", '',
             '| way | episode | reward | started s | ended s | evaluation s |', '|---|---|---|---|---|---|']
    for name, r in (('one by one', seq), ('finish_all', par)):
        lines += [f"| {name} | {x['id']} | {x['reward']} | {x['started_s']} | {x['ended_s']} | {x['eval_s']} |" for x in r['evaluations']]
    md = '\n'.join(lines) + '\n'
    print(md)
    if a.out:
        write_atomic(f'{a.out}.json', json.dumps(res, indent=1)); write_atomic(f'{a.out}.md', md)


if __name__ == '__main__':
    main()
