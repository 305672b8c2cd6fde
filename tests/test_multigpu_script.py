"""scripts/multigpu_bench.py (issue 39's run on several GPUs) as a dry run on the CPU, where a "GPU set" of k is k CPU
lanes: one pool per setting, every worker's timing under the lock and none beside another, the JSON and table written."""
import json, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).parents[1]


@pytest.mark.slow
def test_multigpu_bench_dry_run_on_the_cpu(tmp_path):
    out = tmp_path/'multigpu.json'
    r = subprocess.run([sys.executable, 'scripts/multigpu_bench.py', '--out', str(out), '--device', 'cpu', '--tasks', 'diag_matmul',
                        '--rounds', '1', '--backends', 'local', '--episodes', '0'], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(out.read_text())
    ev = res['evaluations']['local']
    assert set(ev) == {'1', 'all'} and ev['1']['gpus'] == ['0'] and ev['all']['gpus'] == ['0', '1'], ev
    for k, s in ev.items():
        assert s['all_correct'] and s['n'] == len(s['gpus']) and s['per_gpu_hour'] > 0, s
        assert s['timings'] >= s['n'] and s['overlapping_timings'] == 0, s        # every candidate timed under the lock, alone
        assert s['pinning']['pinned'] == s['pinning']['workers'] == s['n'], s
    md = out.with_suffix('.md').read_text()
    assert '| evaluations | local | 0,1 | 2 |' in md and 'scaling per GPU' in md
    assert res['command'].startswith('python scripts/multigpu_bench.py --out')
