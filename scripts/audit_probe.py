"""What a device-level audit sees on a GPU (issue 31): the kernels and copies that torch.profiler's CUPTI tracing records
for each way a candidate can put work on the device, what one profiled call costs, and whether the timer's lead spin
hides work launched on another stream. Writes one JSON file; run on a GPU host:

    python scripts/audit_probe.py --out /tmp/audit-probe.json
"""
import argparse, json, os, tempfile, time
import torch

def trace(fn, n=1):
    "Kernel, copy and set records of `n` calls of `fn` under torch.profiler (CUDA activity only), and the seconds it took"
    from torch.profiler import profile, ProfilerActivity
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n): fn()
        torch.cuda.synchronize()
    t1 = time.perf_counter()
    with tempfile.NamedTemporaryFile(suffix='.json', delete=False) as f: path = f.name
    prof.export_chrome_trace(path)
    t2 = time.perf_counter()
    evs = json.load(open(path))['traceEvents']; os.unlink(path)
    keep = [dict(cat=e.get('cat'), name=e.get('name')[:160], dur_us=e.get('dur'), ts=e.get('ts'),
                 **{k: e.get('args', {}).get(k) for k in ('stream', 'grid', 'block', 'correlation', 'device', 'context',
                                                           'bytes', 'memory bandwidth (GB/s)', 'shared memory', 'registers per thread')})
            for e in evs if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset', 'gpu_user_annotation')]
    kinds = sorted({e.get('cat') for e in evs if e.get('cat')})
    return dict(events=keep, cats=kinds, profile_s=t1 - t0, export_s=t2 - t1)

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--out', required=True); a = ap.parse_args()
    import cupy as cp
    res = dict(torch=torch.__version__, cupy=cp.__version__, gpu=torch.cuda.get_device_name(),
               sms=torch.cuda.get_device_properties(0).multi_processor_count)
    dev = torch.device('cuda')
    x = torch.randn(4096, 4096, device=dev); y = torch.randn(4096, 4096, device=dev); o = torch.empty_like(x)
    cur = torch.cuda.current_stream()
    res['current_stream_handle'] = cur.cuda_stream
    src = r'''extern "C" __global__ void cand_scale(const float* x, float* o, int n){
        int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 2.0f * x[i]; }'''
    k = cp.RawKernel(src, 'cand_scale')
    n = x.numel(); grid = ((n + 255) // 256,)
    ext = cp.cuda.ExternalStream(cur.cuda_stream)
    def raw_current():
        with ext: k(grid, (256,), (x.data_ptr(), o.data_ptr(), cp.int32(n)))
    side = cp.cuda.Stream(non_blocking=True)
    def raw_side_context():
        with side: k(grid, (256,), (x.data_ptr(), o.data_ptr(), cp.int32(n)))
    h = cp.cuda.runtime.streamCreateWithFlags(1)
    def raw_created_stream():
        k(grid, (256,), (x.data_ptr(), o.data_ptr(), cp.int32(n)), stream=cp.cuda.ExternalStream(h))
    cx, cy = cp.asarray(x), cp.asarray(y)
    def cupy_ufunc():
        with ext: cp.multiply(cx, cy, out=cp.asarray(o))
    def cupy_reduce():
        with ext: cp.sum(cx, axis=1)
    ew = cp.ElementwiseKernel('float32 a', 'float32 b', 'b = 2 * a', 'my_double')
    def cupy_elementwise_named():
        with ext: ew(cx, cp.asarray(o))
    def torch_ops(): torch.mul(x, y, out=o); torch.softmax(x, 1)
    def torch_mm(): torch.mm(x, y)
    def copies(): o.copy_(x); o.zero_(); o.fill_(1.0); x.cpu()[:1]
    cases = dict(raw_current=raw_current, raw_side_context=raw_side_context, raw_created_stream=raw_created_stream,
                 cupy_ufunc=cupy_ufunc, cupy_reduce=cupy_reduce, cupy_elementwise_named=cupy_elementwise_named,
                 torch_ops=torch_ops, torch_mm=torch_mm, copies=copies)
    try:
        import triton, triton.language as tl
        @triton.jit
        def cand_triton(X, O, N, BLOCK: tl.constexpr):
            i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK); m = i < N
            tl.store(O + i, 2 * tl.load(X + i, mask=m), mask=m)
        def triton_kernel(): cand_triton[(triton.cdiv(n, 1024),)](x, o, n, BLOCK=1024)
        cases['triton_kernel'] = triton_kernel
    except Exception as e: res['triton_error'] = repr(e)
    for name, fn in cases.items():
        try: fn(); torch.cuda.synchronize(); res[name] = trace(fn)
        except Exception as e: res[name] = dict(error=repr(e))
    # what a profiled call costs: the first in this process came above; now repeated ones
    res['cost'] = [dict(k, events=len(k['events'])) for k in (trace(raw_current) for _ in range(5))]
    # the lead spin against side-stream work: a bandwidth-bound scaling all on the current stream, and split in halves
    # (the first half on a non-blocking side stream opened as a context, the second on the current stream)
    big = torch.randn(64 << 20, device=dev); out = torch.empty_like(big); nb = big.numel(); half = nb // 2
    gb = ((half + 255) // 256,)
    def honest():
        with ext: k(((nb + 255) // 256,), (256,), (big.data_ptr(), out.data_ptr(), cp.int32(nb)))
    def split():
        with side: k(gb, (256,), (big.data_ptr(), out.data_ptr(), cp.int32(half)))
        with ext: k(gb, (256,), (big.data_ptr() + 4 * half, out.data_ptr() + 4 * half, cp.int32(nb - half)))
    from cuda_agent_lab import profile as P
    fill = cp.RawKernel(r'''extern "C" __global__ void lead_fill(long long cycles){
        long long t0 = clock64(); while (clock64() - t0 < cycles) {} }''', 'lead_fill')
    blocks = 2 * res['sms']
    def fill_spin(cycles):
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream): fill((blocks,), (1024,), (cp.int64(cycles),))
    tim = {}
    for spin_name, spin in (('sleep_one_thread', torch.cuda._sleep), ('fill_all_sms', fill_spin)):
        P._spin = spin
        for fname, fn in (('honest', honest), ('split', split)):
            t = P.time_fn(fn, [[]], 'cuda', min_time_s=0.3)
            tim[f'{spin_name}/{fname}'] = dict(median_ms=t.median_ms, p10_ms=t.p10_ms, p90_ms=t.p90_ms, n=t.n)
    res['lead_vs_side_stream'] = tim
    res['split_trace'] = trace(split)
    json.dump(res, open(a.out, 'w'), indent=1, default=str)
    print(json.dumps(tim, indent=1)); print({k: (v.get('profile_s'), len(v.get('events', []))) for k, v in res.items() if isinstance(v, dict) and 'events' in v})

if __name__ == '__main__': main()
