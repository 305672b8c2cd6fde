"Tests of cuda_agent_lab.tasks: the Task type, its loaders and the curation filters, on the fixtures in tests/fixtures/"
import json, subprocess, sys
from pathlib import Path
import pytest
from cuda_agent_lab.tasks import (Task, TaskError, CheckResult, parse_directives, parse_source, substitute_constants,
    task_from_source, source_hash, builtin_root, load_task, load_suite, get_task, load_kernelbench, load_ops6k, load_ops6k_hub,
    load_workdir, load_path, similarity, nearest, ast_tokens, check_task, check_tasks, tasks_list, tasks_show, tasks_check,
    REJECT_CODES)

FIX = Path(__file__).parent/'fixtures'
RELU = FIX/'suite/level1/fx_relu/model.py'


@pytest.fixture(autouse=True)
def fixture_suite(monkeypatch):
    "Every test sees the fixture suite as the built-in one"
    monkeypatch.setenv('CAL_KERNELS', str(FIX/'suite'))


# --- reading a task ---------------------------------------------------------------------------------------------------

def test_parse_source_errors_name_file_and_line():
    with pytest.raises(TaskError, match=r'x/model.py line 6: syntax error') as e:
        parse_source((FIX/'bad/syntax_error/model.py').read_text(), 'x/model.py')
    assert e.value.code == 'syntax_error'
    with pytest.raises(TaskError, match='`get_inputs` missing at top level') as e:
        parse_source((FIX/'bad/missing_inputs/model.py').read_text())
    assert e.value.code == 'missing_definition'
    with pytest.raises(TaskError, match='`Model`, `get_inputs`, `get_init_inputs` missing'):
        parse_source('x = 1\n')


def test_directives():
    d = parse_directives((FIX/'suite/level2/fx_linear_gelu/model.py').read_text())
    assert d == dict(cpu_sizes={'BATCH': 32, 'IN_F': 64, 'OUT_F': 48}, allow=['addmm', 'mm'], atol=1e-3, rtol=2e-3)
    assert parse_directives('import torch\n') == dict(cpu_sizes={}, allow=[], atol=1e-2, rtol=1e-2)
    assert parse_directives('# cal: allow mm\n# cal: allow mm bmm\n')['allow'] == ['mm', 'bmm']
    with pytest.raises(TaskError, match='line 2: unknown directive `# cal: cpu_size`'): parse_directives('\n# cal: cpu_size N=1\n')
    with pytest.raises(TaskError, match='one non-negative number'): parse_directives('# cal: rtol 1e-2 1e-3\n')
    with pytest.raises(TaskError, match='names K, not defined'): load_task(FIX/'bad/bad_directive')


def test_source_for_cpu_changes_only_the_named_values():
    t = load_task(RELU)
    cpu = t.source_for('cpu')
    assert t.source_for('cuda') == t.source_for('cuda:1') == t.source
    a, b = t.source.splitlines(keepends=True), cpu.splitlines(keepends=True)
    assert [(x, y) for x, y in zip(a, b) if x != y] == [('N = 4096\n', 'N = 64\n'), ('M = 2048\n', 'M = 48\n')]
    assert len(a) == len(b)
    src = 'A = 1  # keep me\r\nB = [\r\n  1, 2]\r\nC = "ü"; D = 7\r\n'
    assert substitute_constants(src, {'A': 2, 'B': (3, 4), 'D': 8}) == 'A = 2  # keep me\r\nB = (3, 4)\r\nC = "ü"; D = 8\r\n'
    with pytest.raises(ValueError, match="use 'cpu' or 'cuda'"): t.source_for('tpu')


def test_hash_is_sha256_of_newline_normalised_source():
    t = load_task(RELU)
    assert len(t.hash) == 64 and t.hash == source_hash(t.source.replace('\n', '\r\n'))
    assert source_hash('a\n') == source_hash('a\r') == '87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7'
    assert source_hash('a\n') != source_hash('a \n')


def test_to_dict_from_dict_round_trip():
    t = load_task(FIX/'suite/level2/fx_linear_gelu')
    d = json.loads(json.dumps(t.to_dict()))
    assert d['hash'] == t.hash and d['path'] == str(t.path)
    assert Task.from_dict(d) == t and isinstance(Task.from_dict(d).path, Path)
    with pytest.raises(TaskError, match='does not match its source'): Task.from_dict({**d, 'source': d['source'] + '#'})


# --- loaders ----------------------------------------------------------------------------------------------------------

def test_builtin_root(monkeypatch):
    assert builtin_root() == FIX/'suite'
    monkeypatch.delenv('CAL_KERNELS')
    assert builtin_root() == Path(__file__).resolve().parents[1]/'kernels'


