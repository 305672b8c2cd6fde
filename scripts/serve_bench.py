"""Scripted-expert episodes through the old feedback path (a process per bin/ command, a fresh sandbox each) and served
(bin/ commands answered by the harness on a shared evaluation pool), side by side in one run (issue 35):

    python scripts/serve_bench.py --task diag_matmul --device cpu --at-once 1,4 --episodes 4 --out reports/bench/serve-cpu.json

Per episode: its wall time and the seconds its bin/ commands took (from the Bash calls that ran them); per setting:
episodes per hour. Prints a markdown table; the JSON keeps every episode.
"""
import argparse, json, re, statistics, time
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

def run(task, device, at_once, n, served) -> dict:
    from cuda_agent_lab.pool import EvalPool
    from cuda_agent_lab.rollout import rollout
    pool = EvalPool(device, workers=at_once if device == 'cpu' else None) if served else None
    def one(k):
        t0 = time.time()
        ep = rollout(task, 'scripted', device=device, k=k, pool=pool, served=served)
        return dict(wall_s=round(time.time() - t0, 2), reward=ep['reward'], feedback=feedback_seconds(ep))
    try:
        t0 = time.time()
        with ThreadPoolExecutor(at_once) as ex: eps = list(ex.map(one, range(n)))
        wall = time.time() - t0
    finally:
        if pool is not None: pool.close()
    return dict(task=task, device=device, served=served, at_once=at_once, episodes=eps, wall_s=round(wall, 1),
                per_hour=round(3600 * n / wall, 1))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--task', default='diag_matmul'); ap.add_argument('--device', default='cpu')
    ap.add_argument('--at-once', default='1,4'); ap.add_argument('--episodes', type=int, default=4)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    rows = []
    for c in map(int, a.at_once.split(',')):
        for served in (False, True):
            rows.append(run(a.task, a.device, c, max(a.episodes, c), served))
            json.dump(rows, open(a.out, 'w'), indent=1)
    print('| path | at once | episodes | episode wall s (median) | bin/ seconds by command (median episode) | episodes per hour | rewards |')
    print('|---|---|---|---|---|---|---|')
    for r in rows:
        eps = r['episodes']; med = statistics.median(e['wall_s'] for e in eps)
        cmds = {k: statistics.median(e['feedback'].get(k, 0.0) for e in eps) for k in ('compile', 'verify', 'profile')}
        print(f"| {'served, pool' if r['served'] else 'old'} | {r['at_once']} | {len(eps)} | {med:.1f} | "
              f"{', '.join(f'{k} {v:.1f}' for k, v in cmds.items())} | {r['per_hour']} | {sorted({e['reward'] for e in eps})} |")

if __name__ == '__main__': main()
