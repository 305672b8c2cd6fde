"""The agent's workspace: its layout and locks, and bin/compile, bin/verify, bin/profile run the way the agent runs them
(as `cal-agent` when the tests run as root), in real subprocesses."""
import json, os, pwd, re, shutil, stat, subprocess, sys
from pathlib import Path
import pytest
from cuda_agent_lab.skill import (FORMATS, Workspace, blocked_dirs, make_workspace, namespaces_work, python_paths, remove_workspace,
                                  skill_md, source_checkout)
from cuda_agent_lab.tasks import get_task

TASK = 'diag_matmul'


@pytest.fixture
def ws():
    w = make_workspace(TASK, device='cpu')
    yield w
    remove_workspace(w)
    assert not w.root.exists()


def run(ws, *argv, timeout=900):
    "Run `argv` in the workspace as the agent would"
    return subprocess.run(ws.agent_argv([str(a) for a in argv]), capture_output=True, text=True, cwd=ws.root, timeout=timeout)


def put(ws, rel, text):
    "Write a file of the agent's (owned by the agent user, as the tools would leave it)"
    p = ws.root/rel
    p.write_text(text)
    if ws.run_as: os.chown(p, pwd.getpwnam(ws.run_as).pw_uid, pwd.getpwnam(ws.run_as).pw_gid)


def write_solution(ws):
    "The suite's C solution, with its kernel moved under kernels/"
    sol = get_task(TASK).solutions['cpu']
    for f in sol.glob('*.c'): put(ws, f'kernels/{f.name}', f.read_text())
    put(ws, 'model_new.py', re.sub(r"Path\(__file__\)\.with_name\('([^']+)'\)", r"Path(__file__).parent / 'kernels' / '\1'",
                                   (sol/'model_new.py').read_text()))


def test_skill_md_variants():
    for dev in ('cpu', 'cuda'):
        for fmt in FORMATS:
            s = skill_md(dev, fmt)
            assert len(s.splitlines()) <= 150, (dev, fmt)
            for must in ('t < 0.95 * t0', 'atol = rtol = 1e-2', '| -1 |', '| 3 | correct and faster than both', 'bin/verify',
                         'bin/profile --reference', 'torch.nn.functional', 'No state across calls', 'reduced-precision',
                         'no tool call', '`# cal: allow'):
                assert must in s, (dev, fmt, must)
    assert "cuda_kernel(Path(__file__).parent / 'kernels' / 'silu.cu', 'silu')" in skill_md('cuda') and 'cdiv(' in skill_md('cuda')
    assert "c_function(Path(__file__).parent / 'kernels' / 'silu.c', 'silu')" in skill_md('cpu') and '#pragma omp' in skill_md('cpu')
    assert 'cuda_kernel' not in skill_md('cpu') and 'c_function' not in skill_md('cuda')
    for dev in ('cpu', 'cuda'):
        w = skill_md(dev, 'workdir')
        assert all(x in w for x in ('_binding.cpp', 'CAL_REGISTER', 'cal_binding.h', 'import cuda_extension'))
        assert 'cuda_kernel(' not in w and 'c_function(' not in w


def test_layout_and_modes(ws):
    r = ws.root
    assert sorted(p.name for p in r.iterdir()) == ['SKILL.md', 'bin', 'kernels', 'model.py', 'model_new.py']
    assert sorted(p.name for p in (r/'bin').iterdir()) == ['compile', 'profile', 'verify']
    assert (r/'model.py').read_text() == get_task(TASK).source_for('cpu')
    md = (r/'SKILL.md').read_text()
    assert md.startswith(skill_md('cpu')) and f'Task: `{TASK}`' in md
    assert 'stub' in (r/'model_new.py').read_text() and list((r/'kernels').iterdir()) == []
    script = (r/'bin'/'verify').read_text()
    assert script.startswith('#!/bin/sh') and '-m cuda_agent_lab.skill verify' in script and sys.executable in script
    mode = lambda p: stat.S_IMODE(p.stat().st_mode)
    assert (mode(r/'model.py'), mode(r/'SKILL.md'), mode(r/'bin'), mode(r/'bin'/'profile')) == (0o444, 0o444, 0o555, 0o555)
    assert Workspace.from_dict(json.loads(json.dumps(ws.to_dict()))) == ws
    if ws.run_as:   # root, with an agent user that can run this Python
        agent = pwd.getpwnam('cal-agent').pw_uid
        assert (ws.locking, ws.run_as) == ('user:cal-agent', 'cal-agent')
        assert [p.stat().st_uid for p in (r/'model.py', r/'SKILL.md', r/'bin', r/'bin'/'verify')] == [0, 0, 0, 0]
        assert [p.stat().st_uid for p in (r/'model_new.py', r/'kernels')] == [agent, agent]
        assert mode(r) & stat.S_ISVTX and ws.cache.stat().st_uid == agent
    else:
        assert (ws.locking, ws.run_as) == ('file-mode', None)


