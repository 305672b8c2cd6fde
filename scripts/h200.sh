#!/usr/bin/env bash
# The H200 run, through the workplace's device tool (one GPU; 10 minutes a command, so the job runs in its own session):
#   run 1: bash scripts/h200.sh start [SECONDS]   installs the carried wheels, starts the job, waits up to ~9 min
#   run 2+: bash scripts/h200.sh wait [SECONDS]   waits for more of it; every call brings back $OUT/results.tgz so far
# Call `wait` at once after a call returns: the machine is given back after 30 s idle, and the job with it.
# Carry .whl (fastcore, papermill and the Jupyter kernel stack, plotly); fetch them once here with the pip download line
# in reports/h200-2026-12-02-c/README.md. Everything else is the device's own torch, Triton and CuPy.
#
# The job, in order of what matters most (each stage writes under $RES as it goes, so a cut run still brings back what
# it finished):
#  1. the machine, and whether the agent's commands work as the unprivileged agent user here (scripts/agent_probe.py);
#  2. side by side: torch.compile warm-up of every task (inductor cache, strict and TF32) and the compile-latency figures
#     (fast path, load_inline, CUDA-Agent workdir; CPU-bound builds);
#  3. the papermill sweep of the scripted expert over the whole suite (`cal sweep`, 12 episodes at once; the agent's cache
#     seeded with the warmed compile cache), resumed from the episodes of the last session, at most 10 minutes;
#     `cal rollout` into the same folder finishes what it left (it resumes), then `cal report`; beside it the
#     KernelBench-way builds (load_inline, CPU-bound; their figure is evaluations per hour, the builds dominate it);
#  4. the GPU to itself: timing fidelity (diag_matmul and softmax, 20 fresh processes each) and turnaround (a level-1,
#     -2 and -3 solution);
#  5. the pool's throughput on the level-1 solutions, then the suite table against the ceilings from the sweep's episodes;
#     the benchmark's parts merged into one report;
#  6. the pytest `gpu` tests (red-team CUDA corpus, guard, profile, the timer's lead).
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200out
job() {
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache TORCHINDUCTOR_COMPILE_THREADS=2
  mkdir -p $RES/bench
  log "job start"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu --format=csv > $RES/gpu.txt 2>&1
  python3 -c "import torch, sys, triton; print('python', sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__, torch.cuda.get_device_name())" >> $RES/gpu.txt 2>&1
  nproc >> $RES/gpu.txt; git log -1 --format='commit %H %s' >> $RES/gpu.txt 2>/dev/null
  # 1. agent user
  if timeout 300 python3 scripts/agent_probe.py --device cuda > $RES/agent-probe.txt 2>&1; then log "agent probe ok"
  else export CAL_AGENT_USER=none; log "agent probe FAILED: the sweep runs with CAL_AGENT_USER=none (file-mode locking)"; fi
  # 2. warm-up and compile latency side by side (CPU-bound)
  python3 bench/bench.py --out $RES/bench/part1 --only compile > $RES/bench-part1.log 2>&1 & P1=$!
  python3 -c "from cuda_agent_lab.sandbox import warm_compile_cache; from cuda_agent_lab.tasks import load_suite; print(warm_compile_cache(load_suite(), 'cuda', workers=10))" > $RES/warm.log 2>&1
  log "warm-up done"; wait $P1; log "bench part 1 (compile latency) done"
  # the agent's feedback commands use a cache of their own: hand it a copy of the warmed one (its compiled baselines)
  AC=/tmp/cal-cache-cal-agent
  if [ "${CAL_AGENT_USER:-}" != none ] && id cal-agent >/dev/null 2>&1; then
    mkdir -p $AC && cp -a /tmp/calcache/inductor /tmp/calcache/triton /tmp/calcache/jit $AC/ 2>/dev/null
    chown -R cal-agent:cal-agent $AC && chmod 700 $AC; log "agent cache seeded ($(du -sh $AC | cut -f1))"
  fi
  # 3. the sweep (first: it is what most of the open work needs). It resumes from the episodes an earlier session
  #    brought back (SWEEP_SEED, '' for none), so only the tasks missing there run.
  mkdir -p $RES/reports/h200-sweep
  SEED=${SWEEP_SEED-reports/h200-2026-12-03/episodes.jsonl}
  if [ -n "$SEED" ] && [ -s "$SEED" ] && [ ! -e $RES/reports/h200-sweep/episodes.jsonl ]; then
    cp "$SEED" $RES/reports/h200-sweep/episodes.jsonl; log "sweep resumes from $SEED ($(wc -l < "$SEED") episodes)"
  fi
  python3 bench/bench.py --out $RES/bench/part3 --only kernelbench > $RES/bench-part3.log 2>&1 & P3=$!   # CPU-bound builds beside it
  timeout 600 python3 -m cuda_agent_lab sweep --tasks all --device cuda --workers 12 --name h200-sweep --out-root $RES/reports > $RES/sweep.log 2>&1
  SW=$?; log "papermill sweep rc=$SW"
  if [ $SW -ne 0 ]; then   # a cut sweep leaves its episodes' processes: end them before anything else uses the GPU
    pkill -9 -f 'cuda_agent_lab|papermill|ipykernel' ; pkill -9 -u cal-agent 2>/dev/null; sleep 2
  fi
  if [ ! -s $RES/reports/h200-sweep/episodes.jsonl ] || [ $(wc -l < $RES/reports/h200-sweep/episodes.jsonl) -lt 37 ]; then
    timeout 300 python3 -m cuda_agent_lab rollout --tasks all --policy scripted --device cuda --workers 12 --out $RES/reports/h200-sweep > $RES/rollout.log 2>&1
    log "rollout fallback rc=$?"; python3 -m cuda_agent_lab report $RES/reports/h200-sweep > $RES/report.log 2>&1
  fi
  # 4. the GPU to itself: fidelity and turnaround
  python3 bench/bench.py --out $RES/bench/part2 --only fidelity,turnaround > $RES/bench-part2.log 2>&1; log "bench part 2 done"
  wait $P3; log "bench part 3 (KernelBench way) done"
  # 5. the pool's throughput, then the suite against the ceilings
  python3 bench/bench.py --out $RES/bench/part4 --only throughput,suite --episodes $RES/reports/h200-sweep/episodes.jsonl > $RES/bench-part4.log 2>&1
  log "bench part 4 done"
  python3 bench/bench.py --merge $RES/bench/part2.json $RES/bench/part1.json $RES/bench/part3.json $RES/bench/part4.json --out $RES/bench/h200 > $RES/bench-merge.log 2>&1
  # 6. the gpu tests
  python3 -m pytest -q -m gpu -n 3 -p no:cacheprovider --ignore=tests/test_plots.py --ignore=tests/test_report.py \
    --ignore=tests/test_widgets.py --ignore=tests/test_browser.py tests/ > $RES/pytest-gpu.log 2>&1
  log "pytest gpu rc=$?"
  log "job done"; date -u > $RES/done
}
collect() {
  mkdir -p ${OUT:-/tmp/out}
  tar czf ${OUT:-/tmp/out}/results.tgz -C $RES --exclude='*.tmp' . 2>/dev/null
  cat $RES/stages.txt 2>/dev/null; tail -2 $RES/reports/h200-sweep/episodes.jsonl 2>/dev/null | cut -c1-200
  grep -h "^\[" $RES/sweep.log $RES/rollout.log 2>/dev/null | tail -3; tail -2 $RES/pytest-gpu.log 2>/dev/null
}
source "$(dirname "$0")/h200-lib.sh"; PIP_EXTRA="--upgrade --no-cache-dir"; main "$@"
