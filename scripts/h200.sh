#!/usr/bin/env bash
# The H200 run, through the workplace's device tool (one GPU, 10 minutes a command):
#   run 1: bash scripts/h200.sh start   (starts the job in its own session, then waits up to ~9 min)
#   run 2: bash scripts/h200.sh wait    (waits for the rest, then copies the results to $OUT)
# Call `wait` at once after `start` returns: the machine is given back after 30 s idle, and the job with it.
# To finish an interrupted sweep: SWEEP_FROM=reports/h200-2026-12-02/scripted-sweep/episodes.jsonl bash scripts/h200.sh start
# The job: `cal eval` of the diag-matmul solution (checks the launch path), NVRTC compile latency, the scripted expert
# over the whole suite (every CUDA reference solution through the trusted evaluation, in real episodes), the pytest `gpu`
# tests (red-team CUDA corpus, guard and profile on CUDA), then bench/bench.py. Run `wait` again until it prints `done`.
# Wheels for fastcore and pytest travel in .whl/ (carry it); everything else is the device's own torch and CuPy.
# Fetch them once here: echo /.whl/ >> .git/info/exclude; python3 -m pip download --no-deps --only-binary=:all: \
#   --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 -d .whl fastcore pytest iniconfig pluggy packaging pygments
set -u
cd "$(dirname "$0")/.."
RES=/tmp/h200out
job() {
  # file-mode locking here: on the first try this machine would not let the agent user own its cache folder
  export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache TORCHINDUCTOR_COMPILE_THREADS=2 CAL_AGENT_USER=none
  mkdir -p $RES
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > $RES/gpu.txt 2>&1
  python3 -c "import torch, sys; print('python', sys.version.split()[0], 'torch', torch.__version__, torch.cuda.get_device_name())" >> $RES/gpu.txt 2>&1
  # 1. the launch path on the diag-matmul solution; fall back to CuPy's launcher if the driver path is broken here
  python3 -m cuda_agent_lab eval diag_matmul kernels/level1/diag_matmul/cuda --device cuda --json > $RES/diag_matmul-eval.json 2> $RES/diag_matmul-eval.err
  if ! grep -q '"correct": true' $RES/diag_matmul-eval.json; then
    export CAL_LAUNCH=cupy; echo "driver launch path failed; CAL_LAUNCH=cupy for the rest" > $RES/launch-fallback.txt
  fi
  # 2. where the diag-matmul time goes: the same kernel in fresh processes, in-process time_fn, do_bench, bare events
  python3 bench/bench.py --out $RES/bench/fidelity --only fidelity --quick > $RES/bench-fidelity.log 2>&1
  # 3. baselines of every task into the cache, 14 at a time (torch.compile is CPU-bound), then the scripted expert over the
  #    whole suite, 6 episodes at a time (timings take the GPU one at a time through profile.device_lock)
  python3 -c "from cuda_agent_lab.sandbox import warm_compile_cache; from cuda_agent_lab.tasks import load_suite; warm_compile_cache(load_suite(), 'cuda', workers=14)" > $RES/warm.log 2>&1
  # a run folder that already holds finished episodes resumes: only the missing tasks run (SWEEP_FROM: an episodes.jsonl)
  mkdir -p $RES/sweep; [ -n "${SWEEP_FROM:-}" ] && cp "$SWEEP_FROM" $RES/sweep/episodes.jsonl
  ls -la /tmp | grep cal- > $RES/tmp-ls.txt 2>&1; id >> $RES/tmp-ls.txt
  python3 -m cuda_agent_lab rollout --tasks all --policy scripted --device cuda --workers 6 --out $RES/sweep > $RES/sweep.log 2>&1
  cp $RES/sweep/episodes.jsonl $RES/episodes.jsonl
  # 4. the gpu tests (red-team CUDA corpus, guard and profile on CUDA; the workbench modules need plotly, absent here)
  python3 -m pytest -q -m gpu -p no:cacheprovider --ignore=tests/test_plots.py --ignore=tests/test_report.py \
    --ignore=tests/test_widgets.py --ignore=tests/test_browser.py tests/ > $RES/pytest-gpu.log 2>&1
  # 5. the rest of the benchmark
  python3 bench/bench.py --out $RES/bench/h200 --only compile,suite,turnaround,throughput --episodes $RES/episodes.jsonl > $RES/bench.log 2>&1
  date -u > $RES/done
}
wait_for() {
  local t0=$(date +%s)
  while [ ! -e $RES/done ] && [ $(( $(date +%s) - t0 )) -lt ${1:-540} ]; do sleep 5; done
  mkdir -p ${OUT:-/tmp/out}; cp -r $RES/* ${OUT:-/tmp/out}/ 2>/dev/null; rm -rf ${OUT:-/tmp/out}/sweep
  cp $RES/sweep/episodes.jsonl ${OUT:-/tmp/out}/episodes-so-far.jsonl 2>/dev/null
  tail -3 $RES/sweep.log 2>/dev/null; tail -3 $RES/pytest-gpu.log 2>/dev/null; cat $RES/bench.log 2>/dev/null; ls $RES
}
case "${1:-}" in
  start) python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl || exit 1
         setsid nohup bash "$0" job > /tmp/h200.log 2>&1 < /dev/null & wait_for ${2:-540} ;;
  wait)  wait_for ${2:-560} ;;
  job)   job ;;
  *)     echo "usage: $0 start|wait|job"; exit 2 ;;
esac
