"""Issue 31: where the gate's split-kernel gap comes from, and whether a drain closes it. A prototype timer, beside the
landed one: the gate leads as now; after the call a second whole-device kernel (the drain: as many 1024-thread blocks as
the SMs hold) is queued, and its blocks wait for each other, so the last one arrives only once no other kernel has a
block on the device. Each call is read three ways: CUDA events around the call (the landed gate), events from the start
to after the drain, and the device's %globaltimer from the gate's last exit to the drain's last arrival.

    python scripts/drain_probe.py --out /tmp/drain-probe.json [--calls 300]

Prints the %globaltimer's step, then per kernel and reading the median ms (p10-p90), and do_bench.
"""
import argparse, ctypes, json, time
from pathlib import Path
import numpy as np, torch

SRC = r'''
__device__ __forceinline__ unsigned long long gtime() {
    unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

extern "C" __global__ void __launch_bounds__(1024, 2)
gate_st(volatile int* flags, int nblocks, int gen, long long max_ns, unsigned long long* count,
        unsigned long long base, volatile unsigned long long* stamps) {
    if (threadIdx.x == 0) {
        flags[blockIdx.x] = gen; __threadfence_system();
        unsigned long long t0 = gtime(), t;
        while (flags[nblocks] != gen) { __nanosleep(200); t = gtime(); if ((long long)(t - t0) > max_ns) break; }
        unsigned long long old = atomicAdd(count, 1ULL); t = gtime();
        if (old == base) stamps[0] = t;
        if (old == base + nblocks - 1) stamps[1] = t;
    }
    __syncthreads();
}

extern "C" __global__ void __launch_bounds__(1024, 2)
gate_one(volatile int* flags, int nblocks, int gen, long long max_ns, unsigned long long* count,
         unsigned long long base, volatile unsigned long long* stamps, volatile int* release) {
    // one poller reads the host's flag and passes it on in device memory, which the other blocks poll
    if (threadIdx.x == 0) {
        flags[blockIdx.x] = gen; __threadfence_system();
        unsigned long long t0 = gtime(), t;
        if (blockIdx.x == 0) {
            while (flags[nblocks] != gen) { __nanosleep(200); t = gtime(); if ((long long)(t - t0) > max_ns) break; }
            *release = gen; __threadfence();
        } else {
            while (*release != gen) { __nanosleep(100); t = gtime(); if ((long long)(t - t0) > max_ns) break; }
        }
        unsigned long long old = atomicAdd(count, 1ULL); t = gtime();
        if (old == base) stamps[0] = t;
        if (old == base + nblocks - 1) stamps[1] = t;
    }
    __syncthreads();
}

extern "C" __global__ void __launch_bounds__(1024, 2)
drain(unsigned long long* count, int nblocks, unsigned long long base, long long max_ns,
      volatile unsigned long long* stamps) {
    if (threadIdx.x == 0) {
        unsigned long long old = atomicAdd(count, 1ULL), t = gtime(), t0 = t;
        if (old == base) stamps[2] = t;
        if (old == base + nblocks - 1) stamps[3] = t;
        volatile unsigned long long* c = count;
        while (*c < base + nblocks) { __nanosleep(100); if ((long long)(gtime() - t0) > max_ns) { stamps[4] = 1; break; } }
    }
    __syncthreads();
}

extern "C" __global__ void ticks(unsigned long long* out, int n) { for (int i = 0; i < n; ++i) out[i] = gtime(); }
'''

