"""One JSON line per verdict of the red-team cases named, through the real `evaluate` (CPU, no compile baseline), for a
report's before/after table. Run it at two commits to compare them:

    python scripts/verdicts.py --out reports/cpu-2026-12-04/after.jsonl cpu/26_rewrite_baselines honest/h01_env_build_steering
"""
import argparse, json
from pathlib import Path
from cuda_agent_lab.sandbox import evaluate

RT = Path(__file__).resolve().parent.parent/'tests'/'redteam'
TASK_OF = {'28b_zeros_when_timed': RT/'tasks'/'small_outputs'/'model.py'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cases', nargs='+'); ap.add_argument('--out', required=True)
    a = ap.parse_args()
    with open(a.out, 'a') as f:
        for case in a.cases:
            task = TASK_OF.get(Path(case).name, 'diag_matmul')
            r = evaluate(str(task), RT/case, 'cpu', compile=False, timeout=240)
            line = dict(case=case, reward=r['reward'], violations=r['violations'], error=(r['error'] or '')[:200])
            print(json.dumps(line)); f.write(json.dumps(line) + '\n'); f.flush()


if __name__ == '__main__':
    main()
