#!/usr/bin/env bash
# Issues 35 and 36 on the H200, in one detached job through the device tool (not yet run on a device):
#   run 1: bash scripts/h200-serve.sh start [SECONDS]   starts the job, waits up to SECONDS (default 540)
#   run 2: bash scripts/h200-serve.sh wait [SECONDS]    waits for the rest; each call brings back $OUT/results.tgz so far
#   STAGES picks stages (default: serve turnaround serve16)
# Carry .whl/ (fastcore at least). Stages, each writing under $RES as it goes (JSON rewritten after every setting):
#  serve:      scripted-expert episodes of diag_matmul through the old path (a process per bin/ command) and served (the
#              pool answers bin/), 1 and 4 at once (scripts/serve_bench.py; issue 35's 12-turn episode under 15 s alone);
#  turnaround: the level-1/2/3 turnaround and the pool's level-1 throughput with the device's timing defaults
#              (bench/bench.py --only turnaround,throughput; issue 36's 0.3 s and 10,000 evaluations per GPU-hour);
#  serve16:    16 at once, old and served (issue 35's 1,000 episodes per GPU-hour), last: the longest.
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200serve
stage_serve() {
  timeout 420 python3 scripts/serve_bench.py --task diag_matmul --device cuda --at-once 1,4 --episodes 4 --out $RES/serve-1-4.json \
    > $RES/serve-1-4.md 2> $RES/serve-1-4.err; log "serve 1,4 rc=$?"
}
stage_turnaround() {
  timeout 400 python3 bench/bench.py --out $RES/bench --only turnaround,throughput --throughput diag_matmul,gelu,transpose_copy \
    --rounds 3 --turnaround-n 2 > $RES/bench.log 2>&1; log "turnaround rc=$?"
}
stage_serve16() {
  timeout 900 python3 scripts/serve_bench.py --task diag_matmul --device cuda --at-once 16 --episodes 16 --out $RES/serve-16.json \
    > $RES/serve-16.md 2> $RES/serve-16.err; log "serve 16 rc=$?"
}
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache
  log "job start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $RES/stages.txt
  for st in ${STAGES:-serve turnaround serve16}; do stage_$st; done
  log "job done"; date -u > $RES/done
}
collect() {
  mkdir -p ${OUT:-/tmp/out}; tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.tmp' . 2>/dev/null
  cat $RES/stages.txt 2>/dev/null; cat $RES/serve-1-4.md $RES/serve-16.md 2>/dev/null
  grep -E "^[a-z]+: [0-9.]+ s" $RES/bench.log 2>/dev/null; sed -n '/## Targets/,/## Ceilings/p' $RES/bench.md 2>/dev/null
}
source "$(dirname "$0")/h200-lib.sh"; main "$@"
