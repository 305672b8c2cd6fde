"""Served feedback (issue 35, part 1): bin/ commands answered by the harness's FeedbackServer over the workspace's
socket, on an evaluation pool's warm workers; hostile requests from inside the workspace are refused before anything is
evaluated; a scripted episode gets the same verdict served and unserved."""
import json, shutil, subprocess, sys, time
from pathlib import Path
import pytest
from cuda_agent_lab.serve import FeedbackServer, MAX_REQUEST
from cuda_agent_lab.skill import make_workspace, remove_workspace
from cuda_agent_lab.tasks import get_task

HOSTILE = r'''
import json, socket, sys
path, tok = sys.argv[1], sys.argv[2]
def ask(raw):
    s = socket.socket(socket.AF_UNIX); s.connect(path); s.sendall(raw); s.shutdown(socket.SHUT_WR)
    b = b''.join(iter(lambda: s.recv(65536), b'')); s.close()
    print(json.loads(b)['text'] if b else '(closed)')
req = lambda **kw: (json.dumps(dict(dict(token=tok, command='verify', reference=False, json=False), **kw)) + '\n').encode()
ask(req(token='0' * 32))                                        # another workspace's token
ask(req(candidate='/etc/passwd'))                               # a path the server should evaluate instead
ask(req(command='verify; rm -rf /'))                            # a command the server does not know
ask(b'{' * 5000 + b'\n')                                        # longer than a request may be
ask(b'\xff\xfe\n')                                              # not JSON
'''


@pytest.fixture
def served_ws():
    ws = make_workspace('diag_matmul', device='cpu', served=True)
    sol = Path(get_task('diag_matmul').solutions['cpu'])
    shutil.copyfile(sol/'row_scale.c', ws.root/'kernels'/'row_scale.c')
    (ws.root/'model_new.py').write_text((sol/'model_new.py').read_text().replace("with_name('row_scale.c')", "parent/'kernels'/'row_scale.c'"))
    yield ws
    remove_workspace(ws)


def test_hostile_requests_from_inside_the_workspace_are_refused(served_ws):
    ws = served_ws
    tok = (ws.root/'bin'/'verify').read_text().split('"$root" ')[1].split()[0]   # the agent can read its own bin/ scripts
    with FeedbackServer(ws) as srv:
        r = subprocess.run(ws.agent_argv([sys.executable, '-I', '-S', '-c', HOSTILE, str(srv.path), tok]), cwd=ws.root,
                           capture_output=True, text=True, timeout=60)
        lines = r.stdout.strip().splitlines()
        assert len(lines) == 5 and all(l.startswith('bin: request refused:') for l in lines), (r.stdout, r.stderr)
        assert "token is not this workspace's" in lines[0] and 'exactly the keys' in lines[1] and 'unknown command' in lines[2]
        assert f'longer than {MAX_REQUEST}' in lines[3] and 'not one line of JSON' in lines[4]
        assert srv.evaluations == 0 and len(srv.refused) == 5
        ok = subprocess.run(ws.agent_argv(['bin/verify']), cwd=ws.root, capture_output=True, text=True, timeout=300)
        assert ok.returncode == 0 and 'verify: PASSED' in ok.stdout and srv.evaluations == 1, (ok.stdout, ok.stderr)


def test_served_episode_on_a_pool_matches_the_unserved_one():
    from cuda_agent_lab.pool import EvalPool
    from cuda_agent_lab.rollout import rollout
    t0 = time.time(); old = rollout('diag_matmul', 'scripted', device='cpu', served=False); t_old = time.time() - t0
    with EvalPool('cpu', workers=1) as pool:
        t0 = time.time(); new = rollout('diag_matmul', 'scripted', device='cpu', pool=pool); t_new = time.time() - t0
    print(f'scripted diag_matmul episode: {t_old:.1f} s through fresh processes, {t_new:.1f} s served on a pool')
    # the same trusted verdict (the reward itself moves with the timings of a shared CPU, so only its floor is compared)
    assert old['evaluation']['correct'] and new['evaluation']['correct'] and min(old['reward'], new['reward']) >= 1
    assert not old.get('feedback') and len(new['feedback']) >= 5, (old.get('feedback'), new.get('feedback'))
    assert {'compile', 'verify', 'profile'} <= {f['command'] for f in new['feedback']}


def test_an_episode_whose_server_cannot_start_runs_its_commands_directly(tmp_path, monkeypatch):
    import cuda_agent_lab.serve as serve
    from cuda_agent_lab.env import KernelEnv
    def refuse(sock, path): raise OSError(98, 'Address already in use')
    monkeypatch.setattr(serve, 'bind_unix', refuse)
    with KernelEnv('diag_matmul', 'cpu', out=tmp_path, policy='trl', compile=False) as env:
        env.reset()
        rec = env.record
        assert env.server is None and rec['served'] is False and 'Address already in use' in rec['served_error']
        assert not (env.ws.root/serve.SOCKET_NAME).exists()
        out = env.call('Bash', {'command': 'bin/compile'})['content']
        assert 'does not answer' not in out and 'compile' in out, out
