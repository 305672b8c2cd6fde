"The agent's tools, each called through `Toolbox.call` on real files and real subprocesses"
import json, os, subprocess, tempfile, time
from pathlib import Path
import pytest
from cuda_agent_lab.tools import TOOL_NAMES, Toolbox, ToolResult

@pytest.fixture
def ws(tmp_path):
    "A small workspace: the task's model.py, SKILL.md and bin/, a starter model_new.py"
    (tmp_path/'model.py').write_text('class Model: pass\n')
    (tmp_path/'SKILL.md').write_text('# skill\n')
    (tmp_path/'bin').mkdir(); (tmp_path/'bin'/'verify').write_text('#!/bin/sh\necho verified\n'); (tmp_path/'bin'/'verify').chmod(0o755)
    (tmp_path/'model_new.py').write_text('import torch\n\nclass ModelNew:\n    pass\n')
    return tmp_path

@pytest.fixture
def tb(ws):
    box = Toolbox(ws)
    yield box
    box.close()

def call(tb, name, **args): return tb.call(name, json.dumps(args))

def wait_for(p:Path, seconds=20):
    "Wait until file `p` has content (the machine may be busy)"
    t0 = time.time()
    while not (p.exists() and p.read_text().strip()) and time.time() - t0 < seconds: time.sleep(0.05)
    return p

def alive(pid):
    "Whether `pid` runs (a killed orphan can stay a zombie until init reaps it)"
    try: return Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0] != 'Z'
    except FileNotFoundError: return False

# --- schemas and malformed calls

def test_schemas(tb):
    s = tb.schemas()
    assert [x['function']['name'] for x in s] == list(TOOL_NAMES)
    for x in s:
        assert x['type'] == 'function' and x['function']['parameters']['additionalProperties'] is False
    props = {x['function']['name']: x['function']['parameters']['properties'] for x in s}
    assert set(props['Bash']) == {'command', 'timeout', 'run_in_background', 'description'}
    assert set(props['Grep']) >= {'pattern', 'path', 'glob', 'output_mode', 'ignore_case', 'line_numbers', 'before_context',
                                  'after_context', 'context', 'head_limit', 'multiline'}
    assert props['MultiEdit']['edits']['items']['additionalProperties'] is False
    assert 'default 120000' in props['Bash']['timeout']['description']
    assert not any('web' in n.lower() or 'fetch' in n.lower() for n in TOOL_NAMES)

@pytest.mark.parametrize('name,args,msg', [
    ('WebFetch', '{}', 'unknown tool `WebFetch`'),
    ('Read', '{"file_path": ', 'Read: the arguments are not valid JSON'),
    ('Read', '["a.py"]', 'Read: the arguments must be a JSON object'),
    ('Read', '{}', 'Read: missing required argument `file_path`'),
    ('Read', '{"file_path": "a", "path": "b"}', 'Read: unknown argument `path`'),
    ('Bash', '{"command": "true", "timeout": "5"}', 'Bash: argument `timeout` must be an integer, got a string'),
    ('Bash', '{"command": "true", "timeout": true}', 'Bash: argument `timeout` must be an integer, got a boolean'),
    ('Grep', '{"pattern": "x", "output_mode": "lines"}', 'Grep: argument `output_mode` must be one of'),
    ('MultiEdit', '{"file_path": "a", "edits": [{"old_string": "x"}]}', 'MultiEdit: missing required argument `edits[0].new_string`'),
    ('MultiEdit', '{"file_path": "a", "edits": []}', 'MultiEdit: argument `edits` needs at least 1'),
    ('NotebookEdit', '{"notebook_path": "n.ipynb", "new_source": "", "edit_mode": "move"}', 'must be one of replace, insert, delete'),
])
def test_malformed_calls_fail_with_a_message(tb, name, args, msg):
    r = tb.call(name, args)
    assert (r.ok, r.malformed) == (False, True) and msg in r.output, r.output

def test_result_round_trip(tb):
    r = call(tb, 'Write', file_path='x.txt', content='x\n')
    assert ToolResult.from_dict(json.loads(json.dumps(r.to_dict()))) == r and r.seconds >= 0

# --- paths

