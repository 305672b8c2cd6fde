"""Second probe for issue 31 on a GPU: the full-device lead against side-stream work, what initialising CUPTI costs
and whether it changes later timings, and the CPU+CUDA trace fields that tie a kernel to the op that launched it.

    python scripts/audit_probe2.py --out /tmp/audit-probe2.json
"""
import argparse, json, os, subprocess, sys, tempfile, time
import torch

def trace(fn, cpu=True):
    from torch.profiler import profile, ProfilerActivity
    acts = [ProfilerActivity.CUDA] + ([ProfilerActivity.CPU] if cpu else [])
    torch.cuda.synchronize(); t0 = time.perf_counter()
    with profile(activities=acts) as prof:
        fn(); torch.cuda.synchronize()
    t1 = time.perf_counter()
    path = tempfile.mktemp(suffix='.json'); prof.export_chrome_trace(path)
    evs = json.load(open(path))['traceEvents']; os.unlink(path)
    return evs, t1 - t0, time.perf_counter() - t1

INIT = r'''
import time, threading, torch, sys
t0 = time.perf_counter(); x = torch.ones(1, device='cuda'); torch.cuda.synchronize(); t_ctx = time.perf_counter() - t0
mode = sys.argv[1]
def prof():
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]): (x * 2); torch.cuda.synchronize()
if mode == 'thread':
    th = threading.Thread(target=prof); t1 = time.perf_counter(); th.start(); time.sleep(8); th.join(); t_bg = time.perf_counter() - t1
else: t_bg = None
t2 = time.perf_counter(); prof(); t_first = time.perf_counter() - t2
t3 = time.perf_counter(); prof(); t_second = time.perf_counter() - t3
print({'mode': mode, 'ctx_s': t_ctx, 'thread_s': t_bg, 'first_s': t_first, 'second_s': t_second})
'''

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--out', required=True); a = ap.parse_args()
    from cuda_agent_lab import profile as P
    from cuda_agent_lab.jit import cuda_kernel
    res = {}
    dev = torch.device('cuda', 0)
    k = cuda_kernel(r'''extern "C" __global__ void cand_scale(const float* x, float* o, int n){
        int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 2.0f * x[i]; }''', 'cand_scale')
    big = torch.randn(64 << 20, device=dev); out = torch.empty_like(big); nb = big.numel(); half = nb // 2
    import cupy as cp
    side = cp.cuda.Stream(non_blocking=True)
    raw = cp.RawKernel(r'''extern "C" __global__ void cand_scale(const float* x, float* o, int n){
        int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 2.0f * x[i]; }''', 'cand_scale')
    def honest(): k(((nb + 255) // 256,), 256, big, out, nb)
    def split():
        with side: raw(((half + 255) // 256,), (256,), (big.data_ptr(), out.data_ptr(), cp.int32(half)))
        k(((nb - half + 255) // 256,), 256, big[half:], out[half:], nb - half)
    small = torch.randn(4096, 4096, device=dev); so = torch.empty_like(small); ns = small.numel()
    def small_honest(): k(((ns + 255) // 256,), 256, small, so, ns)
    # (c) before any profiler: the new timer, then the one-thread lead
    tim = {}
    def run(tag):
        for name, fn in (('honest', honest), ('split', split), ('small', small_honest)):
            t = P.time_fn(fn, [[]], 'cuda', min_time_s=0.3)
            tim[f'{tag}/{name}'] = dict(median_ms=t.median_ms, p10_ms=t.p10_ms, p90_ms=t.p90_ms, n=t.n, host_ms=t.host_ms)
    spin = P.device_spin(dev); res['spin_blocks'] = spin.blocks if spin else None
    run('fill'); res['fill_full'] = [sum(spin.full), len(spin.full)] if spin else None
    saved = P._spins[dev]; P._spins[dev] = None; run('one_thread'); P._spins[dev] = saved
    # (d) a CPU+CUDA trace of a call the way the sandbox makes it
    from torch.profiler import record_function
    z = torch.empty(1 << 20, device=dev)
    def call():
        with record_function('cal::candidate'):
            z.zero_(); t = torch.zeros(1000, device=dev); honest()
            cp.multiply(cp.asarray(small), cp.asarray(small))
            with side: raw(((half + 255) // 256,), (256,), (big.data_ptr(), out.data_ptr(), cp.int32(half)))
            torch.mm(small[:64, :64], small[:64, :64]); t.cpu()
    call(); torch.cuda.synchronize()
    evs, prof_s, export_s = trace(call)
    cats = ('cpu_op', 'user_annotation', 'cuda_runtime', 'cuda_driver', 'kernel', 'gpu_memset', 'gpu_memcpy', 'gpu_user_annotation')
    res['trace'] = [dict(cat=e.get('cat'), name=e.get('name', '')[:120], ts=e.get('ts'), dur=e.get('dur'), tid=e.get('tid'),
                         pid=e.get('pid'), args={k: v for k, v in e.get('args', {}).items() if k in ('correlation', 'stream', 'grid', 'block', 'External id', 'device')})
                    for e in evs if e.get('cat') in cats]
    res['trace_cost'] = dict(profile_s=prof_s, export_s=export_s)
    run('after_profile')
    res['timings'] = tim
    # (b) CUPTI init cost in fresh processes
    res['init'] = []
    for mode in ('plain', 'thread'):
        r = subprocess.run([sys.executable, '-c', INIT, mode], capture_output=True, text=True, timeout=120)
        res['init'].append(r.stdout.strip() or r.stderr[-800:])
    json.dump(res, open(a.out, 'w'), indent=1, default=str)
    print(json.dumps(tim, indent=1)); print(res['init']); print(res['fill_full'], res['spin_blocks'], res['trace_cost'])

if __name__ == '__main__': main()
