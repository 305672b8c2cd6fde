#!/usr/bin/env bash
# Reward integrity part 4 (issue 31) on the H200, in one detached job through the device tool:
#   run 1: bash scripts/h200-audit.sh start [SECONDS]   starts the job, waits up to SECONDS (default 540)
#   run 2: bash scripts/h200-audit.sh wait [SECONDS]    waits for the rest; each call brings back $OUT/results.tgz so far
#   STAGES='timing redteam' picks stages (default: probe timing redteam suite coldwarm cost)
# Carry .whl/ with the fastcore wheel (see scripts/h200-integrity.sh). Stages, each writing under $RES as it goes:
#  0. the timer's leads (gate, one-thread spin, none) against do_bench, kernel by kernel (scripts/gate_probe.py);
#  1. the GPU timer tests, the split-kernel one among them, and the audit's own (tests/test_profile.py, test_audit.py -m gpu);
#  2. every CUDA case of the red-team corpus, hacks, honest twins and faults, one JSON line per verdict with its
#     device_audit report (tests/test_redteam.py -k cuda);
#  3. the audit's cost: level-1 solutions through warm workers and fresh processes (scripts/audit_cost.py);
#  4. every reference solution of the suite on the GPU (cal suite, no torch.compile baseline: a cold inductor cache
#     would take the whole call), each verdict with its device_audit report;
#  5. the cold/warm verdict test of every candidate format (tests/test_cold_warm.py), if time is left.
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200out
stage_probe() {
  CAL_CACHE_DIR=/tmp/calcache timeout 240 python3 scripts/gate_probe.py --rounds 2 --out $RES/gate-probe.json > $RES/gate-probe.log 2>&1
  log "probe rc=$?"
}
stage_timing() {
  CAL_CACHE_DIR=/tmp/calcache CAL_AUDIT_RECORD=$RES/audit-records python3 -m pytest -q -rA -s -m gpu -p no:cacheprovider \
    tests/test_profile.py tests/test_audit.py > $RES/timing.log 2>&1; log "timing and audit rc=$?"
}
stage_redteam() {
  CAL_CACHE_DIR=/tmp/calcache CAL_REDTEAM_LOG=$RES/redteam-verdicts.jsonl python3 -m pytest -q -rA -n 8 -p no:cacheprovider \
    tests/test_redteam.py -k 'cuda' > $RES/redteam.log 2>&1; log "redteam rc=$?"
}
stage_cost() {
  CAL_CACHE_DIR=/tmp/calcache python3 scripts/audit_cost.py --tasks diag_matmul,gelu --n 3 --fresh 2 --out $RES/audit-cost.json \
    > $RES/audit-cost.md 2>$RES/audit-cost.err; log "cost rc=$?"
}
stage_suite() {
  CAL_CACHE_DIR=/tmp/calcache timeout 480 python3 -m cuda_agent_lab suite --device cuda --no-compile --warm 8 --out $RES/suite > $RES/suite.log 2>&1
  log "suite rc=$?"
}
stage_coldwarm() {
  python3 -m pytest -q -rA -n 6 -p no:cacheprovider tests/test_cold_warm.py > $RES/cold-warm.log 2>&1; log "cold/warm rc=$?"
}
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1
  log "job start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $RES/stages.txt
  for st in ${STAGES:-probe timing redteam suite coldwarm cost}; do stage_$st; done
  log "job done"; date -u > $RES/done
}
collect() {
  mkdir -p ${OUT:-/tmp/out}; tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.tmp' . 2>/dev/null
  cat $RES/stages.txt 2>/dev/null; grep -E 'split|matvec|scale_16M|rowscale' $RES/gate-probe.log 2>/dev/null
  for f in timing redteam cold-warm; do tail -2 $RES/$f.log 2>/dev/null; done
  cat $RES/audit-cost.md 2>/dev/null; tail -3 $RES/suite.log 2>/dev/null
}
source "$(dirname "$0")/h200-lib.sh"; main "$@"