@pytest.mark.parametrize('path', ['../outside.txt', '/etc/passwd', 'kernels/../../x', 'link/passwd'])
def test_paths_outside_the_workspace_are_refused(tb, ws, path):
    (ws/'link').symlink_to('/etc')
    for name, args in [('Read', dict(file_path=path)), ('Write', dict(file_path=path, content='x')),
                       ('Edit', dict(file_path=path, old_string='a', new_string='b')), ('Glob', dict(pattern='*', path=path)),
                       ('Grep', dict(pattern='root', path=path)), ('NotebookEdit', dict(notebook_path=path, new_source=''))]:
        r = call(tb, name, **args)
        assert not r.ok and 'is outside the workspace' in r.output and name in r.output, (name, r.output)
    assert not (ws.parent/'outside.txt').exists()

def test_locked_paths_cannot_be_written(tb, ws):
    (ws/'alias.py').symlink_to(ws/'model.py')
    (ws/'nb.ipynb').symlink_to(ws/'bin'/'verify')
    for name, args in [('Write', dict(file_path='model.py', content='x')), ('Write', dict(file_path='bin/new', content='x')),
                       ('Write', dict(file_path=str(ws/'SKILL.md'), content='x')),
                       ('Edit', dict(file_path='alias.py', old_string='Model', new_string='M')),
                       ('MultiEdit', dict(file_path='model.py', edits=[dict(old_string='Model', new_string='M')])),
                       ('NotebookEdit', dict(notebook_path='nb.ipynb', new_source='x'))]:
        r = call(tb, name, **args)
        assert not r.ok and 'is locked' in r.output and not r.changed, (name, r.output)
    assert (ws/'model.py').read_text() == 'class Model: pass\n' and not (ws/'bin'/'new').exists()
    assert call(tb, 'Read', file_path='model.py').ok   # reading is fine

# --- Read, Write, Edit, MultiEdit

def test_read(tb, ws):
    (ws/'long.txt').write_text('x\n' * 2500)
    assert call(tb, 'Read', file_path='model_new.py').output == \
        '     1\timport torch\n     2\t\n     3\tclass ModelNew:\n     4\t    pass\n'
    r = call(tb, 'Read', file_path=str(ws/'long.txt'))
    assert r.output.splitlines()[-2:] == ['  2000\tx', '[500 more lines: Read with offset=2001]']
    assert call(tb, 'Read', file_path='long.txt', offset=2499, limit=5).output == '  2499\tx\n  2500\tx\n'
    (ws/'blob.bin').write_bytes(b'\x00\x01\x02')
    for path, msg in [('blob.bin', 'binary file'), ('missing.py', 'does not exist'), ('bin', 'is a folder')]:
        r = call(tb, 'Read', file_path=path)
        assert not r.ok and msg in r.output, r.output
    assert 'past the end' in call(tb, 'Read', file_path='model.py', offset=10).output

def test_write_needs_a_read_before_overwriting(tb, ws):
    r = call(tb, 'Write', file_path='model_new.py', content='new\n')
    assert not r.ok and 'was not Read yet' in r.output and (ws/'model_new.py').read_text().startswith('import torch')
    assert call(tb, 'Read', file_path='model_new.py').ok
    r = call(tb, 'Write', file_path='model_new.py', content='import torch\nclass ModelNew: pass\n')
    assert r.ok and list(r.changed) == ['model_new.py']
    assert '-class ModelNew:\n-    pass\n+class ModelNew: pass' in r.changed['model_new.py']
    r = call(tb, 'Write', file_path='kernels/deep/k.cu', content='extern "C" __global__ void k() {}\n')
    assert r.ok and (ws/'kernels'/'deep'/'k.cu').exists() and r.changed['kernels/deep/k.cu'].startswith('--- a/kernels/deep/k.cu')
    assert call(tb, 'Write', file_path='kernels/deep/k.cu', content='// again\n').ok   # its own file counts as seen
    os.mkfifo(ws/'pipe')   # a FIFO must not hang the toolbox
    for name, args in [('Write', dict(file_path='pipe', content='x')), ('Read', dict(file_path='pipe')),
                       ('Grep', dict(pattern='x', path='pipe'))]:
        assert not call(tb, name, **args).ok

def test_edit(tb, ws):
    r = call(tb, 'Edit', file_path='model_new.py', old_string='    pass', new_string='    def forward(self, x): return x')
    assert r.ok and 'def forward' in (ws/'model_new.py').read_text() and '+    def forward' in r.changed['model_new.py']
    (ws/'k.c').write_text('float a; float b;\n')
    r = call(tb, 'Edit', file_path='k.c', old_string='float', new_string='double')
    assert not r.ok and 'found 2 times' in r.output and not r.changed
    assert not call(tb, 'Edit', file_path='k.c', old_string='int', new_string='long').ok
    assert call(tb, 'Edit', file_path='k.c', old_string='float', new_string='double', replace_all=True).ok
    assert (ws/'k.c').read_text() == 'double a; double b;\n'
    assert 'does not exist' in call(tb, 'Edit', file_path='nope.c', old_string='a', new_string='b').output

