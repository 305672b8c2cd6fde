#!/usr/bin/env bash
# Issue 39 on a machine with several GPUs (a kind such as nvidia-h100-x2 or -x4, when the device tool lends one), in one
# detached job through the device tool:
#   run 1: bash scripts/h200-multi.sh start [SECONDS]   starts the job, waits up to SECONDS (default 540)
#   run 2: bash scripts/h200-multi.sh wait [SECONDS]    waits for the rest; each call brings back $OUT/results.tgz so far
# Carry .whl/ (fastcore; trl, datasets, dill, multiprocess and plotly for the train stage). Ray is not on the device and
# its wheel is larger than what a call may carry (64 MiB), so the Ray settings record Ray's ImportError unless the
# device has it; say so in the report. Stages (STAGES, default: bench train), each writing under $RES as it goes:
#  bench: scripts/multigpu_bench.py: evaluations per GPU-hour on one GPU and on all of them, local backend and Ray, the
#         same work per GPU; every worker's GPU against the lock it held; each timing alone on its GPU (CAL_LOCK_TRACE);
#         then scripted episodes per hour, one GPU against all (target: at least 0.9x linear per GPU)
#  train: cal train with the trainer on the first GPU and the evaluation pool on the others (--eval-gpus), the same
#         settings as scripts/h200-train.sh with fewer steps (GRPO_STEPS, default 2)
# NVLink multicast stays off (the device tool's KINDS.md): NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1 and
# NVSHMEM_DISABLE_NVLS=1 are set again for every stage (the image sets them; a program started with its own environment must too).
set -u
cd "$(dirname "$0")/.."
RES=/tmp/multigpu
stage_bench() {
  timeout ${BENCH_S:-600} python3 scripts/multigpu_bench.py --out $RES/multigpu.json --rounds ${ROUNDS:-6} \
    --backends ${BACKENDS:-local,ray} --episodes ${EPISODES:-1} > $RES/bench.log 2>&1; log "bench rc=$?"
}
stage_train() {
  local others
  others=$(nvidia-smi --query-gpu=index --format=csv,noheader | tail -n +2 | paste -sd, -)
  timeout ${TRAIN_S:-1500} python3 -m cuda_agent_lab train --device cuda --size small --out $RES/run \
    --tasks "${TASKS:-diag_matmul,softmax,gelu,l2_norm,mse_loss,transpose_copy}" --held-out "${HELD_OUT:-log_softmax,cumsum,tril_matmul}" \
    --rft-steps 1500 --rft-lr 3e-4 --rft-check-every 50 --eval-turns 12 --max-new-tokens 2048 \
    --grpo-steps ${GRPO_STEPS:-2} --grpo-generations 8 --grpo-lr 1e-5 --grpo-turns 12 --grpo-completion-length 4096 \
    --grpo-temperature 1.0 --workers 8 --eval-gpus "$others" --no-compile > $RES/train.log 2>&1; log "train rc=$? (eval GPUs $others)"
}
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache RAY_AUTH_MODE=disabled NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 \
    TORCHINDUCTOR_COMPILE_THREADS=4 CUDA_VISIBLE_DEVICES=$(nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd, -)
  log "job start"; nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >> $RES/stages.txt
  python3 -c "import ray; print('ray', ray.__version__)" >> $RES/stages.txt 2>&1 || log "no ray on this machine"
  for st in ${STAGES:-bench train}; do stage_$st; reap; done
  log "job done"; date -u > $RES/done
}
snapshot() {
  mkdir -p ${OUT:-/tmp/out}
  tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.safetensors' --exclude='*.pt' --exclude='*.bin' --exclude='checkpoint-*' \
    --exclude='*.tmp' . 2>/dev/null
}
collect() { snapshot; cat $RES/stages.txt 2>/dev/null; cat $RES/multigpu.md 2>/dev/null; tail -8 $RES/train.log 2>/dev/null; return 0; }   # a stage not run is no error
source "$(dirname "$0")/h200-lib.sh"; main "$@"
