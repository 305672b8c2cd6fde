#!/usr/bin/env bash
# Reward integrity on the H200 (issues 18 and 30), in one job through the device tool:
#   run 1: bash scripts/h200-integrity.sh start [SECONDS]   starts the job, waits up to SECONDS (default 540)
#   run 2: bash scripts/h200-integrity.sh wait [SECONDS]    waits for the rest; each call brings back $OUT/results.tgz so far
#   STAGES='coldwarm redteam' picks stages (default: coldwarm sol redteam eval probe guardcost)
# Carry .whl/ with the fastcore wheel (the package's one dependency missing there), fetched once here with
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp -d .whl fastcore==2.2.41
# Stages (each writes under $RES as it goes):
#  1. the cold/warm verdict test of every candidate format (fast path, load_inline, CUDA-Agent workdir; CUDA and CPU),
#     each with an empty CAL_CACHE_DIR and then a warm one (tests/test_cold_warm.py);
#  2. the copy ceiling and the speed-of-light checks on a GPU, the guard's GPU tests (test_profile, test_speed_of_light, test_guard);
#  3. the whole red-team corpus: CPU and CUDA hacks, faults and honest twins (tests/test_redteam.py), a JSON line per verdict;
#  4. `cal eval --json` of the diag_matmul solution (the speed-of-light field in its details);
#  5. the call-state probe (timed and verified calls look alike from inside forward) and the poisoned-records test;
#  6. what each guard layer costs inside a timed call on the GPU (scripts/guard_cost.py, diag_matmul);
#  hostbound: `cal eval` of honest suite solutions, the host bound's table (scripts/host_bound_table.py);
#  fixes: the red-team and profile cases a run named again (edit its -k).
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200out
stage_coldwarm() {   # every format, cold then warm: the CUDA ones, and the CPU ones on a GPU host
  python3 -m pytest -q -rA -n 6 -p no:cacheprovider tests/test_cold_warm.py > $RES/cold-warm.log 2>&1; log "cold/warm rc=$?"
}
stage_sol() {
  python3 -m pytest -q -rA -s -m gpu -p no:cacheprovider tests/test_profile.py tests/test_speed_of_light.py tests/test_guard.py > $RES/l2-sol.log 2>&1
  log "speed-of-light, profile and guard gpu tests rc=$?"
}
stage_redteam() {
  # two threads an evaluation: eight workers of the host's 16 threads each timed CPU eager up to 45x slower
  OMP_NUM_THREADS=2 CAL_CACHE_DIR=/tmp/calcache python3 -m pytest -q -rA -n 8 -p no:cacheprovider tests/test_redteam.py > $RES/redteam.log 2>&1
  log "redteam rc=$?"
}
stage_eval() {
  CAL_CACHE_DIR=/tmp/calcache python3 -m cuda_agent_lab eval diag_matmul kernels/level1/diag_matmul/cuda --device cuda --json > $RES/eval-diag.json 2>$RES/eval-diag.err
  log "cal eval rc=$?"
}
stage_probe() {
  CAL_CACHE_DIR=/tmp/calcache python3 -m pytest -q -rA -p no:cacheprovider tests/test_sandbox.py tests/test_redteam.py \
    -k 'look_alike or poisoned' > $RES/probe.log 2>&1; log "probe and poisoned records rc=$?"
}
stage_guardcost() {
  CAL_CACHE_DIR=/tmp/calcache python3 scripts/guard_cost.py --task diag_matmul --device cuda --out $RES/guard-cost.json \
    > $RES/guard-cost.md 2>$RES/guard-cost.err; log "guard cost rc=$?"
}
stage_hostbound() {   # honest suite solutions: the host bound (0 host-bound calls expected) and what the guard costs a call
  local t
  for t in ${HB_TASKS:-level1/diag_matmul level1/softmax level1/gelu level1/matvec level2/scale_add_clamp level2/bias_gelu_mul level3/mlp_block}; do
    CAL_CACHE_DIR=/tmp/calcache python3 -m cuda_agent_lab eval $(basename $t) kernels/$t/cuda --device cuda --json \
      > $RES/hb-$(basename $t).json 2>>$RES/hb.err
  done
  python3 scripts/host_bound_table.py $RES/hb-*.json > $RES/host-bound.md; log "host bound done"
}
stage_hostprobe() {   # where a timed call's host time goes: bare, guarded, traced, sampled (scripts/host_probe.py)
  CAL_CACHE_DIR=/tmp/calcache python3 scripts/host_probe.py --task ${PROBE_TASK:-diag_matmul} --out $RES/host-probe.json \
    > $RES/host-probe.md 2>$RES/host-probe.err; log "host probe rc=$?"
}
stage_fixes() {   # the cases the first integrity5 run failed, and the honest CUDA twins beside c18
  OMP_NUM_THREADS=2 python3 -m pytest -q -rA -n 6 -p no:cacheprovider tests/test_redteam.py tests/test_profile.py \
    -k "${FIX_K:-36_numpy or 36b_numpy or untraced or f06 or h02_ or h03_ or h07_ or c18_ or c14_ or lead_keeps}" > $RES/fixes.log 2>&1
  log "fixes rc=$?"
}
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_REDTEAM_LOG=$RES/redteam-verdicts.jsonl
  log "job start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $RES/stages.txt
  git log -1 --format='commit %H %s' >> $RES/stages.txt 2>/dev/null
  for st in ${STAGES:-coldwarm sol redteam eval probe guardcost}; do stage_$st; done
  log "job done"; date -u > $RES/done
}
collect() {
  mkdir -p ${OUT:-/tmp/out}; tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.tmp' . 2>/dev/null
  cat $RES/stages.txt 2>/dev/null; for f in cold-warm l2-sol redteam probe fixes; do tail -2 $RES/$f.log 2>/dev/null; done
  cat $RES/host-bound.md $RES/host-probe.md 2>/dev/null
}
source "$(dirname "$0")/h200-lib.sh"; main "$@"