def test_multiedit_is_all_or_nothing(tb, ws):
    before = (ws/'model_new.py').read_text()
    bad = [dict(old_string='import torch', new_string='import torch, math'), dict(old_string='not there', new_string='x')]
    r = call(tb, 'MultiEdit', file_path='model_new.py', edits=bad)
    assert not r.ok and 'edit 2 of 2' in r.output and 'unchanged' in r.output and (ws/'model_new.py').read_text() == before
    good = [dict(old_string='import torch', new_string='import torch, math'), dict(old_string='math', new_string='math as m'),
            dict(old_string='pass', new_string='x = 1')]
    r = call(tb, 'MultiEdit', file_path='model_new.py', edits=good)
    assert r.ok and (ws/'model_new.py').read_text() == 'import torch, math as m\n\nclass ModelNew:\n    x = 1\n'

# --- Glob, Grep

def test_glob(tb, ws):
    (ws/'kernels').mkdir(); (ws/'kernels'/'a.cu').write_text('x'); time.sleep(0.01); (ws/'kernels'/'b.c').write_text('y')
    (ws/'__pycache__').mkdir(); (ws/'__pycache__'/'c.c').write_text('z')
    (ws/'escape.c').symlink_to('/etc/hostname')
    assert call(tb, 'Glob', pattern='**/*.{c,cu}').output == 'kernels/b.c\nkernels/a.cu'
    assert call(tb, 'Glob', pattern='*.cu', path='kernels').output == 'kernels/a.cu'
    assert call(tb, 'Glob', pattern='*.zip').output.startswith('no files match')
    assert not call(tb, 'Glob', pattern='/etc/*').ok

def test_grep(tb, ws):
    (ws/'kernels').mkdir()
    (ws/'kernels'/'k.cu').write_text('// scale\nextern "C" __global__ void row_scale(float* x) {\n  x[0] *= 2;\n}\n')
    (ws/'kernels'/'k.c').write_text('void row_scale(float* x) {\n  x[0] *= 2;\n}\n')
    assert call(tb, 'Grep', pattern='row_scale').output == 'kernels/k.c\nkernels/k.cu'
    assert call(tb, 'Grep', pattern='ROW_SCALE', ignore_case=True, glob='*.cu').output == 'kernels/k.cu'
    assert call(tb, 'Grep', pattern=r'x\[0\]', output_mode='count').output == 'kernels/k.c:1\nkernels/k.cu:1'
    assert call(tb, 'Grep', pattern='__global__', output_mode='content', context=1).output == \
        'kernels/k.cu-1-// scale\nkernels/k.cu:2:extern "C" __global__ void row_scale(float* x) {\nkernels/k.cu-3-  x[0] *= 2;'
    assert call(tb, 'Grep', pattern='void', output_mode='content', line_numbers=False, path='kernels/k.c').output == \
        'kernels/k.c:void row_scale(float* x) {'
    assert call(tb, 'Grep', pattern=r'\{\n\s+x', multiline=True, output_mode='content', path='kernels/k.c').output == \
        'kernels/k.c:1:void row_scale(float* x) {\nkernels/k.c:2:  x[0] *= 2;'
    r = call(tb, 'Grep', pattern='.', output_mode='content', head_limit=2)
    assert r.output.splitlines()[2].startswith('[head_limit 2:')
    assert call(tb, 'Grep', pattern='nothing here').output == 'no matches for `nothing here`'
    r = call(tb, 'Grep', pattern='(unclosed')
    assert not r.ok and 'not a valid Python regular expression' in r.output

# --- NotebookEdit

