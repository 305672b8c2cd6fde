"""What a worker forked from a process that has already imported torch and the harness would save (issue 36: a pool
worker's warm-up is ~7 CPU-seconds on an H100 machine, torch's import 2.6 s wall of it, and bounds the pool's rate).

Not the sandbox's path: a measurement for deciding whether to build a fork server. Two ways to make a ready worker,
each doing `sandbox.prewarm(device)` (thread pools, on a GPU the CUDA context, NVRTC, the timer's gate, CuPy, the
checks' first use, CUPTI's start):
  fresh: a new interpreter (what `sandbox.spawn_worker` starts), timed from launch to ready;
  fork:  a server that imported torch and the harness (no CUDA: a CUDA context does not survive fork) forks a child
         that runs prewarm, timed from fork to ready.
Wall seconds and CPU seconds (the child's, from wait4) per worker, `--n` one after the other, then `--together` at once.

    python scripts/forkserver_probe.py --device cuda --n 3 --together 8 --out /tmp/forkserver.json
"""
import argparse, json, os, statistics, subprocess, sys, time

CHILD = r'''
import sys, time, os
t0 = float(sys.argv[2])
import torch
from cuda_agent_lab import guard, jit, profile, verify, sandbox   # noqa: F401
sandbox.prewarm(sys.argv[1])
print(round(time.time() - t0, 4))
'''

def fresh(device, k):
    "k fresh interpreters at once: (wall to ready, CPU s) each"
    t0 = time.time()
    procs = [subprocess.Popen([sys.executable, '-c', CHILD, device, repr(t0)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(k)]
    out = []
    for p in procs:
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        so, se = p.stdout.read(), p.stderr.read()
        out.append(dict(wall=float(so.strip().splitlines()[-1]), cpu=round(ru.ru_utime + ru.ru_stime, 3)) if p.returncode == 0 and so.strip()
                   else dict(error=se[-1500:]))
    return out

def forked(device, k):
    "k children of this process (torch and the harness imported, no CUDA) at once: (wall from fork to ready, CPU s) each"
    from cuda_agent_lab import sandbox
    kids, t0 = [], time.time()
    for _ in range(k):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                sandbox.prewarm(device)
                os.write(w, repr(time.time() - t0).encode()); os._exit(0)
            except BaseException as e:
                os.write(w, f'error {type(e).__name__}: {e}'.encode()[:1500]); os._exit(1)
        os.close(w); kids.append((pid, r))
    out = []
    for pid, r in kids:
        _, status, ru = os.wait4(pid, 0)
        msg = os.read(r, 4096).decode(); os.close(r)
        out.append(dict(wall=round(float(msg), 4), cpu=round(ru.ru_utime + ru.ru_stime, 3)) if status == 0 else dict(error=msg))
    return out

def summary(rows):
    ok = [x for x in rows if 'wall' in x]
    med = lambda k: round(statistics.median(x[k] for x in ok), 3) if ok else None
    return dict(n=len(rows), wall_s=med('wall'), cpu_s=med('cpu'), errors=[x['error'] for x in rows if 'error' in x][:2])

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='cpu'); ap.add_argument('--n', type=int, default=3)
    ap.add_argument('--together', type=int, default=4); ap.add_argument('--out')
    a = ap.parse_args()
    res = dict(device=a.device, alone={}, together={})
    def save():   # after each measurement: a probe cut by its timeout keeps what it measured
        if a.out: open(a.out, 'w').write(json.dumps(res, indent=1))
    res['alone']['fresh'] = summary([x for _ in range(a.n) for x in fresh(a.device, 1)]); save()
    res['together']['fresh'] = summary(fresh(a.device, a.together)); save()
    t = time.time()
    import torch   # noqa: F401  the server's imports, once (not counted in the forked figures)
    from cuda_agent_lab import guard, jit, profile, verify, sandbox   # noqa: F401
    res['server_import_s'] = round(time.time() - t, 3)
    res['alone']['fork'] = summary([x for _ in range(a.n) for x in forked(a.device, 1)]); save()
    res['together']['fork'] = summary(forked(a.device, a.together)); save()
    print('| | fresh wall s | fresh CPU s | fork wall s | fork CPU s |\n|---|---|---|---|---|')
    for k in ('alone', 'together'):
        f, g = res[k]['fresh'], res[k]['fork']
        print(f"| {k} ({f['n']}) | {f['wall_s']} | {f['cpu_s']} | {g['wall_s']} | {g['cpu_s']} |")
    for k in ('alone', 'together'):
        for m in ('fresh', 'fork'):
            if res[k][m]['errors']: print(f'{k} {m} errors: {res[k][m]["errors"]}')

if __name__ == '__main__': main()
