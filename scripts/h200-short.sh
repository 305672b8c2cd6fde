#!/usr/bin/env bash
# The short H200 call of 2026-12-02 evening (one call, ~6 min of job): what the first call of scripts/h200.sh did not reach
# before its machine was lost. Results go straight to $OUT, so a call stopped at its limit still brings them back.
#  1. diag_matmul fidelity alone (5 fresh processes through the pool; in-process time_fn vs do_bench vs plain events);
#  2. side by side: `cal suite` on the 11 CUDA solutions no earlier H200 run evaluated, and the pytest `gpu` tests.
set -u
cd "$(dirname "$0")/.."
O=${OUT:-/tmp/out}; mkdir -p $O
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/fastcore*.whl
export PYTHONPATH=$PWD:/tmp/site PYTHONUNBUFFERED=1 CAL_CACHE_DIR=/tmp/calcache TORCHINDUCTOR_COMPILE_THREADS=2
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a $O/stages.txt; }
log start; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader >> $O/stages.txt
timeout 130 python3 bench/bench.py --out $O/fidelity --only fidelity --fidelity diag_matmul --fidelity-n 5 > $O/fidelity.log 2>&1
log "fidelity rc=$?"
NAMES=residual_layer_norm,rmsnorm_scale,scale_add_clamp,softmax_cross_entropy,depthwise_separable_block,lstm_cell,mlp_block,resnet_basic_block,se_block,swiglu_block,transformer_ffn_norm
timeout 250 python3 -m cuda_agent_lab suite --device cuda --names $NAMES --warm 11 --out $O/suite > $O/suite.log 2>&1 &
S=$!
timeout 250 python3 -m pytest -q -m gpu -n 3 -p no:cacheprovider --ignore=tests/test_plots.py --ignore=tests/test_report.py \
  --ignore=tests/test_widgets.py --ignore=tests/test_browser.py tests/ > $O/pytest-gpu.log 2>&1
log "pytest rc=$?"; wait $S; log "suite rc=$?"
tail -3 $O/pytest-gpu.log; grep -h "^\[" $O/suite.log | tail -12; grep -A8 "^## Timing" $O/fidelity.md