def test_notebook_edit(tb, ws):
    nb = {'nbformat': 4, 'nbformat_minor': 4, 'metadata': {}, 'cells': [
        {'cell_type': 'code', 'metadata': {}, 'source': ['x = 1'], 'outputs': [{'output_type': 'stream', 'name': 'stdout', 'text': ['1']}],
         'execution_count': 1}]}
    (ws/'nb.ipynb').write_text(json.dumps(nb))
    load = lambda: json.loads((ws/'nb.ipynb').read_text())
    r = call(tb, 'NotebookEdit', notebook_path='nb.ipynb', cell_id='0', new_source='x = 2')   # no ids yet: an index
    got = load()
    assert r.ok and got['nbformat_minor'] == 5 and got['cells'][0]['outputs'] == [] and got['cells'][0]['source'] == ['x = 2']
    cid = got['cells'][0]['id']
    r = call(tb, 'NotebookEdit', notebook_path='nb.ipynb', cell_id=cid, new_source='# Notes\nsome', cell_type='markdown', edit_mode='insert')
    assert r.ok and [c['cell_type'] for c in load()['cells']] == ['code', 'markdown'] and list(r.changed) == ['nb.ipynb']
    r = call(tb, 'NotebookEdit', notebook_path='nb.ipynb', new_source='import torch', cell_type='code', edit_mode='insert')
    assert r.ok and ''.join(load()['cells'][0]['source']) == 'import torch'
    assert call(tb, 'NotebookEdit', notebook_path='nb.ipynb', cell_id=cid, new_source='', edit_mode='delete').ok
    assert [c['cell_type'] for c in load()['cells']] == ['code', 'markdown'] and all('id' in c for c in load()['cells'])
    for args, msg in [(dict(cell_id='nope', new_source=''), 'no cell has id `nope`'),
                      (dict(new_source='x', edit_mode='insert'), 'needs cell_type'),
                      (dict(new_source='x'), 'needs cell_id')]:
        r = call(tb, 'NotebookEdit', notebook_path='nb.ipynb', **args)
        assert not r.ok and msg in r.output and 'NotebookEdit' in r.output, r.output
    (ws/'bad.ipynb').write_text('{not json')
    assert 'not notebook JSON' in call(tb, 'NotebookEdit', notebook_path='bad.ipynb', new_source='').output
    assert 'not a .ipynb' in call(tb, 'NotebookEdit', notebook_path='model_new.py', new_source='').output

# --- Bash

def test_bash_runs_in_the_workspace(tb, ws):
    r = call(tb, 'Bash', command='pwd; verify; cat; echo to-stderr >&2', description='where am I')
    assert r.ok and r.output == f'{ws}\nverified\nto-stderr\n'   # cwd = root, bin/ on PATH, stdin closed, stderr merged
    r = call(tb, 'Bash', command='echo oops; exit 7')
    assert not r.ok and r.output == 'oops\n[exit code 7]'
    assert call(tb, 'Bash', command='true').output == '(no output)'

def test_bash_timeout_kills_the_process_group(tb, ws):
    t0 = time.time()
    r = call(tb, 'Bash', command='sleep 60 & echo $! > child.pid; echo partial; sleep 60', timeout=1500)
    assert time.time() - t0 < 10 and not r.ok
    assert r.output.startswith('partial\n') and '[timed out after 1500 ms' in r.output
    time.sleep(0.2)
    assert not alive(int((ws/'child.pid').read_text()))

def test_bash_output_is_cut_to_the_budget(ws):
    with Toolbox(ws, output_budget=1000) as tb:
        r = call(tb, 'Bash', command='python -c "print(\'x\' * 50000)"')
        assert len(r.output) < 1100 and '[output cut:' in r.output
        (ws/'big.txt').write_text('y' * 5000)
        r = call(tb, 'Read', file_path='big.txt')
        assert len(r.output) < 1100 and r.output.endswith('more characters]')   # one line longer than the budget
        (ws/'many.txt').write_text('z\n' * 500)
        r = call(tb, 'Read', file_path='many.txt')
        assert len(r.output) <= 1000 and r.output.endswith('more lines: Read with offset=101]\n')   # whole lines that fit

def test_bash_reports_changed_files(tb, ws):
    (ws/'kernels').mkdir(); (ws/'kernels'/'old.c').write_text('int a;\n')
    tb.call('Bash', '{"command": "true"}')   # made behind the toolbox's back: reported by the next Bash call
    r = call(tb, 'Bash', command="sed -i 's/int/long/' kernels/old.c; echo hi > new.txt; rm model_new.py; "
                                 "printf '\\0\\1' > blob.bin; mkdir -p __pycache__ && echo x > __pycache__/c.pyc")
    assert sorted(r.changed) == ['blob.bin', 'kernels/old.c', 'model_new.py', 'new.txt']
    assert '-int a;\n+long a;' in r.changed['kernels/old.c'] and '+hi' in r.changed['new.txt']
    assert '-class ModelNew:' in r.changed['model_new.py'] and 'binary' in r.changed['blob.bin']
    assert call(tb, 'Bash', command='ls').changed == {}