def test_load_suite():
    tasks = load_suite()
    assert [(t.name, t.level, t.origin) for t in tasks] == [('fx_relu', 1, 'builtin'), ('fx_row_scale', 1, 'builtin'),
                                                            ('fx_linear_gelu', 2, 'builtin')]
    assert [t.name for t in load_suite(levels=[2, 3])] == ['fx_linear_gelu']
    assert [t.name for t in load_suite(names=['fx_linear_gelu', 'fx_relu'])] == ['fx_relu', 'fx_linear_gelu']
    assert tasks[0].solutions == {'cuda': None, 'cpu': FIX/'suite/level1/fx_relu/cpu'}
    assert tasks[1].solutions == {'cuda': None, 'cpu': None}
    with pytest.raises(TaskError, match='did you mean fx_row_scale'): load_suite(names='fx_rowscale')
    with pytest.raises(TaskError, match='set CAL_KERNELS'): load_suite(root=FIX/'nothing_here')


def test_get_task():
    assert get_task('fx_relu') == load_task(RELU)
    assert get_task(RELU.parent).name == get_task(str(RELU)).name == 'fx_relu'
    assert get_task(FIX/'bad/constant').origin == 'file'
    t = load_task(RELU)
    assert get_task(t) is t
    with pytest.raises(TaskError, match='unknown task `relu`'): get_task('relu')
    with pytest.raises(TaskError, match='no such file'): get_task('no/such/model.py')


def test_load_kernelbench_from_either_root():
    names = ['L1_19_ReLU', 'L1_23_Softmax', 'L2_12_Gemm_Multiply_LeakyReLU']
    assert [t.name for t in load_kernelbench(FIX/'kernelbench')] == names
    assert [t.name for t in load_kernelbench(FIX/'kernelbench/KernelBench')] == names
    t = load_kernelbench(FIX/'kernelbench', level=2)[0]
    assert (t.level, t.origin, t.meta['problem_id'], t.path.name) == (2, 'kernelbench', 12, '12_Gemm_Multiply_LeakyReLU.py')
    assert [t.name for t in load_kernelbench(FIX/'kernelbench', select='19')] == ['L1_19_ReLU']
    assert [t.name for t in load_kernelbench(FIX/'kernelbench', select=['softmax', '12_Gemm_Multiply_LeakyReLU'])] == names[1:]
    with pytest.raises(TaskError, match='no KernelBench problem matches 99'): load_kernelbench(FIX/'kernelbench', select=99)


def test_load_ops6k_jsonl_reports_bad_rows_and_keeps_going():
    tasks, problems = load_ops6k(FIX/'ops6k.jsonl')
    assert [t.name for t in tasks] == ['ops6k_0000', 'ops6k_0001', 'ops6k_0003']
    assert all(t.origin == 'ops6k' and t.level is None and t.path is None for t in tasks)
    assert tasks[2].meta == {'data_source': 'torch#2', 'ops': '["torch.softmax", "torch.cumsum"]', 'uid': 'd4', 'row': 3}
    assert [(p['row'], p['code']) for p in problems] == [(2, 'syntax_error'), (4, 'missing_definition')]
    assert 'ops6k.jsonl row 4: `get_inputs` missing' in problems[1]['reason']


def test_load_ops6k_odd_rows(tmp_path):
    good = json.loads((FIX/'ops6k.jsonl').read_text().splitlines()[0])
    f = tmp_path/'rows.jsonl'
    f.write_text('\n'.join([json.dumps(good), 'not json', '[1, 2]', json.dumps({'data_source': 'x'}), '', json.dumps(good)]) + '\n')
    tasks, problems = load_ops6k(f)
    assert [t.name for t in tasks] == ['ops6k_0000', 'ops6k_0004']
    assert [(p['row'], p['code']) for p in problems] == [(1, 'bad_row'), (2, 'bad_row'), (3, 'missing_code')]
    assert 'rows.jsonl line 2: not JSON' in problems[0]['reason']


def test_load_ops6k_parquet(tmp_path):
    import pyarrow as pa   # in the `lab` extra
    import pyarrow.parquet as pq
    rows = [json.loads(l) for l in (FIX/'ops6k.jsonl').read_text().splitlines()]
    for r in rows: r['ops'] = r['ops'] if isinstance(r['ops'], list) else json.loads(r['ops'])
    pq.write_table(pa.Table.from_pylist(rows), tmp_path/'train.parquet')
    tasks, problems = load_ops6k(tmp_path)
    assert [t.name for t in tasks] == ['ops6k_0000', 'ops6k_0001', 'ops6k_0003'] and len(problems) == 2
    assert tasks[0].meta['ops'] == ['nn.Linear', 'torch.relu']


