#!/usr/bin/env bash
# Issue 38 on the H200: the training pipeline (cal train: scripted data, RFT, evaluation of the fine-tuned model, GRPO)
# with the `small` model (~27M parameters), in one detached job through the device tool:
#   run 1: bash scripts/h200-train.sh start [SECONDS]   starts the job, waits up to SECONDS (default 540)
#   run 2: bash scripts/h200-train.sh wait [SECONDS]    waits for the rest; each call brings back $OUT/results.tgz so far
# Carry .whl/ with the wheels the device lacks (fastcore, trl, datasets, dill, multiprocess, plotly):
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#     --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d .whl \
#     fastcore==2.2.41 trl==1.16.0 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19 plotly==7.1.0
# datasets 5.2 wants pyarrow >= 24 and fsspec <= 2026.9.0: the job logs the device's versions first (versions.txt).
# TASKS / HELD_OUT / RFT_STEPS / GRPO_STEPS override the defaults below. Sized for one session's device time (the H100's
# 2026-12-06 run: data 400 s on a fresh cache, RFT 10.7 steps/s, the evaluation 354 s, a GRPO step 157 s): the run
# folder does not outlive the machine, so a run must end within the calls of one session. RFT_STEPS is a cap: RFT stops
# once the model reproduces its set. Turns, tokens and the rollout temperature are
# the ones with which the CPU's run c (reports/cpu-2026-12-05-train) saw GRPO rewards above -1: the expert's episode
# needs 11-12 turns and up to ~1.7k tokens per reply. The run folder (episodes, logs, figures,
# report.html, summary.md; no model weights) comes back in results.tgz; a cut job resumes with `start` on the same machine.
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200train
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache TORCHINDUCTOR_COMPILE_THREADS=4
  log "job start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $RES/stages.txt
  python3 -m pip list 2>/dev/null | grep -i -E "^(torch|transformers|trl|datasets|pyarrow|fsspec|accelerate|plotly) " > $RES/versions.txt
  python3 -m cuda_agent_lab train --device cuda --size small --out $RES/run \
    --tasks "${TASKS:-diag_matmul,softmax,gelu,l2_norm,mse_loss,transpose_copy}" \
    --held-out "${HELD_OUT:-log_softmax,cumsum,tril_matmul}" \
    --rft-steps ${RFT_STEPS:-1500} --rft-lr 3e-4 --rft-check-every 50 --eval-turns 12 --max-new-tokens 2048 \
    --grpo-steps ${GRPO_STEPS:-4} --grpo-generations 4 --grpo-lr 1e-5 --grpo-turns 12 --grpo-completion-length 4096 \
    --grpo-temperature 0.7 \
    --workers 4 ${LANES:+--lanes $LANES} ${WAITING:+--waiting $WAITING} --no-compile > $RES/train.log 2>&1
  log "train rc=$?"; date -u > $RES/done
}
snapshot() {
  mkdir -p ${OUT:-/tmp/out}
  tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.safetensors' --exclude='*.pt' --exclude='*.bin' \
    --exclude='checkpoint-*' . 2>/dev/null
}
collect() {
  snapshot
  cat $RES/stages.txt $RES/versions.txt 2>/dev/null; tail -15 $RES/train.log 2>/dev/null
}
source "$(dirname "$0")/h200-lib.sh"; main "$@"
