"""Issue 36: why a CPU eager time moves from one process to the next. Times the level-3 `resnet_basic_block` (CPU sizes,
eager, `time_model` with the precision stop) and its first convolution alone in N fresh processes, with glibc's malloc as
it is and with the sandbox's `STEADY_MALLOC` (mmap threshold fixed, no trimming); and, within each process, the same
convolution on inputs moved by 0-4160 bytes.

    python scripts/malloc_probe.py [--runs 6]

Prints one line per process: the block's median ms over three timings, the convolution's, and its range over the
input offsets.
"""
import argparse, json, os, subprocess, sys

CHILD = r'''
import json, time, types, torch
from cuda_agent_lab.tasks import get_task
from cuda_agent_lab.profile import time_model
t = get_task('resnet_basic_block'); m = types.ModuleType('task'); exec(compile(t.source_for('cpu'), 'model.py', 'exec'), m.__dict__)
torch.manual_seed(0); model = m.Model(*m.get_init_inputs()).eval(); x = m.get_inputs()
block = [round(time_model(model, [x], 'cpu', precision=0.01, max_time_s=2.0).median_ms, 3) for _ in range(3)]
def med(f, n=40):
    for _ in range(5): f()
    ts = []
    for _ in range(n): t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    return sorted(ts)[n // 2] * 1e3
with torch.no_grad():
    conv = model.conv1; x0 = x[0]; big = torch.empty(x0.numel() + 2048); offs = []
    for off in (0, 16, 64, 256, 1024, 1040):
        y = big[off:off + x0.numel()].view_as(x0); y.copy_(x0); offs.append(round(med(lambda: conv(y)), 3))
    print(json.dumps(dict(block_ms=block, conv_ms=round(med(lambda: conv(x0)), 3), conv_by_offset_ms=offs)))
'''

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('--runs', type=int, default=6); a = ap.parse_args()
    from cuda_agent_lab.sandbox import STEADY_MALLOC
    for name, extra in (('glibc default', {}), ('STEADY_MALLOC', STEADY_MALLOC)):
        env = {k: v for k, v in os.environ.items() if not k.startswith('MALLOC_')} | extra
        for i in range(a.runs):
            r = json.loads(subprocess.run([sys.executable, '-c', CHILD], env=env, capture_output=True, text=True, check=True).stdout.splitlines()[-1])
            print(f"{name:14s} process {i + 1}: block {r['block_ms']} ms, conv {r['conv_ms']} ms, "
                  f"conv by input offset {min(r['conv_by_offset_ms'])}-{max(r['conv_by_offset_ms'])} ms", flush=True)

if __name__ == '__main__': main()