def test_load_ops6k_parquet_without_pyarrow(tmp_path, monkeypatch):
    (tmp_path/'train.parquet').write_bytes(b'PAR1')
    monkeypatch.setitem(sys.modules, 'pyarrow', None)
    monkeypatch.setitem(sys.modules, 'pyarrow.parquet', None)
    monkeypatch.setitem(sys.modules, 'pandas', None)
    with pytest.raises(ImportError, match='pip install pyarrow'): load_ops6k(tmp_path/'train.parquet')


def test_load_ops6k_hub_needs_huggingface_hub(monkeypatch):
    monkeypatch.setitem(sys.modules, 'huggingface_hub', None)
    with pytest.raises(ImportError, match='pip install huggingface_hub'): load_ops6k_hub()


def test_load_workdir():
    task, cand = load_workdir(FIX/'workdir')
    assert (task.name, task.origin, cand) == ('workdir', 'workdir', (FIX/'workdir').resolve())
    assert task.meta == {'kernels': ['kernels/sigmoid.cu', 'kernels/sigmoid_binding.cpp']}
    assert load_workdir(FIX/'workdir/model.py')[0] == task
    assert load_workdir(RELU.parent) == (load_task(RELU, origin='workdir', meta={'kernels': []}), None)


def test_load_path():
    assert len(load_path(FIX/'suite')[0]) == 3
    assert len(load_path(FIX/'kernelbench')[0]) == 3
    assert [len(x) for x in load_path(FIX/'ops6k.jsonl')] == [3, 2]
    assert [t.name for t in load_path(RELU)[0]] == ['fx_relu']
    tasks, problems = load_path(FIX/'bad')
    assert len(tasks) == 6 and sorted(p['code'] for p in problems) == ['bad_directive', 'missing_definition', 'syntax_error']


def test_loading_never_imports_torch():
    code = (f"import sys; from cuda_agent_lab.tasks import *; load_suite(root={str(FIX/'suite')!r}); "
            f"load_ops6k({str(FIX/'ops6k.jsonl')!r}); load_kernelbench({str(FIX/'kernelbench')!r}); "
            f"t = load_task({str(RELU)!r}); t.source_for('cpu'); t.solutions; "
            f"nearest(t, load_suite(root={str(FIX/'suite')!r})); assert 'torch' not in sys.modules, 'torch was imported'")
    subprocess.run([sys.executable, '-c', code], check=True)


# --- curation filters -------------------------------------------------------------------------------------------------

def test_similarity():
    relu, dup = RELU.read_text(), (FIX/'bad/near_duplicate/model.py').read_text()
    assert similarity(relu, relu) == 1.0 and similarity(relu, dup) > 0.95
    gelu = (FIX/'suite/level2/fx_linear_gelu/model.py').read_text()
    assert similarity(relu, gelu) == similarity(gelu, relu) < 0.7
    assert 'Name' in ast_tokens(relu) and '.relu' in ast_tokens(relu) and 'x' not in ast_tokens(relu)
    assert nearest(load_task(FIX/'bad/near_duplicate'), load_suite())[1] == 'fx_relu'
    assert nearest(load_task(RELU), [load_task(RELU)]) == (0.0, None)  # the same task is skipped


def test_static_rejections_need_no_subprocess():
    assert check_task(FIX/'bad/syntax_error/model.py').codes == ['syntax_error']
    assert check_task(FIX/'bad/syntax_error').name == 'syntax_error'
    assert check_task(FIX/'bad/missing_inputs').codes == ['missing_definition']
    assert check_task(FIX/'bad/bad_directive').codes == ['bad_directive']
    assert check_task('no_such_task').codes == ['not_found']
    r = check_task(FIX/'bad/near_duplicate', reference=load_suite(), run=False)
    assert r.codes == ['near_duplicate'] and '`fx_relu`' in r.reasons[0] and r.details['nearest']['name'] == 'fx_relu'
    assert check_task(FIX/'bad/near_duplicate', reference=load_suite(), max_similarity=0.99, run=False).ok
    assert set(r.codes) <= set(REJECT_CODES)


