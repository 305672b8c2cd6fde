# The device-job plumbing the scripts/h200-*.sh jobs share; each sets RES, defines job() and collect(), then:
#   source "$(dirname "$0")/h200-lib.sh"; main "$@"
#   start [SECONDS]: install the carried wheels (.whl/) into /tmp/site, start job() detached, wait up to SECONDS (540)
#   wait [SECONDS]:  wait for the rest (560); both end with collect(), which packs $RES into $OUT/results.tgz
#   job:             run job() in this shell (what start detaches)
# A script that defines snapshot() has it called every minute while waiting (results so far into $OUT).
# PIP_EXTRA adds pip flags (h200.sh: --upgrade --no-cache-dir).
log() { echo "$(date -u +%H:%M:%S) $*" >> $RES/stages.txt; }
reap() {   # after a stage (inside job(), the session's leader): what its timeout left running (pool workers, compilers) is killed,
           # so the next stage does not share the machine with them
  local p left="" names=""
  for p in $(pgrep -s 0); do   # pgrep's own subshell has ended by now
    [ "$p" != $$ ] && [ -e /proc/$p ] && { left="$left $p"; names="$names $(cat /proc/$p/comm 2>/dev/null)"; }
  done
  [ -n "$left" ] && { kill -KILL $left 2>/dev/null; log "reaped:$names"; }
  return 0
}
wait_for() {
  local t0=$(date +%s)
  local n=0
  while [ ! -e $RES/done ] && [ $(( $(date +%s) - t0 )) -lt ${1:-540} ]; do
    sleep 5; n=$((n + 1))
    [ $((n % 12)) -eq 0 ] && declare -F snapshot > /dev/null && snapshot   # a call cut short still brings back what was done
  done
  collect
}
main() {
  case "${1:-}" in
    start) mkdir -p $RES; rm -f $RES/done
           python3 -m pip install -q --no-index --no-deps --no-compile ${PIP_EXTRA:-} --target /tmp/site .whl/*.whl > $RES/pip.log 2>&1 \
             || { cat $RES/pip.log; exit 1; }
           setsid nohup bash "$0" job > $RES/job.log 2>&1 < /dev/null & wait_for ${2:-540} ;;
    wait)  wait_for ${2:-560} ;;
    job)   job ;;
    *)     echo "usage: $0 start|wait|job"; exit 2 ;;
  esac
}
