"Summary metrics, result files, the HTML report, `cal report` and papermill sweeps (`cuda_agent_lab.report`)"
import json, math, re
from pathlib import Path
import pandas as pd, pytest
from cuda_agent_lab.plots import episodes_table, COLUMNS
from cuda_agent_lab.report import (summary, summary_markdown, geomean, write_results, report_cmd, load_episodes,
                                   check_sweep_params, sweep_cmd, sweep_notebook, RESULT_FILES)

FIX = Path(__file__).parent/'fixtures'/'episodes-plots.jsonl'

@pytest.fixture(scope='module')
def episodes(): return [json.loads(l) for l in FIX.read_text().splitlines()]

@pytest.fixture(scope='module')
def table(episodes): return episodes_table(episodes)

# The fixture, by hand (speedup = t0 / t of the correct episodes):
#   level 1: 5 episodes, 4 correct; vs eager 8, 2, 1, 1/0.96; vs compile 4, 0.5, 2, 1/0.96
#            faster (t < 0.95 t0) than eager: diag_matmul, softmax; than compile: diag_matmul, gelu
#   level 2: 4 episodes, 3 correct; vs eager 24, 2, 1.5; vs compile 12, 1.5, 0.9; faster: 3 vs eager, 2 vs compile
#   level 3: 3 episodes, 2 correct; vs eager 4, 1.5; vs compile 3.59, 1.0; faster: 2 vs eager, 1 vs compile
L1_E, L1_K = [8, 2, 1, 1 / 0.96], [4, 0.5, 2, 1 / 0.96]
L2_E, L2_K = [24, 2, 1.5], [12, 1.5, 0.9]
L3_E, L3_K = [4, 1.5], [3.59, 1.0]
gm = lambda xs: math.prod(xs) ** (1 / len(xs))

def test_geomean():
    assert geomean([2, 8]) == pytest.approx(4) and geomean([1, 10, 100]) == pytest.approx(10)
    assert math.isnan(geomean([])) and geomean([4, float('nan')]) == pytest.approx(4)

def test_summary_per_level(table):
    s = summary(table)
    assert list(s.index) == ['level 1', 'level 2', 'level 3', 'all', 'weighted']
    assert s.episodes.tolist() == [5, 4, 3, 12, 12] and s.correct.tolist() == [4, 3, 2, 9, 9]
    for lvl, p, fe, fk, e, k in [('level 1', 4 / 5, 2 / 5, 2 / 5, L1_E, L1_K), ('level 2', 3 / 4, 3 / 4, 2 / 4, L2_E, L2_K),
                                 ('level 3', 2 / 3, 2 / 3, 1 / 3, L3_E, L3_K)]:
        r = s.loc[lvl]
        assert (r.pass_rate, r.faster_than_eager, r.faster_than_compile) == pytest.approx((p, fe, fk)), lvl
        assert (r.geomean_eager, r.geomean_compile) == pytest.approx((gm(e), gm(k))), lvl
    # failures counted as 1.0x: one extra factor of 1 per failed episode
    assert s.loc['level 1', 'geomean_eager_fail1'] == pytest.approx(gm(L1_E + [1.0]))
    assert s.loc['level 3', 'geomean_compile_fail1'] == pytest.approx(gm(L3_K + [1.0]))

def test_summary_pooled_and_weighted(table):
    s = summary(table)
    assert s.loc['all', 'pass_rate'] == pytest.approx(9 / 12)
    assert s.loc['all', 'geomean_eager'] == pytest.approx(gm(L1_E + L2_E + L3_E))
    assert s.loc['weighted', 'pass_rate'] == pytest.approx((100 * 4 / 5 + 100 * 3 / 4 + 50 * 2 / 3) / 250)
    assert s.loc['weighted', 'faster_than_compile'] == pytest.approx((100 * 2 / 5 + 100 * 2 / 4 + 50 * 1 / 3) / 250)
    w = math.exp((100 * math.log(gm(L1_K)) + 100 * math.log(gm(L2_K)) + 50 * math.log(gm(L3_K))) / 250)
    assert s.loc['weighted', 'geomean_compile'] == pytest.approx(w)

