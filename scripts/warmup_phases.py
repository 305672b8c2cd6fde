"""Where a pool worker's warm-up goes (issue 36: on an H100 a worker took 8.5-11.6 s to become ready, and the pool's
level-1 throughput was bound by warm-ups, not by the GPU).

Starts fresh Python processes that do what `sandbox.prewarm` does, step by step, each step's wall and CPU seconds
(this process's and its children's: the C compiler) recorded: the interpreter's start, importing torch, importing the
harness, the thread pools, the CUDA context and first kernel, NVRTC, the timer's gate, CuPy, the checks' first use
(`sandbox._warm_checks`), CUPTI's start: the steps of `sandbox.warm_pools`, in its order. First
`--alone` processes one after the other, then `--together` at once (what a pool that keeps many workers warming sees
on a machine of few cores).

    python scripts/warmup_phases.py --device cuda --alone 3 --together 8,16 --out /tmp/warmup.json
"""
import argparse, json, os, statistics, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

CHILD = r'''
import time, resource, json, sys
t_start = float(sys.argv[2])
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
steps = [('interpreter', round(time.time() - t_start, 3), round(cpu(), 3))]
def step(name, fn):
    t0, c0 = time.perf_counter(), cpu(); fn(); steps.append((name, round(time.perf_counter() - t0, 3), round(cpu() - c0, 3)))
dev = sys.argv[1]
step('import torch', lambda: __import__('torch'))
import torch
def harness():
    from cuda_agent_lab import guard, jit, profile, verify, sandbox   # noqa: F401
step('import harness', harness)
from cuda_agent_lab import jit, profile, sandbox
step('open lock, CPU pools', lambda: (profile.open_device_lock(dev), torch.ones(1 << 16).sum(), torch.cuda.is_available()))
def omp():
    x = torch.zeros(1 << 10); jit.c_function(sandbox._OMP_WARM, 'cal_omp_warm')(x, x.numel())
step('OpenMP C kernel', omp)
if dev.startswith('cuda'):
    y = []
    step('CUDA context', lambda: (y.append(torch.zeros(32, device=dev)), torch.cuda.synchronize()))
    step('NVRTC kernel', lambda: (jit.nvrtc_library(), jit.cuda_kernel(sandbox._CU_WARM, 'cal_cu_warm')(1, 32, y[0]), torch.cuda.synchronize()))
    step('timer gate', lambda: profile.device_gate(dev))
    step('CuPy', sandbox._warm_cupy)
    step("the checks' first use", lambda: sandbox._warm_checks(dev))
    step("CUPTI's start", lambda: sandbox._warm_tracer(dev))
else: step("the checks' first use", lambda: sandbox._warm_checks(dev))
print(json.dumps(steps))
'''

def one(device):
    t0 = time.time()
    p = subprocess.run([sys.executable, '-c', CHILD, device, repr(t0)], capture_output=True, text=True, timeout=300)
    if p.returncode: return dict(error=p.stderr[-2000:])
    steps = json.loads(p.stdout.strip().splitlines()[-1])
    return dict(wall_s=round(time.time() - t0, 3), steps={n: dict(wall=w, cpu=c) for n, w, c in steps})

def summarise(runs):
    ok = [r for r in runs if 'steps' in r]
    names = list(ok[0]['steps']) if ok else []
    med = lambda xs: round(statistics.median(xs), 3) if xs else None
    return dict(n=len(runs), errors=[r['error'] for r in runs if 'error' in r][:2], wall_s=med([r['wall_s'] for r in ok]),
                steps={n: dict(wall=med([r['steps'][n]['wall'] for r in ok]), cpu=med([r['steps'][n]['cpu'] for r in ok])) for n in names})

def table(res):
    cols = list(res['settings'])
    names = list(dict.fromkeys(n for s in res['settings'].values() for n in s['steps']))
    lines = ['| step | ' + ' | '.join(f'{c}: wall s / CPU s' for c in cols) + ' |', '|---|' + '---|' * len(cols)]
    for n in names:
        cell = lambda s: f"{s['steps'][n]['wall']} / {s['steps'][n]['cpu']}" if n in s['steps'] else '-'
        lines.append(f'| {n} | ' + ' | '.join(cell(res['settings'][c]) for c in cols) + ' |')
    lines.append('| whole process (wall) | ' + ' | '.join(str(res['settings'][c]['wall_s']) for c in cols) + ' |')
    return '\n'.join(lines)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='cuda'); ap.add_argument('--alone', type=int, default=3)
    ap.add_argument('--together', default='8'); ap.add_argument('--out', default=None)
    a = ap.parse_args()
    res = dict(device=a.device, cores=os.cpu_count(), settings={})
    def save():
        if a.out:
            with open(a.out + '.tmp', 'w') as f: json.dump(res, f, indent=1)
            os.replace(a.out + '.tmp', a.out)
    res['settings']['alone'] = summarise([one(a.device) for _ in range(a.alone)]); save()
    for k in [int(x) for x in a.together.split(',') if x and int(x) > 0]:
        with ThreadPoolExecutor(k) as ex: runs = list(ex.map(lambda _: one(a.device), range(k)))
        res['settings'][f'{k} at once'] = summarise(runs); save()
    print(table(res))
    for s in res['settings'].values():
        for e in s['errors']: print('error:', e)

if __name__ == '__main__': main()
