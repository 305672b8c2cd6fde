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
# TASKS / HELD_OUT / RFT_STEPS / GRPO_STEPS / GRPO_N / GRPO_T (and WORKERS / LANES / WAITING: the pool) override the
# defaults below; STAGES=data (comma-separated) runs only those stages. SEED=<folder> (in the checkout: reports/...)
# starts the run from an earlier run's data stage (its stages/data.json, episodes/ and rft-data/; the same TASKS), which
# saves the data stage's minutes of device time. RES, PYTHON, DEVICE, SIZE, CAL_CACHE_DIR: for the CPU dry run
# (tests/test_train_script.py). Sized for one session's device time: the run folder does not outlive the machine, so a
# run must end within the calls of one session. The H100's run b (reports/h100-2026-12-06-train-b): data 380 s, RFT 61 s
# (it stopped at step 550 of the 1,500 cap once the model reproduced its set), the evaluation 402 s, a GRPO step over 6
# min; most of that was served commands waiting for a worker's warm-up (10-60 s each), which the pool's 4 lanes with 2
# workers waiting (rollout.GPU_LANES, GPU_WAITING) remove. The rollout temperature: a model reproducing its set with
# loss 0.002 sampled four identical gelu episodes at 0.7; TRL's default 1.0 on it is about what 0.7 was on the CPU's run
# c model (loss 0.010), which gave a reward spread (reports/cpu-2026-12-05-train). 8 rollouts a step for more chance of
# one. The expert's episode needs 11-12 turns and up to ~1.7k tokens per reply. The run folder (episodes, logs, figures,
# report.html, summary.md; no model weights) comes back in results.tgz; a cut job resumes with `start` on the same
# machine.
set -u
cd "$(dirname "$0")/.."
RES=${RES:-/tmp/h200train}
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=${CAL_CACHE_DIR:-/tmp/calcache} TORCHINDUCTOR_COMPILE_THREADS=4
  log "job start"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $RES/stages.txt 2>/dev/null
  if [ -n "${SEED:-}" ] && [ ! -e $RES/run/stages/data.json ]; then   # an earlier run's data stage: its record, episodes, RFT set
    mkdir -p $RES/run/stages && cp -r $SEED/episodes $SEED/rft-data $RES/run/ && cp $SEED/stages/data.json $RES/run/stages/ \
      && log "data stage seeded from $SEED"
  fi
  ${PYTHON:-python3} -m pip list 2>/dev/null | grep -i -E "^(torch|transformers|trl|datasets|pyarrow|fsspec|accelerate|plotly) " > $RES/versions.txt
  ${PYTHON:-python3} -m cuda_agent_lab train --device ${DEVICE:-cuda} --size ${SIZE:-small} --out $RES/run \
    --tasks "${TASKS:-diag_matmul,softmax,gelu,l2_norm,mse_loss,transpose_copy}" \
    --held-out "${HELD_OUT:-log_softmax,cumsum,tril_matmul}" \
    --rft-steps ${RFT_STEPS:-1500} --rft-lr 3e-4 --rft-check-every 50 --eval-turns 12 --max-new-tokens 2048 \
    --grpo-steps ${GRPO_STEPS:-3} --grpo-generations ${GRPO_N:-8} --grpo-lr 1e-5 --grpo-turns 12 --grpo-completion-length 4096 \
    --grpo-temperature ${GRPO_T:-1.0} \
    ${STAGES:+--stages $STAGES} --workers ${WORKERS:-4} ${LANES:+--lanes $LANES} ${WAITING:+--waiting $WAITING} --no-compile > $RES/train.log 2>&1
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
