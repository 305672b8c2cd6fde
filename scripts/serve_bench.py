"""Scripted-expert episodes through the old feedback path (a process per bin/ command, a fresh sandbox each) and served
(bin/ commands answered by the harness on a shared evaluation pool), side by side in one run (issue 35):

    python scripts/serve_bench.py --task diag_matmul --device cpu --at-once 1,4 --episodes 4 --out reports/bench/serve-cpu.json

Per episode: its wall time and the seconds its bin/ commands took (from the Bash calls that ran them); per setting:
episodes per hour. Prints a markdown table; the JSON keeps every episode.
"""
import argparse, json, os, re, statistics, threading, time
from concurrent.futures import ThreadPoolExecutor

_BIN = re.compile(r'(?<![\w.-])(?:bin/)?(compile|verify|profile)\b')   # bin/ is on the agent's PATH

def feedback_seconds(ep:dict) -> dict:
    "Seconds of the episode's Bash calls that ran a bin/ command, by command"
    args = {c.get('id'): json.dumps((c.get('function') or {}).get('arguments'))
            for m in ep['messages'] if m.get('role') == 'assistant' for c in m.get('tool_calls') or []}
    out = {}
    for s in ep['steps']:
        for c in s.get('calls', []):
            if c.get('name') != 'Bash': continue
            found = _BIN.findall(str(json.loads(args.get(c.get('id'), 'null')) or ''))
            for k in found: out[k] = round(out.get(k, 0.0) + (c.get('seconds') or 0.0) / len(found), 3)   # `compile && verify`: split
    return out

def run(task, device, at_once, n, served, lanes=1, prespawn=True, partial=None) -> dict:
    from cuda_agent_lab.pool import EvalPool
    from cuda_agent_lab.rollout import rollout
    pool = (EvalPool(device, workers=at_once, prespawn=prespawn) if device == 'cpu' else EvalPool(device, lanes_per_gpu=lanes, prespawn=prespawn)) if served else None
    done, lock = [], threading.Lock()
    def one(k):
        t0 = time.time()
        ep = rollout(task, 'scripted', device=device, k=k, pool=pool, served=served)
        r = dict(wall_s=round(time.time() - t0, 2), reward=ep['reward'], feedback=feedback_seconds(ep))
        with lock:
            done.append(r)
            if partial: partial(dict(served=served, at_once=at_once, episodes_done=done))   # what a killed run leaves
        return r
    try:
        t0 = time.time()
        with ThreadPoolExecutor(at_once) as ex: eps = list(ex.map(one, range(n)))
        wall = time.time() - t0
    finally:
        if pool is not None: pool.close()
    return dict(task=task, device=device, served=served, at_once=at_once, lanes=lanes if served and device != 'cpu' else None,
                prespawn=prespawn if served else None, episodes=eps, wall_s=round(wall, 1),
                per_hour=round(3600 * n / wall, 1))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--task', default='diag_matmul'); ap.add_argument('--device', default='cpu')
    ap.add_argument('--at-once', default='1,4'); ap.add_argument('--episodes', type=int, default=4)
    ap.add_argument('--old-episodes', type=int, default=None, help='episodes of the old path per setting (default: --episodes)')
    ap.add_argument('--lanes', default='1', help='served on cuda, more than one at once: the pool\'s lanes per GPU, a setting each (e.g. 1,2)')
    ap.add_argument('--old-at', default=None, help='the at-once settings that also run the old path (default: all)')
    ap.add_argument('--prespawn', type=int, default=1, help='served: workers started ahead per lane (the pool\'s prespawn)')
    ap.add_argument('--out', help='the JSON written after every setting')
    ap.add_argument('--table', help='print the table of this JSON (a run so far) and stop')
    a = ap.parse_args()
    if a.table: return table(json.load(open(a.table)))
    if not a.out: ap.error('--out is required')
    rows, old_n = [], a.episodes if a.old_episodes is None else a.old_episodes
    def partial(setting): dump(rows + [setting], a.out + '.partial')
    for c in map(int, a.at_once.split(',')):   # served first: on a device a failure shows within the first minute
        for lanes in map(int, a.lanes.split(',')) if a.device != 'cpu' and c > 1 else [1]:
            rows.append(run(a.task, a.device, c, max(a.episodes, c), True, lanes, a.prespawn, partial)); dump(rows, a.out)
        if a.old_at is not None and c not in map(int, a.old_at.split(',')): continue
        rows.append(run(a.task, a.device, c, max(old_n, c), False, partial=partial)); dump(rows, a.out)
    table(rows)

def dump(obj, path):
    with open(path + '.tmp', 'w') as f: json.dump(obj, f, indent=1)
    os.replace(path + '.tmp', path)

def table(rows):
    print('| path | at once | episodes | episode wall s (median) | bin/ seconds by command (median episode) | episodes per hour | rewards |')
    print('|---|---|---|---|---|---|---|')
    for r in rows:
        if 'episodes' not in r:   # a setting cut off (.partial): its finished episodes
            print(f"| {'served' if r['served'] else 'old'}, cut off | {r['at_once']} | {len(r['episodes_done'])} done | "
                  f"{', '.join(str(e['wall_s']) for e in r['episodes_done'])} | | | |"); continue
        eps = r['episodes']; med = statistics.median(e['wall_s'] for e in eps)
        cmds = {k: statistics.median(e['feedback'].get(k, 0.0) for e in eps) for k in ('compile', 'verify', 'profile')}
        path = ('served, pool' + (f", {r['lanes']} lane{'s' * (r['lanes'] > 1)}" if r.get('lanes') else '')
                + (f", {r['prespawn']} started ahead" if (r.get('prespawn') or 1) > 1 else '')) if r['served'] else 'old'
        print(f"| {path} | {r['at_once']} | {len(eps)} | {med:.1f} | "
              f"{', '.join(f'{k} {v:.1f}' for k, v in cmds.items())} | {r['per_hour']} | {sorted({e['reward'] for e in eps})} |")

if __name__ == '__main__': main()