def test_background_shells(tb, ws):
    r = call(tb, 'Bash', command='for i in 1 2 3; do echo step $i; sleep 0.3; done; echo done > out.txt', run_in_background=True)
    assert r.ok and 'bash_1' in r.output
    time.sleep(0.15)
    assert call(tb, 'BashOutput', bash_id='bash_1').output.endswith('[running]')
    wait_for(ws/'out.txt'); time.sleep(0.1)
    last = call(tb, 'BashOutput', bash_id='bash_1', filter='3')
    assert last.output == 'step 3\n[exited with code 0]' and list(last.changed) == ['out.txt']
    r = call(tb, 'Bash', command='sleep 60 & echo $! > bg.pid; wait', run_in_background=True)
    wait_for(ws/'bg.pid')
    r = call(tb, 'KillBash', shell_id='bash_2')
    assert r.ok and r.output == 'killed bash_2'
    time.sleep(0.2)
    assert not alive(int((ws/'bg.pid').read_text()))
    assert 'had already exited' in call(tb, 'KillBash', shell_id='bash_1').output
    for name, args in [('BashOutput', dict(bash_id='bash_9')), ('KillBash', dict(shell_id='nope'))]:
        r = call(tb, name, **args)
        assert not r.ok and 'no background shell' in r.output and not r.malformed
    assert not call(tb, 'BashOutput', bash_id='bash_1', filter='(').ok

def test_close_kills_background_shells(ws):
    tb = Toolbox(ws)
    call(tb, 'Bash', command='sleep 60 & echo $! > bg.pid; wait', run_in_background=True)
    wait_for(ws/'bg.pid')
    tb.close(); time.sleep(0.2)
    assert not alive(int((ws/'bg.pid').read_text()))

def test_bash_environment(ws):
    os.environ['CAL_TEST_SECRET_TOKEN'] = 'leak'
    try:
        with Toolbox(ws, env={'CAL_X': '1'}) as tb:
            assert call(tb, 'Bash', command='echo "$CAL_X[$CAL_TEST_SECRET_TOKEN]"; echo $PATH').output.splitlines() == \
                ['1[]', f'{ws}/bin:{os.environ["PATH"]}']
    finally: del os.environ['CAL_TEST_SECRET_TOKEN']

# --- run_as

def _agent_user() -> str:
    "The `cal-agent` user, created when missing"
    if subprocess.run(['id', '-u', 'cal-agent'], capture_output=True).returncode:
        subprocess.run(['useradd', '--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'cal-agent'], capture_output=True)
    subprocess.run(['id', '-u', 'cal-agent'], check=True, capture_output=True)
    return 'cal-agent'

@pytest.mark.skipif(os.geteuid() != 0, reason="run_as needs root: this test switches to the user cal-agent")
def test_run_as():
    user = _agent_user()
    base = Path(tempfile.mkdtemp(prefix='cal-tools-')); base.chmod(0o755)   # pytest's tmp_path is 0700, closed to other users
    try:
        ws = base/'ws'; ws.mkdir(); ws.chmod(0o777)
        (ws/'model.py').write_text('class Model: pass\n'); (ws/'model.py').chmod(0o444)
        with Toolbox(ws, run_as=user) as tb:
            r = call(tb, 'Bash', command='id -un; echo $HOME')
            assert r.ok and r.output == f'{user}\n{ws}\n'
            r = call(tb, 'Bash', command='echo hacked > model.py')
            assert not r.ok and 'Permission denied' in r.output and (ws/'model.py').read_text() == 'class Model: pass\n'
            assert call(tb, 'Write', file_path='kernels/k.c', content='int a;\n').ok
            assert (ws/'kernels'/'k.c').owner() == user and (ws/'kernels').owner() == user
            r = call(tb, 'Bash', command='echo int b\\; >> kernels/k.c && touch kernels/k2.c')
            assert r.ok and '+int b;' in r.changed['kernels/k.c'] and 'kernels/k2.c' in r.changed
            r = call(tb, 'Bash', command='sleep 60 & echo $! > bg.pid; wait', run_in_background=True)
            pid = int(wait_for(ws/'bg.pid').read_text())
            assert Path(f'/proc/{pid}').owner() == user
            assert call(tb, 'KillBash', shell_id='bash_1').ok
            time.sleep(0.2); assert not alive(pid)
    finally:
        subprocess.run(['rm', '-rf', str(base)])