def test_fresh_folders(tmp_path):
    (tmp_path/'x').write_text('')
    with pytest.raises(FileExistsError, match='is not empty'): make_workspace(TASK, root=tmp_path)
    w = make_workspace(TASK, root=tmp_path/'new', unprivileged=False)
    assert w.locking == 'file-mode' and (tmp_path/'new'/'bin'/'compile').exists()
    remove_workspace(w)
    assert not (tmp_path/'new').exists()


def test_agent_cannot_touch_locked_files(ws):
    tries = {'write model.py': 'echo x > model.py', 'append SKILL.md': 'echo x >> SKILL.md', 'add to bin/': 'touch bin/evil',
             'replace bin/verify': 'echo "echo PASSED" > bin/verify'}
    if ws.run_as: tries.update({'delete model.py': 'rm -f model.py', 'rename bin': 'mv bin bin2', 'chmod model.py': 'chmod 666 model.py'})
    for what, cmd in tries.items():
        assert run(ws, 'sh', '-c', cmd).returncode != 0, what
    assert (ws.root/'model.py').read_text() == get_task(TASK).source_for('cpu') and 'verify' in (ws.root/'bin'/'verify').read_text()
    r = run(ws, 'sh', '-c', 'echo "# mine" >> model_new.py && echo "void f(void) {}" > kernels/f.c && mkdir kernels/sub && touch notes.txt')
    assert r.returncode == 0, r.stderr


@pytest.mark.slow
def test_agent_sees_python_but_not_the_solutions(ws):
    if not ws.run_as: pytest.skip('the agent is this process\'s user (not root)')
    r = run(ws, sys.executable, '-P', '-c', 'import cuda_agent_lab.skill, torch; print("ok")')
    assert r.returncode == 0 and r.stdout.strip() == 'ok', r.stderr
    if source_checkout() and namespaces_work():
        sol = get_task(TASK).solutions['cpu']/'row_scale.c'
        assert run(ws, 'cat', sol).returncode != 0
    if not blocked_dirs('cal-agent', python_paths()):   # then the plain form works too
        assert subprocess.run(['runuser', '-u', 'cal-agent', '--', sys.executable, '-c', 'import torch'], cwd=ws.root).returncode == 0


