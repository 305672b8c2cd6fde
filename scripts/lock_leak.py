"""What runs beside a CPU timing (issue 36): run a command (by default a cold `cal demo`) and sample /proc every 20 ms;
while one process holds the CPU timing lock exclusive (two samples in a row), add up the CPU time every other process
used, by command line.

    python scripts/lock_leak.py --out reports/bench/lock-leak.json [-- cal demo --out /tmp/demo --workers 2]

Prints the seconds the lock was held exclusive and the CPU seconds beside it per command; `--stacks` also takes a
py-spy dump (pip install py-spy) of each sandbox process caught using 20 ms or more beside a timing, to see what it ran.
The sampler itself takes a little CPU, so the command runs slower than alone.
"""
import argparse, collections, json, os, subprocess, sys, tempfile, threading, time
from pathlib import Path

TICK = os.sysconf('SC_CLK_TCK')

def cpu_s(pid:int) -> float|None:
    try: s = Path(f'/proc/{pid}/stat').read_text()
    except OSError: return None
    f = s[s.rfind(')') + 2:].split()
    return (int(f[11]) + int(f[12])) / TICK

def cmdline(pid:int) -> str:
    try: return Path(f'/proc/{pid}/cmdline').read_bytes().replace(b'\0', b' ').decode(errors='replace').strip()[:100]
    except OSError: return '?'

def exclusive_holders(lock:Path) -> set:
    "Pids holding an exclusive flock on `lock` (from /proc/locks)"
    try: ino = lock.stat().st_ino
    except OSError: return set()
    out = set()
    for line in Path('/proc/locks').read_text().splitlines():
        p = line.split()
        if len(p) > 5 and p[1] == 'FLOCK' and p[3] == 'WRITE' and p[5].endswith(f':{ino}'): out.add(int(p[4]))
    return out

def sample(lock:Path, stop:threading.Event, stacks:bool) -> dict:
    me, prev, prev_h, t_prev = os.getpid(), {}, set(), time.time()
    beside, held_s, dumps = collections.Counter(), 0.0, []
    while not stop.is_set():
        t0, h = time.time(), exclusive_holders(lock)
        cur = {int(d): c for d in os.listdir('/proc') if d.isdigit() and (c := cpu_s(int(d))) is not None}
        if h and h == prev_h:   # held by the same process at both ends of the interval
            held_s += t0 - t_prev
            for pid, c in cur.items():
                if pid in h or pid == me or (d := c - prev.get(pid, c)) <= 0: continue
                beside[cmdline(pid)] += d
                if stacks and d >= 0.02 and 'cuda_agent_lab.sandbox' in cmdline(pid) and len(dumps) < 50:
                    r = subprocess.run(['py-spy', 'dump', '--pid', str(pid)], capture_output=True, text=True, timeout=10)
                    dumps.append(dict(pid=pid, cpu_s=d, stack=r.stdout[-3000:]))
        prev, prev_h, t_prev = cur, h, t0
        time.sleep(max(0.0, 0.02 - (time.time() - t0)))
    return dict(held_exclusive_s=round(held_s, 2), beside_s=round(sum(beside.values()), 2),
                by_command=[[k, round(v, 2)] for k, v in beside.most_common(20)], stacks=dumps)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True); ap.add_argument('--lock', default=None); ap.add_argument('--stacks', action='store_true')
    ap.add_argument('cmd', nargs='*')
    a = ap.parse_args()
    from cuda_agent_lab.profile import lock_path
    lock = Path(a.lock) if a.lock else lock_path('cpu')
    cmd = a.cmd or [str(Path(sys.executable).with_name('cal')), 'demo', '--out', tempfile.mkdtemp(prefix='cal-demo-'), '--workers', '2']
    env = dict(os.environ, CAL_CACHE_DIR=os.environ.get('CAL_CACHE_DIR') or str(Path(tempfile.mkdtemp(prefix='cal-cache-'))/'jit'))
    stop, res = threading.Event(), {}
    th = threading.Thread(target=lambda: res.update(sample(lock, stop, a.stacks))); th.start()
    t0 = time.time(); rc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL).returncode; wall = time.time() - t0
    stop.set(); th.join()
    res = dict(cmd=cmd, rc=rc, wall_s=round(wall, 1), **res)
    Path(a.out).write_text(json.dumps(res, indent=1))
    print(f"{' '.join(cmd)}: exit {rc}, {wall:.1f} s; lock held exclusive {res['held_exclusive_s']} s, "
          f"other processes' CPU meanwhile {res['beside_s']} s")
    for k, v in res['by_command'][:8]: print(f'  {v:7.2f} s  {k}')

if __name__ == '__main__': main()
