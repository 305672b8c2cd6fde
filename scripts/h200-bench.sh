#!/usr/bin/env bash
# The benchmark figures a long H200 job (scripts/h200.sh) did not reach, in one device call of a few minutes:
#   [ONLY=parts] bash scripts/h200-bench.sh EPISODES [SECONDS]
# ONLY picks bench parts (default fidelity,suite,throughput,turnaround, run in that order): the diag-matmul timing
# fidelity (fresh processes), the suite against the ceilings (EPISODES: the sweep's episodes.jsonl), the pool's
# throughput on level-1 solutions (the KernelBench way's tasks), and the turnaround of a level-1, -2 and -3 solution;
# isolation (not in the default) times diag_matmul while another process makes CUDA contexts or runs kernels.
# Everything is written under $OUT as it finishes (bench.json is saved after every part), so a cut call keeps what it
# measured. Needs only the device's torch, Triton and CuPy (no wheels).
set -u
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache TORCHINDUCTOR_COMPILE_THREADS=2
EP=${1:?episodes.jsonl of the sweep}; end=$(( $(date +%s) + ${2:-420} ))
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a $O/stages.txt; }
log "start"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > $O/gpu.txt 2>&1
# inductor's cache for the tasks below (CPU-bound, side by side), so each first evaluation only loads the compiled baseline
python3 -c "
from cuda_agent_lab.sandbox import warm_compile_cache; from cuda_agent_lab.tasks import get_task
print(warm_compile_cache([get_task(n) for n in ('diag_matmul', 'gelu', 'transpose_copy', 'matmul_div_sum_scale', 'resnet_basic_block')], 'cuda', workers=5))
" > $O/warm.log 2>&1
log "warm-up done"
timeout $(( end - $(date +%s) )) python3 bench/bench.py --out $O/bench --only ${ONLY:-fidelity,suite,throughput,turnaround} \
  --episodes "$EP" --fidelity diag_matmul --fidelity-n 10 --throughput diag_matmul,gelu,transpose_copy \
  --kernelbench diag_matmul,gelu,transpose_copy --rounds 3 --turnaround-n 2 > $O/bench.log 2>&1
log "bench rc=$?"
grep -E "^[a-z]+: [0-9.]+ s" $O/bench.log; sed -n '/## Targets/,/## Ceilings/p' $O/bench.md 2>/dev/null