def test_summary_edge_cases(table):
    only2 = summary(table[table.level == 2])
    assert list(only2.index) == ['level 2', 'all', 'weighted'] and only2.loc['weighted', 'geomean_eager'] == pytest.approx(gm(L2_E))
    nolevel = summary(table.assign(level=pd.array([None] * len(table), dtype='Int64')))
    assert list(nolevel.index) == ['no level', 'all', 'weighted'] and math.isnan(nolevel.loc['weighted', 'pass_rate'])
    e = summary(episodes_table([]))
    assert e.loc['all', 'episodes'] == 0 and math.isnan(e.loc['all', 'pass_rate'])

def test_summary_markdown(table):
    md = summary_markdown(table, notes=['a note'], title='T')
    assert md.startswith('# T\n') and '| level 1 | 5 | 80.0% | 40.0% | 40.0% |' in md and '- a note' in md
    assert 'failures = 1x' in md and '100:100:50' in md and 'Precision audit' in md
    assert summary_markdown(episodes_table([])) == 'No episodes in this run.\n'

def _no_remote_scripts(page:str):
    from plotly.offline import get_plotlyjs
    assert not re.search(r'<script[^>]*\bsrc\s*=', page, re.I)                   # no script from anywhere, CDN or not
    assert page.count(get_plotlyjs()[:300]) == 1                                  # plotly.js inlined exactly once
    # the only 'cdn.plot.ly' is the inlined bundle's default topojson URL (geo maps, unused here)
    assert page.count('cdn.plot.ly') == get_plotlyjs().count('cdn.plot.ly')
    assert not re.search(r'<link[^>]*href\s*=\s*["\']https?:', page, re.I)

def test_write_results(tmp_path, episodes, table):
    paths = write_results(tmp_path/'run', episodes)
    assert list(paths) == list(RESULT_FILES) and sorted(p.name for p in (tmp_path/'run').iterdir()) == sorted(RESULT_FILES)
    pd.testing.assert_frame_equal(pd.read_parquet(paths['results.parquet']), table)
    csv = pd.read_csv(paths['results.csv'])
    assert list(csv.columns) == list(COLUMNS) and csv.reward.tolist() == table.reward.tolist()
    assert '| weighted |' in paths['summary.md'].read_text()
    page = paths['report.html'].read_text()
    _no_remote_scripts(page)
    assert page.count('class="plotly-graph-div"') == 6
    for k in ('speedup_ecdf', 'speedup_hist', 'explorer', 'rewards', 'precision_audit', 'times'): assert f'id="fig-{k}"' in page
    assert 'Run run' in page and 'diag_matmul.cuda.scripted.0' in page
    assert all(p.stat().st_mode & 0o044 for p in paths.values())                # readable by others, not mkstemp's 0600

def test_empty_run(tmp_path):
    (tmp_path/'episodes.jsonl').write_text('')
    assert report_cmd(str(tmp_path)) is None
    page = (tmp_path/'report.html').read_text()
    assert 'No episodes in this run.' in page and 'plotly-graph-div' not in page
    assert 'No episodes in this run.' in (tmp_path/'summary.md').read_text()
    assert pd.read_parquet(tmp_path/'results.parquet').shape == (0, len(COLUMNS))

def test_truncated_last_line(tmp_path, capsys):
    lines = FIX.read_text().splitlines()
    (tmp_path/'episodes.jsonl').write_text('\n'.join(lines) + '\n' + lines[5][:300])   # killed while writing line 13
    eps, notes = load_episodes(tmp_path/'episodes.jsonl')
    assert len(eps) == 12 and len(notes) == 1 and 'skipped 1 incomplete line 13' in notes[0]
    assert report_cmd(str(tmp_path)) is None
    out = capsys.readouterr().out
    assert 'skipped 1 incomplete line 13' in out and '12 episodes' in out
    assert 'skipped 1 incomplete line 13' in (tmp_path/'report.html').read_text()
    assert 'skipped 1 incomplete line 13' in (tmp_path/'summary.md').read_text()
    assert len(pd.read_parquet(tmp_path/'results.parquet')) == 12

def test_report_cmd_missing_folder(tmp_path, capsys):
    assert report_cmd(str(tmp_path/'nope')) == 2
    assert 'does not exist' in capsys.readouterr().err

def test_sweep_params_fail_naming_the_parameter():
    check_sweep_params(tasks='level1', policy='scripted', device='cuda', n=3, workers=2, name='x', out_root='reports', episodes_file='')
    with pytest.raises(TypeError, match=r"`n` must be an int, got str '3'"): check_sweep_params(n='3')
    with pytest.raises(TypeError, match=r"`tasks` must be a str, got int 1"): check_sweep_params(tasks=1)
    with pytest.raises(ValueError, match='`name` must be a folder name'): check_sweep_params(name='../x')

