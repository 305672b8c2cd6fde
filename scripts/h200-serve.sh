#!/usr/bin/env bash
# Issues 35 and 36 on the H200, in one detached job through the device tool:
#   run 1: bash scripts/h200-serve.sh start [SECONDS]   starts the job, waits up to SECONDS (default 540)
#   run 2: bash scripts/h200-serve.sh wait [SECONDS]    waits for the rest; each call brings back $OUT/results.tgz so far
#   STAGES picks stages (default: serve turnaround serve16)
# Carry .whl/ (fastcore at least). Stages, each writing under $RES as it goes (JSON rewritten after every setting):
#  serve:      scripted-expert episodes of diag_matmul served (the pool answers bin/; 4 at once with 1 and 2 lanes) and
#              through the old path (a process per bin/ command; one episode alone), 1 and 4 at once (scripts/serve_bench.py;
#              issue 35's 12-turn episode under 15 s alone);
#  turnaround: the level-1/2/3 turnaround and the pool's level-1 throughput with the device's timing defaults
#              (bench/bench.py --only turnaround,throughput; issue 36's 0.3 s and 10,000 evaluations per GPU-hour);
#  serve16:    16 at once, served (2 lanes) and old (issue 35's 1,000 episodes per GPU-hour), last: the longest.
#  ahead:      (STAGES=ahead) served with 4 workers started ahead per lane, 1, 4 and 16 at once; the old path at 4 and 16
#  issue 36, after the shared checks: STAGES='overlap precision turnaround lanes16' (scripts/lock_probe.py: a timing beside
#              other evaluations' compiles and checks against one alone; the precision stop against the fixed budget
#              and do_bench over the suite's CUDA solutions; the turnaround and throughput, with BENCH_OPTS='{"precision":
#              0.01, "max_time_s": 0.5}' BENCH_LANES=2,4 BENCH_WAITING=2 for the stop about to become the default;
#              16 episodes at once with 2 and 4 lanes)
#  vphases:    where the checks' time goes (scripts/verify_phases.py over VPHASES_TASKS)
#  warmup:     where a worker's warm-up goes, alone and many at once (scripts/warmup_phases.py)
#  forkprobe:  a worker forked from a server that imported torch and the harness against a fresh interpreter
#              (scripts/forkserver_probe.py; whether CUDA, CUPTI and the checks start in a forked child, and what it saves)
#  doors:      (STAGES=doors, first) the GPU tests of the lock: red team c15 (a kernel launched at import never runs beside
#              another process's timing) and the share/exclusive tests
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200serve
stage_serve() {
  timeout 480 python3 scripts/serve_bench.py --task diag_matmul --device cuda --at-once 1,4 --episodes 4 --old-episodes 1 --lanes 1,2 \
    --out $RES/serve-1-4.json > $RES/serve-1-4.md 2> $RES/serve-1-4.err; log "serve 1,4 rc=$?"
}
stage_ahead() {   # more workers started ahead (each pays ~10 s: torch, the CUDA context, CUPTI's start); old path at 4 and 16 at once
  timeout ${AHEAD_S:-720} python3 scripts/serve_bench.py --task diag_matmul --device cuda --at-once 1,4,16 --episodes 3 --old-at 4,16 \
    --old-episodes 4 --lanes 2 --prespawn 4 --out $RES/serve-ahead.json > $RES/serve-ahead.md 2> $RES/serve-ahead.err; log "ahead rc=$?"
}
stage_turnaround() {   # BENCH_OPTS: the timing options measured (e.g. '{"precision": 0.01, "max_time_s": 0.5}'; unset: the defaults);
                       # BENCH_TURNAROUND: the turnaround's tasks (default a level-1, -2 and -3 one); BENCH_ROUNDS: candidates per throughput task
                       # BENCH_WARM_CHECKS: 1, 0 or 1,0 (the pool with and without sandbox._warm_checks, a setting each)
  timeout ${TURNAROUND_S:-400} python3 bench/bench.py --out $RES/bench --only turnaround,throughput --throughput diag_matmul,gelu,transpose_copy \
    --rounds ${BENCH_ROUNDS:-3} --turnaround-n 2 ${BENCH_TURNAROUND:+--turnaround $BENCH_TURNAROUND} --lanes ${BENCH_LANES:-1,2} --waiting ${BENCH_WAITING:-1,2} --warm-checks ${BENCH_WARM_CHECKS:-1} ${BENCH_OPTS:+--profile-opts "$BENCH_OPTS"} \
    > $RES/bench.log 2>&1; log "turnaround rc=$?"
}
stage_serve16() {
  timeout 600 python3 scripts/serve_bench.py --task diag_matmul --device cuda --at-once 16 --episodes 16 --lanes 2 --out $RES/serve-16.json \
    > $RES/serve-16.md 2> $RES/serve-16.err; log "serve 16 rc=$?"
}
stage_lanes16() {   # after the shared checks (issue 36): 16 at once served, 2 and 4 lanes (the old path's 302 an hour: 2026-12-05-h100-serve.md)
  timeout 600 python3 scripts/serve_bench.py --task diag_matmul --device cuda --at-once 16 --episodes 16 --old-at 0 --lanes 2,4 \
    --prespawn 4 --out $RES/serve-lanes16.json > $RES/serve-lanes16.md 2> $RES/serve-lanes16.err; log "lanes16 rc=$?"
}
stage_precision() {   # issue 36's fidelity: fixed budget against the precision stop, with do_bench, over the suite's CUDA solutions
  timeout ${PRECISION_S:-420} python3 scripts/lock_probe.py precision --out $RES/precision.json --n 3 --max-time 0.5 \
    ${PRECISION_TASKS:+--tasks $PRECISION_TASKS} > $RES/precision.md 2> $RES/precision.err; log "precision rc=$?"
}
stage_overlap() {   # issue 36: a timing while other evaluations compile and check, against one made alone
  timeout ${OVERLAP_S:-300} python3 scripts/lock_probe.py overlap --out $RES/overlap.json --n ${OVERLAP_N:-8} --busy 3 ${BENCH_OPTS:+--opts "$BENCH_OPTS"} > $RES/overlap.md 2> $RES/overlap.err; log "overlap rc=$?"
}
stage_doors() {   # issue 36's lock on a GPU: a kernel launched at import (red team c15) and the share/exclusive tests
  timeout ${DOORS_S:-300} python3 -m pytest -q -rA -p no:cacheprovider -m gpu tests/test_redteam.py tests/test_sandbox.py tests/test_profile.py \
    -k 'import_kernel or share or lock or turnstile' > $RES/doors.log 2>&1; log "doors rc=$?"
}
stage_vphases() {   # issue 36: where the five checks' time goes on the GPU (scripts/verify_phases.py: verify's steps, cold and warm, cProfile)
  timeout ${VPHASES_S:-120} python3 scripts/verify_phases.py --device cuda --tasks ${VPHASES_TASKS:-diag_matmul,softmax,resnet_basic_block} \
    --out $RES/verify_phases.json > $RES/verify_phases.md 2> $RES/verify_phases.err; log "vphases rc=$?"
}
stage_warmup() {   # issue 36: where a pool worker's warm-up goes, alone and 8 and 16 at once (scripts/warmup_phases.py)
  timeout ${WARMUP_S:-150} python3 scripts/warmup_phases.py --device cuda --alone 3 --together ${WARMUP_TOGETHER:-8,16} \
    --out $RES/warmup.json > $RES/warmup.md 2> $RES/warmup.err; log "warmup rc=$?"
}
stage_forkprobe() {   # issue 36: a worker forked from a process that imported torch and the harness, against a fresh one
  timeout ${FORK_S:-120} python3 scripts/forkserver_probe.py --device cuda --n 3 --together 8 --out $RES/forkserver.json \
    > $RES/forkserver.md 2> $RES/forkserver.err; log "forkprobe rc=$?"
}
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache
  log "job start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $RES/stages.txt
  for st in ${STAGES:-serve turnaround serve16}; do stage_$st; reap; done
  log "job done"; date -u > $RES/done
}
snapshot() { mkdir -p ${OUT:-/tmp/out}; tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.tmp' . 2>/dev/null; }
collect() {
  snapshot
  cat $RES/stages.txt 2>/dev/null
  for f in $RES/serve-1-4.json $RES/serve-16.json $RES/serve-ahead.json $RES/serve-ahead.json.partial $RES/serve-lanes16.json \
           $RES/serve-lanes16.json.partial; do [ -e $f ] && python3 scripts/serve_bench.py --table $f; done
  for f in $RES/precision.json $RES/overlap.json; do [ -e $f ] && python3 scripts/lock_probe.py table --out $f; done
  cat $RES/forkserver.md 2>/dev/null; tail -n 3 $RES/serve-*.err 2>/dev/null; tail -n 4 $RES/doors.log 2>/dev/null; grep -E '^(## |round )' $RES/verify_phases.md 2>/dev/null; cat $RES/warmup.md 2>/dev/null
  grep -E "^[a-z]+: [0-9.]+ s" $RES/bench.log 2>/dev/null; sed -n '/## Targets/,/## Ceilings/p' $RES/bench.md 2>/dev/null
}
source "$(dirname "$0")/h200-lib.sh"; main "$@"
