"""Issue 31's timing half on a GPU: the whole-device gate lead against the one-thread spin, no lead, and Triton's do_bench,
on kernels from ~3 us to ~0.2 ms, a call whose host is slower than its GPU work, and a scaling split across a side stream;
and (issue 36) the gate's timing with the precision stop (`precision=0.01`, at most 2 s) beside them.

    python scripts/gate_probe.py --out /tmp/gate-probe.json [--rounds 3]

Prints one line per kernel and lead: median ms (p10-p90), host ms, and for the gate how often every block was seen
running before the call.
"""
import argparse, json, time
from pathlib import Path
import torch

def scalings(dev, sizes):
    """A bandwidth-bound scaling `o = 2 x` built twice from one source (NVRTC through cuda_kernel, and CuPy's RawKernel):
    `(k, raw, calls)`, `calls` a whole-kernel call per `(name, floats)` in `sizes`, plus `split_64M`: half of 64M floats
    on a non-blocking CuPy stream opened as a context, half on torch's; and `parts` `(x, o, n, h)` of that split"""
    import cupy as cp
    from cuda_agent_lab.jit import cuda_kernel, cdiv
    src = 'extern "C" __global__ void twice(const float* x, float* o, int n) {\n' \
          '    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 2.0f * x[i]; }'
    k, raw = cuda_kernel(src, 'twice'), cp.RawKernel(src, 'twice')
    out = {}
    for name, n in sizes:
        x = torch.randn(n, device=dev); o = torch.empty_like(x)
        out[name] = (lambda x=x, o=o, n=n: k(cdiv(n, 256), 256, x, o, n))
    x = torch.randn(64 << 20, device=dev); o = torch.empty_like(x); n = x.numel(); h = n // 2
    side = cp.cuda.Stream(non_blocking=True)
    def split():
        with side: raw((cdiv(h, 256),), (256,), (x.data_ptr(), o.data_ptr(), cp.int32(h)))
        k(cdiv(n - h, 256), 256, x[h:], o[h:], n - h)
    out['split_64M'] = split
    return k, raw, out, (x, o, n, h)

def kernels(dev):
    from cuda_agent_lab.jit import cuda_kernel, cdiv
    k, raw, out, _ = scalings(dev, (('scale_4k', 4096), ('scale_16M', 1 << 24), ('scale_64M', 64 << 20)))
    mv = cuda_kernel(Path(__file__).parents[1]/'tests/redteam/honest/h04_l2_plain/matvec.cu', 'matvec_rows')
    W = torch.randn(4096, 1024, device=dev); v = torch.randn(1024, device=dev); y = torch.empty(4096, device=dev)
    out['matvec_16MiB'] = lambda: mv(cdiv(4096, 8), 256, W, v, y, 4096, 1024)
    a = torch.randn(4096, 4096, device=dev); d = torch.randn(4096, device=dev)
    out['diag_eager'] = lambda: torch.diag(d) @ a
    out['rowscale_eager'] = lambda: d[:, None] * a
    b = torch.randn(2048, 2048, device=dev)
    out['matmul_2k'] = lambda: b @ b
    s = torch.randn(4096, 4096, device=dev)
    out['softmax_eager'] = lambda: torch.softmax(s, dim=1)
    return out

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--out', required=True); ap.add_argument('--rounds', type=int, default=3)
    a = ap.parse_args()
    from cuda_agent_lab import profile as P
    from triton.testing import do_bench
    dev = torch.device('cuda', 0)
    ks = kernels(dev)
    cyc = int(P.CudaTimer('cuda', lead='spin')._clock(torch.cuda.current_stream()) * 1e-3)   # 1 ms of spin
    def slow_host():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 3e-4: pass
        torch.cuda._sleep(cyc)
    ks['slow_host_1ms'] = slow_host
    ks['spin_1ms'] = lambda: torch.cuda._sleep(cyc)
    gate = P.device_gate(dev)
    res = dict(device=torch.cuda.get_device_name(dev), gate_blocks=gate.blocks if gate else None, rows=[])
    for r in range(a.rounds):
        for name, fn in ks.items():
            for lead in ('gate', 'spin', False):
                g0, h0 = (gate.gen, gate.held) if gate else (0, 0)
                t = P.time_fn(fn, [[]], 'cuda', min_time_s=0.2, lead=lead)
                full = (gate.held - h0, gate.gen - g0) if gate and lead == 'gate' else None
                row = dict(round=r, kernel=name, lead=str(lead), median_ms=t.median_ms, p10_ms=t.p10_ms, p90_ms=t.p90_ms,
                           cv=t.cv, n=t.n, host_ms=t.host_ms, gate_full=full)
                res['rows'].append(row)
                print(f"{r} {name:15s} {str(lead):5s} {t.median_ms:.4f} ms ({t.p10_ms:.4f}-{t.p90_ms:.4f}) host {t.host_ms or 0:.4f}"
                      + (f" full {full[0]}/{full[1]}" if full else ''), flush=True)
            t = P.time_fn(fn, [[]], 'cuda', precision=0.01, max_time_s=2.0)   # issue 36: the precision stop on a GPU
            res['rows'].append(dict(round=r, kernel=name, lead='gate_precise', median_ms=t.median_ms, p10_ms=t.p10_ms,
                                    p90_ms=t.p90_ms, cv=t.cv, n=t.n, host_ms=t.host_ms))
            print(f"{r} {name:15s} precise {t.median_ms:.4f} ms ({t.p10_ms:.4f}-{t.p90_ms:.4f}) cv {t.cv:.1%} n {t.n}", flush=True)
            ms = do_bench(fn, warmup=25, rep=100)
            res['rows'].append(dict(round=r, kernel=name, lead='do_bench', median_ms=ms))
            print(f"{r} {name:15s} do_bench {ms:.4f} ms", flush=True)
    Path(a.out).write_text(json.dumps(res, indent=1))

if __name__ == '__main__': main()
