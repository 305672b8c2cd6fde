"""scripts/h200-train.sh (issue 38's GPU run) as a dry run on the CPU: a data-only job (STAGES=data), its results packed
as the device tool brings them back (no weights), and a second job seeded from the first one's data stage (SEED=) that
skips the data stage instead of running its episodes again: what lets a later session spend its device minutes on
RFT, evaluation and GRPO."""
import json, os, shutil, subprocess, sys, tarfile
from pathlib import Path
import pytest

ROOT = Path(__file__).parents[1]


def job(res:Path, tmp:Path, **env):
    res.mkdir(parents=True, exist_ok=True)
    e = {**os.environ, 'RES': str(res), 'PYTHON': sys.executable, 'DEVICE': 'cpu', 'SIZE': 'tiny', 'TASKS': 'diag_matmul',
         'HELD_OUT': 'gelu', 'WORKERS': '1', 'CAL_CACHE_DIR': str(tmp/'cache'), **env}
    r = subprocess.run(['bash', 'scripts/h200-train.sh', 'job'], cwd=ROOT, env=e, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return (res/'stages.txt').read_text(), (res/'train.log').read_text()


@pytest.mark.slow
def test_data_only_job_then_a_job_seeded_from_it(tmp_path):
    a = tmp_path/'a'
    stages, log = job(a, tmp_path, STAGES='data')
    assert 'train rc=0' in stages and (a/'done').exists() and 'data: 1 scripted episodes, 1 kept for RFT' in log, log
    rec = json.loads((a/'run'/'stages'/'data.json').read_text())
    assert rec['kept'] == 1 and rec['rewards']['diag_matmul'] >= 1, rec
    assert not (a/'run'/'stages'/'rft.json').exists() and not (a/'run'/'init').exists()   # only the stage asked for ran

    out = tmp_path/'out'   # what a device call brings back: the run folder without weights, stage by stage
    r = subprocess.run(['bash', 'scripts/h200-train.sh', 'wait', '5'], cwd=ROOT, env={**os.environ, 'RES': str(a), 'OUT': str(out)},
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    with tarfile.open(out/'results.tgz') as t: names = t.getnames()
    assert './run/stages/data.json' in names and './run/rft-data/train.parquet' in names and './train.log' in names, names
    assert any(n.startswith('./run/episodes/') for n in names) and not any(n.endswith('.safetensors') for n in names)

    seed = tmp_path/'reports'/'data'   # as a later session finds it in the checkout
    for p in ('stages/data.json', 'episodes', 'rft-data'):
        (seed/p).parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if (a/'run'/p).is_dir() else shutil.copy)(a/'run'/p, seed/p)
    b = tmp_path/'b'
    stages, log = job(b, tmp_path, STAGES='data', SEED=str(seed))
    assert f'data stage seeded from {seed}' in stages and 'train rc=0' in stages
    assert 'data: done already' in log and 'scripted episodes' not in log, log            # no episode ran again
    assert json.loads((b/'run'/'stages'/'data.json').read_text()) == rec