class Drain:
    def __init__(self, dev):
        from cuda_agent_lab.jit import nvrtc_compile, load_function, device_arch, libcuda
        self.lib = libcuda()
        p = torch.cuda.get_device_properties(dev)
        self.nb = p.multi_processor_count * (p.max_threads_per_multi_processor // 1024)
        cubin = nvrtc_compile(SRC, 'drain_probe.cu', device_arch())[0]
        self.gate_fn, self.drain_fn, self.ticks_fn = (load_function(cubin, n, 'drain_probe.cu') for n in ('gate_st', 'drain', 'ticks'))
        self.gate_one = load_function(cubin, 'gate_one', 'drain_probe.cu')
        self.release = torch.zeros(1, dtype=torch.int32, device=dev)
        self.flags_t = torch.zeros(self.nb + 1, dtype=torch.int32, pin_memory=True); self.flags = self.flags_t.numpy()
        self.stamps_t = torch.zeros(16, dtype=torch.int64, pin_memory=True); self.stamps = self.stamps_t.numpy()
        self.count = torch.zeros(3, dtype=torch.int64, device=dev)
        self.gen = 0; self.bases = [0, 0, 0]
        self.fptr, self.sptr = self._mapped(self.flags_t), self._mapped(self.stamps_t)
        self.flush = torch.empty(64 << 20, dtype=torch.float32, device=dev)
    def _mapped(self, t):
        ptr = ctypes.c_void_p()
        if self.lib.cuMemHostGetDevicePointer_v2(ctypes.byref(ptr), ctypes.c_void_p(t.data_ptr()), 0): return t.data_ptr()
        return ptr.value
    def _launch(self, fn, args, stream):
        params = (ctypes.c_void_p * len(args))(*[ctypes.addressof(a) for a in args])
        rc = self.lib.cuLaunchKernel(fn, self.nb, 1, 1, 1024, 1, 1, 0, stream, params, None)
        if rc: raise RuntimeError(f'launch failed {rc}')
    def resolution(self, dev):
        out = torch.zeros(4096, dtype=torch.int64, device=dev)
        args = [ctypes.c_void_p(out.data_ptr()), ctypes.c_int(4096)]
        params = (ctypes.c_void_p * 2)(*[ctypes.addressof(a) for a in args])
        self.lib.cuLaunchKernel(self.ticks_fn, 1, 1, 1, 1, 1, 1, 0, torch.cuda.current_stream().cuda_stream, params, None)
        torch.cuda.synchronize(); d = np.diff(out.cpu().numpy()); d = d[d > 0]
        return dict(min_step_ns=int(d.min()) if d.size else None, median_step_ns=float(np.median(d)) if d.size else None)
    def call(self, fn, drain=1, gate='one'):
        s = torch.cuda.current_stream(); h = s.cuda_stream
        self.flush.zero_(); self.stamps[:] = 0; self.gen += 1; g = self.gen
        base = ctypes.c_uint64(self.bases[0]); self.bases[0] += self.nb
        ga = [ctypes.c_void_p(self.fptr), ctypes.c_int(self.nb), ctypes.c_int(g), ctypes.c_int64(20_000_000),
              ctypes.c_void_p(self.count.data_ptr()), base, ctypes.c_void_p(self.sptr)]
        if gate == 'one': self._launch(self.gate_one, ga + [ctypes.c_void_p(self.release.data_ptr())], h)
        else: self._launch(self.gate_fn, ga, h)
        t0 = time.perf_counter()
        while not (self.flags[:self.nb] == g).all():
            if time.perf_counter() - t0 > 0.05: raise RuntimeError('gate not full')
        e0, e1, e2, e3 = (torch.cuda.Event(enable_timing=True) for _ in range(4))
        e0.record(s)
        try: fn()
        finally:
            e1.record(s)
            if drain:
                da = [ctypes.c_void_p(self.count.data_ptr() + 8), ctypes.c_int(self.nb), ctypes.c_uint64(self.bases[1]), ctypes.c_int64(20_000_000),
                      ctypes.c_void_p(self.sptr)]
                self._launch(self.drain_fn, da, h); self.bases[1] += self.nb
            e2.record(s)
            if drain > 1:
                da2 = [ctypes.c_void_p(self.count.data_ptr() + 16), ctypes.c_int(self.nb), ctypes.c_uint64(self.bases[2]), ctypes.c_int64(20_000_000),
                       ctypes.c_void_p(self.sptr + 48)]
                self._launch(self.drain_fn, da2, h); self.bases[2] += self.nb
            e3.record(s)
            self.flags[self.nb] = g
        e3.synchronize()
        ta = time.perf_counter(); torch.cuda.synchronize(); after = time.perf_counter() - ta
        st = self.stamps.astype(np.int64)
        r = dict(ev=e0.elapsed_time(e1), after_s=after, ev_drain2=e0.elapsed_time(e3))
        if drain:
            r.update(ev_drain=e0.elapsed_time(e2), gt_last=(st[3] - st[1]) / 1e6, gt_first=(st[3] - st[0]) / 1e6,
                     gate_spread_us=(st[1] - st[0]) / 1e3, drain_spread_us=(st[3] - st[2]) / 1e3, timeout=int(st[4]))
        return r

def kernels(dev):
    from cuda_agent_lab.jit import cdiv
    from gate_probe import scalings   # scripts/ is on the path when run as a script
    k, raw, out, (x, o, n, h) = scalings(dev, (('scale_4k', 4096), ('scale_1M', 1 << 20), ('scale_16M', 1 << 24), ('scale_64M', 64 << 20)))
    out = {'empty': lambda: None, **out}
    out['split_64M_cupy'] = out.pop('split_64M')
    tside = torch.cuda.Stream()
    def split_torch():
        with torch.cuda.stream(tside): k(cdiv(h, 256), 256, x, o, h)
        k(cdiv(n - h, 256), 256, x[h:], o[h:], n - h)
    out['split_64M_torch'] = split_torch
    def side_after():   # the side half waits for the current half: starts when the current stream's work is done
        ev = torch.cuda.Event(); k(cdiv(n - h, 256), 256, x[h:], o[h:], n - h); ev.record()
        tside.wait_event(ev)
        with torch.cuda.stream(tside): k(cdiv(h, 256), 256, x, o, h)
    out['split_64M_after'] = side_after
    b = torch.randn(2048, 2048, device=dev)
    out['matmul_2k'] = lambda: b @ b
    a = torch.randn(4096, 4096, device=dev); d = torch.randn(4096, device=dev)
    out['rowscale_eager'] = lambda: d[:, None] * a
    s = torch.randn(4096, 4096, device=dev)
    out['softmax_eager'] = lambda: torch.softmax(s, dim=1)
    return out

def q(a): a = np.asarray(a); return dict(median=float(np.median(a)), p10=float(np.percentile(a, 10)), p90=float(np.percentile(a, 90)))

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--out', required=True); ap.add_argument('--calls', type=int, default=300)
    a = ap.parse_args()
    from cuda_agent_lab import profile as P
    from triton.testing import do_bench
    dev = torch.device('cuda', 0); torch.cuda.set_device(dev)
    D = Drain(dev); ks = kernels(dev)
    res = dict(device=torch.cuda.get_device_name(dev), blocks=D.nb, globaltimer=D.resolution(dev), rows={})
    print('globaltimer', res['globaltimer'], 'blocks', D.nb, flush=True)
    for rnd in range(2):
        for name, fn in ks.items():
            for _ in range(20): D.call(fn)
            rows = [D.call(fn) for _ in range(a.calls)]
            r = {k: q([x[k] for x in rows]) for k in ('ev', 'ev_drain', 'gt_last', 'gt_first', 'gate_spread_us', 'drain_spread_us', 'after_s')}
            r['timeouts'] = sum(x['timeout'] for x in rows)
            r2 = [D.call(fn, drain=2) for _ in range(a.calls)]
            r['two_drains'] = {k: q([x[k] for x in r2]) for k in ('ev', 'ev_drain', 'ev_drain2', 'gate_spread_us')}
            r3 = [D.call(fn, gate='host') for _ in range(a.calls // 2)]
            r['host_gate'] = {k: q([x[k] for x in r3]) for k in ('ev', 'ev_drain', 'gate_spread_us')}
            r['landed_gate'] = P.time_fn(fn, [[]], 'cuda', min_time_s=0.2, lead='gate').median_ms
            r['do_bench'] = do_bench(fn, warmup=25, rep=100) if name != 'empty' else None
            res['rows'][f'{rnd}:{name}'] = r
            print(f"{rnd} {name:16s} ev {r['ev']['median']:.4f} ev+drain {r['ev_drain']['median']:.4f} "
                  f"gt {r['gt_last']['median']:.4f} ({r['gt_last']['p10']:.4f}-{r['gt_last']['p90']:.4f}) "
                  f"gt_first {r['gt_first']['median']:.4f} landed {r['landed_gate']:.4f} do_bench {r['do_bench'] or 0:.4f} "
                  f"spreads gate {r['gate_spread_us']['median']:.2f} drain {r['drain_spread_us']['median']:.2f} us "
                  f"after {r['after_s']['median'] * 1e6:.1f} us timeouts {r['timeouts']}\n    two drains: ev {r['two_drains']['ev']['median']:.4f} "
                  f"1 {r['two_drains']['ev_drain']['median']:.4f} 2 {r['two_drains']['ev_drain2']['median']:.4f} "
                  f"({r['two_drains']['ev_drain2']['p10']:.4f}-{r['two_drains']['ev_drain2']['p90']:.4f}); "
                  f"every block polling the host: ev {r['host_gate']['ev']['median']:.4f} drain {r['host_gate']['ev_drain']['median']:.4f} "
                  f"spread {r['host_gate']['gate_spread_us']['median']:.1f} us", flush=True)
            Path(a.out).write_text(json.dumps(res, indent=1))

if __name__ == '__main__': main()