def test_command_line_errors(tmp_path):
    py = [sys.executable, '-P', '-m', 'cuda_agent_lab.skill']
    r = subprocess.run([*py, 'verify', '--reference', '--root', str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and '--reference goes with profile only' in r.stderr
    r = subprocess.run([*py, 'verify', '--root', str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and 'model.py not found' in r.stderr


@pytest.mark.slow
def test_feedback_commands_on_a_solution(ws):
    write_solution(ws)
    r = run(ws, ws.root/'bin'/'compile')
    assert r.returncode == 0 and r.stdout.startswith('compile: OK'), r.stdout + r.stderr
    r = run(ws, ws.root/'bin'/'verify')
    assert r.returncode == 0 and 'verify: PASSED (5 of 5 checks)' in r.stdout, r.stdout + r.stderr
    r = run(ws, ws.root/'bin'/'profile', '--reference')
    assert r.returncode == 0 and re.search(r'eager PyTorch\s+[\d.]+ ms', r.stdout) and 'torch.compile' in r.stdout, r.stdout + r.stderr
    r = run(ws, ws.root/'bin'/'profile', '--json')
    res = json.loads(r.stdout)
    assert r.returncode == 0 and res['correct'] and res['reward'] >= 1 and res['violations'] == [], r.stdout[-3000:]
    assert res['t_candidate_ms'] > 0 and res['t_eager_ms'] > 0 and res['command'] == 'profile'
    r = run(ws, 'bin/profile')   # relative, from the workspace, as the agent types it
    assert r.returncode == 0 and r.stdout.startswith('profile: reward') and 'speedup vs eager' in r.stdout, r.stdout + r.stderr


@pytest.mark.slow
def test_compile_errors_are_the_compilers(ws):
    r = run(ws, 'bin/compile')
    assert r.returncode == 1 and 'still the stub' in r.stdout, r.stdout
    write_solution(ws)
    put(ws, 'kernels/row_scale.c', 'void row_scale(const float* d, const float* B, float* out, long N, long M) {\n'
                                  '    out[0] = d[0] * B[0]\n}\n')
    r = run(ws, 'bin/compile')
    assert r.returncode == 1 and 'compile: FAILED' in r.stdout and 'kernels/row_scale.c:2:' in r.stdout and 'error' in r.stdout, r.stdout


@pytest.mark.slow
def test_verify_shows_what_is_wrong(ws):
    write_solution(ws)
    put(ws, 'kernels/row_scale.c', 'void row_scale(const float* d, const float* B, float* out, long N, long M) {\n'
                                  '    for (long i = 0; i < N * M; i++) out[i] = B[i];\n}\n')
    r = run(ws, 'bin/verify', '--json')
    res = json.loads(r.stdout)
    assert r.returncode == 1 and not res['correct'] and res['violations'][0] == 'incorrect', res['violations']   # (+ the precision flag)
    put(ws, 'model_new.py', (ws.root/'model_new.py').read_text().replace('out = torch.empty_like(B)', 'out = torch.empty_like(B) + 0'))
    r = run(ws, 'bin/verify')
    assert r.returncode == 1 and 'verify: FAILED' in r.stdout and '[torch_fallback]' in r.stdout and 'aten.add' in r.stdout, r.stdout


SILU_TASK = '''"""SiLU: x * sigmoid(x), the task of SKILL.md's examples."""
import torch
import torch.nn as nn

N = 1 << 16


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x * torch.sigmoid(x)


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
'''


def example(tmp_path, device, fmt):
    "SKILL.md's example for `device` and `fmt`, written out as a candidate folder"
    files = dict(re.findall(r"`((?:kernels/)?[\w.]+)`:\n\n```\w*\n(.*?)```", skill_md(device, fmt), flags=re.S))
    assert 'model_new.py' in files and any(f.startswith('kernels/') for f in files), files.keys()
    d = tmp_path/f'{device}-{fmt}'
    for rel, text in files.items():
        (d/rel).parent.mkdir(parents=True, exist_ok=True); (d/rel).write_text(text)
    return d


@pytest.mark.parametrize('device', ['cpu', 'cuda'])
@pytest.mark.parametrize('fmt', FORMATS)
def test_skill_examples_pass_the_static_checks(tmp_path, device, fmt):
    from cuda_agent_lab.guard import check_candidate
    assert check_candidate(example(tmp_path, device, fmt)) == []


def test_skill_cuda_example_compiles_with_nvrtc(tmp_path):
    from cuda_agent_lab.jit import nvrtc_check, nvrtc_library
    try: nvrtc_library()
    except RuntimeError: pytest.skip('no libnvrtc here')
    nvrtc_check(example(tmp_path, 'cuda', 'fast')/'kernels'/'silu.cu', 'silu')


@pytest.mark.slow
@pytest.mark.parametrize('fmt', FORMATS)
def test_skill_cpu_examples_are_correct(tmp_path, fmt):
    "The C example and the C++ workdir example pass the trusted evaluation's checks (the workdir one builds an extension: minutes)"
    from cuda_agent_lab.sandbox import evaluate
    (tmp_path/'silu').mkdir(); (tmp_path/'silu'/'model.py').write_text(SILU_TASK)
    r = evaluate(tmp_path/'silu'/'model.py', example(tmp_path, 'cpu', fmt), 'cpu', profile=False, timeout=1800)
    assert r['correct'] and r['violations'] == [], (r['violations'], r['error'])
