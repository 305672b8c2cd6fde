"""Which threads appear, and when, while a task's baselines are timed with torch.compile on cold caches and a load_inline
candidate is then built in the same process: the diagnosis of the cold-cache `spawned_thread` verdict (issue 18).

    python scripts/thread_probe.py --device cuda --out DIR     # DIR/threads.json: every thread that came or went, with its time
    python scripts/thread_probe.py --device cuda --evaluate    # also: the candidate through `evaluate`, cold then warm
"""
import argparse, json, os, sys, tempfile, threading, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CANDIDATE = {'cuda': ROOT/'tests/fixtures/formats/load_inline_cuda', 'cpu': ROOT/'tests/fixtures/formats/load_inline_cpu'}


def watch(events:list, stop:threading.Event, t0:float, every:float=0.05):
    "Append (seconds, 'new'|'gone', tid, name) to `events` for each thread of this process that comes or goes"
    from cuda_agent_lab.sandbox import thread_names
    me, seen = threading.get_native_id(), {}
    while not stop.is_set():
        now = {t: n for t, n in thread_names().items() if t != me}
        for t in now.keys() - seen.keys(): events.append((round(time.time() - t0, 3), 'new', t, now[t]))
        for t in seen.keys() - now.keys(): events.append((round(time.time() - t0, 3), 'gone', t, seen[t]))
        seen = now; time.sleep(every)


def in_process(device:str) -> dict:
    "Baselines with torch.compile (cold), then a load_inline build, in this process, with every thread change on a clock"
    import torch
    from cuda_agent_lab import profile
    from cuda_agent_lab.sandbox import import_candidate, load_task_module, warm_pools
    from cuda_agent_lab.tasks import get_task
    from cuda_agent_lab.verify import draw_inputs
    events, stop, t0, marks = [], threading.Event(), time.time(), {}
    warm_pools(device)
    w = threading.Thread(target=watch, args=(events, stop, t0), daemon=True); w.start(); time.sleep(0.2)
    mod = load_task_module(get_task('diag_matmul').source_for(device))
    model = mod.Model().to(device).eval()
    sets = [draw_inputs(mod.get_inputs, s, device) for s in (1, 2, 3)]
    marks['baselines'] = round(time.time() - t0, 3)
    b = profile.time_baselines(model, sets, device, key=None, compile=True)
    marks['baselines_done'] = round(time.time() - t0, 3)
    import_candidate(CANDIDATE[device]/'model_new.py')
    marks['import_done'] = round(time.time() - t0, 3)
    time.sleep(75)   # past inductor's 60 s quiesce timer
    marks['end'] = round(time.time() - t0, 3)
    stop.set(); w.join()
    return dict(marks=marks, events=events, t_eager_ms=b['t_eager_ms'], t_compile_ms=b['t_compile_ms'])


def through_evaluate(device:str) -> list:
    "The candidate through `evaluate` in a fresh cache: cold, then warm"
    from cuda_agent_lab.sandbox import evaluate
    out = []
    for run in ('cold', 'warm'):
        r = evaluate('diag_matmul', CANDIDATE[device], device, timeout=900)
        out.append(dict(run=run, reward=r['reward'], violations=r['violations'], error=r['error'], eval_s=r['eval_s'],
                        phase_times=r['details'].get('phase_times')))
        print(out[-1], flush=True)
    return out


if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--device', default='cuda'); p.add_argument('--out', default='.'); p.add_argument('--evaluate', action='store_true')
    a = p.parse_args()
    res = {}
    if a.evaluate:
        os.environ['CAL_CACHE_DIR'] = tempfile.mkdtemp(prefix='cal-cold-')
        res['evaluate'] = through_evaluate(a.device)
    os.environ['CAL_CACHE_DIR'] = tempfile.mkdtemp(prefix='cal-cold-')
    os.environ['TORCHINDUCTOR_CACHE_DIR'] = str(Path(os.environ['CAL_CACHE_DIR'])/'inductor')
    os.environ['TORCH_EXTENSIONS_DIR'] = str(Path(os.environ['CAL_CACHE_DIR'])/'torch_extensions')
    res['in_process'] = in_process(a.device)
    Path(a.out).mkdir(parents=True, exist_ok=True)
    (Path(a.out)/'threads.json').write_text(json.dumps(res, indent=1))
    print(json.dumps(res['in_process'], indent=1))
