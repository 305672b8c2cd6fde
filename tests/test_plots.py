"The episode table and the figures of `cuda_agent_lab.plots`, on the fixture run tests/fixtures/episodes-plots.jsonl"
import json, math
from pathlib import Path
import numpy as np, pandas as pd, pytest
import plotly.graph_objects as go
from cuda_agent_lab.plots import (COLUMNS, FASTER, episodes_table, episode_row, speedup_ecdf, speedup_hist, reward_counts,
                                  episode_times, precision_audit, precision_flips, speedup_explorer, run_figures, log_bins)

FIX = Path(__file__).parent/'fixtures'/'episodes-plots.jsonl'

@pytest.fixture(scope='module')
def episodes(): return [json.loads(l) for l in FIX.read_text().splitlines()]

@pytest.fixture(scope='module')
def table(episodes): return episodes_table(episodes)

def test_table_columns_and_values(table):
    assert list(table.columns) == list(COLUMNS)
    assert len(table) == 12 and table.level.tolist() == [1] * 5 + [2] * 4 + [3] * 3
    assert table.reward.tolist() == [3, 2, 1, -1, 1, 3, 3, -1, 2, 3, 2, -1]
    assert table.correct.sum() == 9
    r = table.set_index('task')
    # diag_matmul: candidate 1 ms, eager 8, compile 4; TF32-allowed baselines 2 and 2
    assert r.loc['diag_matmul', ['speedup_eager', 'speedup_compile', 't_eager_tf32_ms', 't_compile_tf32_ms']].tolist() == [8, 4, 2, 2]
    assert r.loc['diag_matmul', ['speedup_eager_tf32', 'speedup_compile_tf32']].tolist() == [2, 2]
    assert r.loc['conv_relu', 'speedup_compile_tf32'] == 0.75 and r.loc['conv_relu', 'violations'] == 'reduced_precision'
    assert r.loc['layer_norm', 'speedup_eager'] == pytest.approx(1 / 0.96)
    assert r.loc['lstm_cell', ['compiled', 'correct', 'turns', 'wall_s', 'stop_reason']].tolist() == [False, False, 9, 1800.0, 'wall_time']
    assert r.loc[['matvec', 'gemm_bias_gelu', 'lstm_cell'], 'speedup_eager'].isna().all()
    assert r.loc['matvec', 't_eager_ms'] == 3.0                       # baselines were timed, the candidate was wrong

def test_table_tolerates_sparse_records():
    row = episode_row({'id': 'x', 'evaluation': {'violations': ['missing_file'], 'reward': -1}})
    assert row['reward'] == -1 and row['violations'] == 'missing_file' and math.isnan(row['t_candidate_ms']) and row['turns'] == 0
    t = episodes_table([])
    assert t.shape == (0, len(COLUMNS)) and str(t.dtypes['level']) == 'Int64'

def test_ecdf(table):
    fig = speedup_ecdf(table)
    assert len(fig.data) == 6 and fig.layout.xaxis.type == fig.layout.xaxis2.type == 'log'
    l2c = fig.data[4]                                                  # level 2, against torch.compile
    assert list(l2c.x) == [0.9, 0.9, 1.5, 12.0] and list(l2c.y) == pytest.approx([0, 1 / 3, 2 / 3, 1])
    assert list(l2c.customdata)[1:] == ['rmsnorm_scale.cuda.scripted.0', 'conv_relu.cuda.scripted.0', 'matmul_div_sum_scale.cuda.scripted.0']
    assert sorted(s.x0 for s in fig.layout.shapes) == [1.0, 1.0, FASTER, FASTER]   # on a log axis shapes take data values

def test_histogram(table):
    fig = speedup_hist(table)
    assert [int(sum(t.y)) for t in fig.data] == [4, 3, 2, 4, 3, 2]
    e = log_bins([0.5, 24.0])
    assert e[0] <= 0.5 and e[-1] >= 24.0 and np.allclose(np.diff(np.log10(e)), np.diff(np.log10(e))[0])

def test_rewards_and_times(table):
    assert [list(t.y) for t in reward_counts(table).data] == [[1, 2, 1, 1], [1, 0, 1, 2], [1, 0, 1, 1]]
    fig = episode_times(table)
    assert len(fig.data) == 6 and fig.layout.yaxis.type == 'log'
    assert [list(t.y) for t in fig.data[3:]] == [[4, 5, 3, 6, 4], [5, 7, 4, 3], [8, 6, 9]]   # turns per level

def test_precision_audit(table):
    assert precision_flips(table).task.tolist() == ['conv_relu']
    assert precision_flips(table, 'eager').task.tolist() == ['conv_relu', 'mlp_block']
    fig = precision_audit(table)
    assert sum(len(t.x) for t in fig.data) == 9 and '1 of 9' in fig.layout.title.text
    diag = [s for s in fig.layout.shapes if s.x0 == s.y0 and s.x1 == s.y1 and s.x0 != s.x1]
    assert len(diag) == 1
    cpu = table.assign(t_eager_tf32_ms=np.nan, t_compile_tf32_ms=np.nan, speedup_eager_tf32=np.nan, speedup_compile_tf32=np.nan)
    assert 'no TF32 baselines' in precision_audit(cpu).layout.annotations[0].text

def test_explorer_carries_episode_ids(table):
    fig = speedup_explorer(table)
    assert isinstance(fig, go.Figure) and not isinstance(fig, go.FigureWidget)
    ids = [i for t in fig.data for i in t.customdata]
    assert sorted(ids) == sorted(table[table.correct].id)
    t0 = fig.data[0]
    got = dict(zip(t0.customdata, zip(t0.x, t0.y)))
    assert got['diag_matmul.cuda.scripted.0'] == (8.0, 4.0)
    w = speedup_explorer(table, widget=True)
    assert isinstance(w, go.FigureWidget) and list(w.data[0].customdata) == list(t0.customdata)

@pytest.mark.parametrize('make', [speedup_ecdf, speedup_hist, reward_counts, episode_times, precision_audit, speedup_explorer])
def test_empty_table_gives_a_note(make):
    fig = make(episodes_table([]))
    assert len(fig.data) == 0 and fig.layout.annotations[0].text == 'no episodes in this run'

def test_only_failed_episodes(table):
    failed = table[~table.correct]
    assert 'no correct episode' in speedup_ecdf(failed).layout.annotations[0].text
    assert 'no correct episode' in speedup_explorer(failed, widget=True).layout.annotations[0].text
    assert [list(t.y) for t in reward_counts(failed).data] == [[1, 0, 0, 0]] * 3

def test_run_figures(table):
    figs = run_figures(table)
    assert list(figs) == ['speedup_ecdf', 'speedup_hist', 'explorer', 'rewards', 'precision_audit', 'times']
    assert all(len(f.data) for f in figs.values())
