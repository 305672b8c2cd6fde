"""Where a timed call's host time goes on a GPU: the suite solution of a task called bare, through the guard
(`verify.run_candidate`), under torch's profiler with CPU and CUDA activity (the device trace of the timed calls), with
the native sampler on, through a timer like the timed calls' (flush, gate, events), and all that again with the
sandbox's audit hook installed (last: it cannot be removed); and the harness's null call the same ways. Medians of host
microseconds per call (through the timer: the timer's own host figure, start-event launch to end-event launch).

    python scripts/host_probe.py --task diag_matmul [--calls 200] [--out host-probe.json]"""
import argparse, json, sys, tempfile, time
from pathlib import Path
import numpy as np, torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cuda_agent_lab.sandbox import import_candidate, load_task_module, _nothing_model
from cuda_agent_lab.verify import run_candidate, draw_inputs
from cuda_agent_lab.guard import NativeSampler
from cuda_agent_lab.profile import make_timer


def host_us(fn, inputs, n, sampler=None) -> float:
    ts = []
    for _ in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        if sampler: sampler.start()
        fn(*inputs)
        if sampler: sampler.stop()
        ts.append(time.perf_counter() - t0)
    return round(float(np.median(ts)) * 1e6, 2)


def timer_us(fn, inputs, n, sampler=None) -> float:
    t = make_timer('cuda')
    def call(*x):
        if sampler: sampler.start()
        fn(*x)
        if sampler: sampler.stop()
    for _ in range(n): t(call, inputs)
    return round(float(np.median(t.host)) * 1e6, 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--task', default='diag_matmul'); ap.add_argument('--calls', type=int, default=200)
    ap.add_argument('--out', default=None); a = ap.parse_args()
    root = Path(__file__).resolve().parents[1]
    folder = next(root.glob(f'kernels/level*/{a.task}/cuda'))
    mod = load_task_module((folder.parent/'model.py').read_text())
    inputs = draw_inputs(mod.get_inputs, 1, 'cuda')
    mn = import_candidate(folder/'model_new.py').ModelNew().cuda()
    guarded = lambda m: (lambda *x: run_candidate(m, x, (), [], None))
    rows = {}
    from torch.profiler import profile, ProfilerActivity
    def rounds(tag=''):
        for name, m in (('candidate', mn), ('null', _nothing_model)):
            host_us(guarded(m), inputs, 20)   # warm
            rows[f'{name} bare{tag}'] = host_us(m, inputs, a.calls)
            rows[f'{name} guarded{tag}'] = host_us(guarded(m), inputs, a.calls)
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
                rows[f'{name} bare, traced{tag}'] = host_us(m, inputs, a.calls)
                rows[f'{name} guarded, traced{tag}'] = host_us(guarded(m), inputs, a.calls)
            s = sampler[0]
            rows[f'{name} guarded, sampled{tag}'] = host_us(guarded(m), inputs, a.calls, s); s.take()
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
                rows[f'{name} guarded, traced, sampled{tag}'] = host_us(guarded(m), inputs, a.calls, s)
                rows[f'{name} guarded, traced, sampled, timer{tag}'] = timer_us(guarded(m), inputs, a.calls, s)
            s.take()
    tmp = tempfile.mkdtemp(); sampler = [NativeSampler(tmp)]
    rounds()
    from cuda_agent_lab.sandbox import install_audit, writable_roots, secret_paths
    out = open(a.out, 'w') if a.out else None   # opened before the hook, which allows no writes outside its folders
    install_audit([], writable_roots(Path(tmp)), secret_paths(), code_root=str(folder.resolve()))
    rounds(', audit hook')
    print('| call | host us (median) |\n|---|---|')
    for k, v in rows.items(): print(f'| {k} | {v} |')
    if out: out.write(json.dumps(dict(task=a.task, calls=a.calls, device=torch.cuda.get_device_name(), host_us=rows), indent=1)); out.close()


if __name__ == '__main__':
    main()
