"""The host bound on honest solutions: a markdown table from `cal eval --json` verdicts (one file per task).

    python scripts/host_bound_table.py eval-*.json

Per task: reward, the timed median, the median device-side and host-side figures, the allowance (null calls under the
trace and HOST_SLACK_S), what the guard's own host cost added per call, how many timed calls took their time from the
host side, and the device trace's cost."""
import json, sys
from pathlib import Path


def row(p: Path) -> str:
    r = json.loads(p.read_text())
    d = r.get('details') or {}
    t, g, a = d.get('candidate_timing') or {}, d.get('guard_host_cost') or {}, d.get('device_audit') or {}
    f = lambda x, k=4: '-' if x is None else f'{x:.{k}g}'
    return (f"| {r['task']} | {r['reward']} | {f(t.get('median_ms'))} | {f(t.get('host_ms'))} | {f(t.get('host_allowance_ms'))} | "
            f"{f(g.get('median_us'))} | {f(g.get('torch_call_us'))} / {f(g.get('aten_op_us'))} | {t.get('host_bound')}/{t.get('n')} | "
            f"{f(r.get('speedup_compile'), 3)} | {f(a.get('trace_s'), 3)} | {', '.join(r.get('violations') or []) or '-'} |")


if __name__ == '__main__':
    print('| task | reward | median ms | host ms | allowance ms | guard cost us (median call) | us per torch call / aten op '
          '| host-bound calls | x compile | trace s | violations |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for a in sys.argv[1:]:
        try: print(row(Path(a)))
        except Exception as e: print(f'| {Path(a).name} | could not be read: {type(e).__name__}: {e} |')