def test_runtime_rejections():
    "Each bad fixture is rejected for its own reason; the good task passes (all in fresh subprocesses, two at a time)"
    cases = {'bad/stochastic_rand': ['stochastic'], 'bad/stochastic_dropout': ['stochastic'], 'bad/constant': ['constant_output'],
             'bad/near_zero': ['constant_output'], 'bad/raises_in_inputs': ['eager_error'], 'suite/level1/fx_relu': []}
    results = check_tasks([FIX/c for c in cases], jobs=2, compile=False, eager_range_ms=(5000, 10000))
    for (case, codes), r in zip(cases.items(), results):
        assert [c for c in r.codes if c != 'too_fast'] == codes, (case, r.reasons)  # every task here is below 5 s
        assert set(r.codes) <= set(REJECT_CODES)
    by = dict(zip(cases, results))
    assert 'same inputs' in by['bad/stochastic_rand'].reasons[0]
    assert 'every output element equals 3' in by['bad/constant'].reasons[0]
    assert 'within 0.01 of zero' in by['bad/near_zero'].reasons[0]
    assert "get_inputs() raised RuntimeError: shape '[7, -1]' is invalid" in by['bad/raises_in_inputs'].reasons[0]
    assert '(model.py line 18)' in by['bad/raises_in_inputs'].reasons[0]
    good = by['suite/level1/fx_relu']
    assert good.codes == ['too_fast'] and 'below 5000 ms' in good.reasons[0]
    assert good.details['outputs'] == [[[64, 48], 'float32']]  # the CPU variant ran
    assert 0 < good.details['eager_ms'] < 5000
    assert CheckResult.from_dict(json.loads(json.dumps(good.to_dict()))) == good


def test_input_insensitive_crash_and_mutation(tmp_path):
    base = RELU.read_text().replace('# cal: cpu-size N=64 M=48\n', '')
    (tmp_path/'insensitive').mkdir()
    (tmp_path/'insensitive/model.py').write_text(base.replace('torch.relu(x)', 'torch.sigmoid(x.mean() * 0) + torch.arange(4.0)'))
    (tmp_path/'crash').mkdir()
    (tmp_path/'crash/model.py').write_text(base.replace('    return [torch.randn(N, M)]', '    import os; os._exit(3)'))
    (tmp_path/'inplace').mkdir()
    (tmp_path/'inplace/model.py').write_text(base.replace('return torch.relu(x)', 'return x.mul_(2)'))
    r1, r2, r3 = check_tasks([tmp_path/'insensitive', tmp_path/'crash', tmp_path/'inplace'], jobs=2, compile=False)
    assert r1.codes == ['input_insensitive'], r1.reasons
    assert r2.codes == ['crash'] and 'exited with code 3' in r2.reasons[0]
    assert r3.codes == ['input_mutated'], r3.reasons  # and not 'stochastic': each forward ran on a copy


@pytest.mark.slow
def test_timeout(tmp_path):
    (tmp_path/'model.py').write_text(RELU.read_text().replace('    return torch.relu(x)', '    while True: pass'))
    r = check_task(tmp_path, compile=False, timeout=8)
    assert r.codes == ['timeout']


@pytest.mark.slow
def test_compile_check():
    "One real torch.compile run: the task compiles and agrees with eager"
    r = check_task('fx_linear_gelu', compile=True)
    assert r.ok, r.reasons
    assert r.details['compile_first_call_ms'] > 0


# --- commands ---------------------------------------------------------------------------------------------------------

def test_tasks_list(capsys):
    assert tasks_list() == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ['name', 'level', 'origin', 'cpu', 'cuda', 'hash']
    row = next(l for l in out.splitlines() if l.startswith('fx_relu'))
    assert row.split() == ['fx_relu', '1', 'builtin', 'yes', '-', load_task(RELU).hash[:8]]
    assert tasks_list(level=2, json=True) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r['name'], r['cpu'], r['cuda']) for r in rows] == [('fx_linear_gelu', False, False)]


def test_tasks_show(capsys):
    assert tasks_show('fx_row_scale') == 0
    out = capsys.readouterr().out
    assert 'cpu-size: N=96 M=64' in out and 'allow: mm' in out and 'return torch.diag(d) @ B' in out
    assert tasks_show('fx_nope') == 2
    assert 'unknown task `fx_nope`' in capsys.readouterr().err


def test_tasks_check(capsys):
    assert tasks_check(path=str(FIX/'bad/raises_in_inputs')) == 1
    out = capsys.readouterr().out
    assert 'REJECT raises_in_inputs' in out and 'eager_error' in out and '1 checked: 0 ok, 1 rejected' in out
    assert tasks_check(names='fx_relu', max_ms=10_000, reference=str(FIX/'kernelbench')) == 0
    assert 'ok     fx_relu' in capsys.readouterr().out
    assert tasks_check(path=str(FIX/'nowhere')) == 2
    assert 'no such file or folder' in capsys.readouterr().err


def test_commands_have_help():
    from fastcore.script import anno_parser
    h = anno_parser(tasks_check).format_help()
    assert '--compile' in h and 'torch.compile runs and agrees' in h and '--reference' in h
    assert 'print a JSON list' in anno_parser(tasks_list).format_help()