def test_sweep_cmd_rejects_bad_arguments_before_starting_a_kernel(tmp_path, capsys):
    assert sweep_cmd(n=0, out_root=str(tmp_path)) == 2 and 'at least 1' in capsys.readouterr().err
    assert sweep_cmd(backend='dask', out_root=str(tmp_path)) == 2 and "`backend` must be 'local' or 'ray'" in capsys.readouterr().err
    assert sweep_cmd(notebook=str(tmp_path/'none.ipynb'), name='x', out_root=str(tmp_path)) == 2
    assert 'does not exist' in capsys.readouterr().err

def test_sweep_notebook_parameters():
    "The parameters cell keeps its tag and papermill infers typed, documented parameters from it"
    import papermill as pm
    nb = json.loads(sweep_notebook().read_text())
    assert [c for c in nb['cells'] if 'parameters' in c.get('metadata', {}).get('tags', [])]
    params = pm.inspect_notebook(str(sweep_notebook()))
    assert {k: (v['inferred_type_name'], v['default']) for k, v in params.items()} == {
        'tasks': ('str', "'all'"), 'policy': ('str', "'scripted'"), 'device': ('str', "'cpu'"), 'n': ('int', '1'),
        'workers': ('int', '1'), 'name': ('str', "'sweep'"), 'out_root': ('str', "'reports'"), 'episodes_file': ('str', "''"),
        'backend': ('str', "'local'"), 'address': ('str', "''")}
    assert all(v['help'] for v in params.values())

@pytest.mark.slow
def test_papermill_sweep_on_fixture(tmp_path):
    import papermill as pm
    out = tmp_path/'reports'/'fx'
    out.mkdir(parents=True)
    pm.execute_notebook(str(sweep_notebook()), str(out/'sweep.ipynb'), cwd=str(tmp_path), progress_bar=False,
                        parameters=dict(name='fx', out_root=str(tmp_path/'reports'), episodes_file=str(FIX)))
    assert sorted(p.name for p in out.iterdir()) == sorted(['episodes.jsonl', 'sweep.ipynb', *RESULT_FILES])
    assert len(pd.read_parquet(out/'results.parquet')) == 12
    _no_remote_scripts((out/'report.html').read_text())
    nb = json.loads((out/'sweep.ipynb').read_text())
    kinds = [k for c in nb['cells'] if c['cell_type'] == 'code' for o in c.get('outputs', []) for k in o.get('data', {})]
    assert kinds.count('application/vnd.plotly.v1+json') == 6                       # the figures are in the executed notebook

@pytest.mark.slow
def test_papermill_wrong_type_fails_early(tmp_path):
    import papermill as pm
    with pytest.raises(pm.PapermillExecutionError) as e:
        pm.execute_notebook(str(sweep_notebook()), str(tmp_path/'out.ipynb'), cwd=str(tmp_path), progress_bar=False,
                            parameters=dict(n='3', name='bad', out_root=str(tmp_path), episodes_file=str(FIX)))
    assert "`n` must be an int, got str '3'" in str(e.value)
    assert not (tmp_path/'bad').exists()                                          # stopped before anything ran

@pytest.mark.slow
def test_papermill_sweep_runs_episodes_side_by_side(tmp_path):
    "The sweep notebook runs real scripted-expert episodes, two at once (`workers`), and reports on them"
    import papermill as pm
    out = tmp_path/'reports'/'live'
    out.mkdir(parents=True)
    pm.execute_notebook(str(sweep_notebook()), str(out/'sweep.ipynb'), cwd=str(tmp_path), progress_bar=False,
                        parameters=dict(tasks='gelu', n=2, workers=2, name='live', out_root=str(tmp_path/'reports')))
    eps = [json.loads(l) for l in (out/'episodes.jsonl').read_text().splitlines()]
    assert sorted(e['id'] for e in eps) == ['gelu.cpu.scripted.0', 'gelu.cpu.scripted.1']
    assert all(e['evaluation']['correct'] and e['reward'] >= 1 for e in eps), [e['evaluation']['error'] for e in eps]
    a, b = eps
    assert a['started'] <= b['finished'] and b['started'] <= a['finished']        # the two episodes overlapped in time
    assert len(pd.read_parquet(out/'results.parquet')) == 2 and (out/'report.html').exists()
