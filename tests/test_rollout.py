"""The ReAct loop end to end: real workspaces, real tools, real sandbox evaluations, a real HTTP policy server."""
import json
import pytest
from cuda_agent_lab.env import Limits
from cuda_agent_lab.rollout import read_episodes, rollout, run_episodes
from cuda_agent_lab.policy import OpenAIPolicy, ReplayPolicy, serve_policy


def calls(ep):
    "(tool, arguments) of every tool call the policy made"
    return [(c['function']['name'], c['function']['arguments'])
            for m in ep['messages'] if m['role'] == 'assistant' for c in m.get('tool_calls') or []]


def oks(ep): return [c['ok'] for s in ep['steps'] for c in s['calls']]


class Scripted:
    "A policy that plays a fixed list of assistant messages, then repeats the last one"
    def __init__(self, *messages, name='fixed'): self.messages, self.name = messages, name
    def act(self, messages, tools):
        k = sum(m['role'] == 'assistant' for m in messages)
        return {'message': self.messages[min(k, len(self.messages) - 1)], 'usage': {'prompt_tokens': 10, 'completion_tokens': 5}}


def call(name, **args): return {'id': f'c-{name}', 'type': 'function', 'function': {'name': name, 'arguments': json.dumps(args)}}
def say(text, *calls_): return {'role': 'assistant', 'content': text, 'tool_calls': list(calls_)}


@pytest.fixture(scope='module')
def scripted(tmp_path_factory):
    out = tmp_path_factory.mktemp('run')
    return rollout('diag_matmul', 'scripted', 'cpu', out=out), out


@pytest.mark.slow
def test_scripted_episode_uses_the_tools_and_ends_in_the_trusted_reward(scripted):
    ep, out = scripted
    assert ep['stop_reason'] == 'finished', ep['steps'][-1]
    assert len({n for n, _ in calls(ep)}) >= 6
    assert ep['evaluation']['correct'] and ep['reward'] == ep['evaluation']['reward'] and ep['reward'] >= 1
    assert ep['evaluation']['violations'] == []
    assert set(ep['files']) == {'model_new.py', 'kernels/row_scale.c'}
    assert read_episodes(out)[0]['id'] == ep['id']
    assert (out/'episodes'/f"{ep['id']}.json").exists()                # the per-step record, final version
    for s in ep['steps']:                                                # steps point at their assistant message
        assert ep['messages'][s['message_index']]['role'] == 'assistant'
    assert ep['versions']['torch'] and ep['locking'] in ('user:cal-agent', 'file-mode')
    wrote = [c for s in ep['steps'] for c in s['calls'] if c['changed']]
    assert any('model_new.py' in c['changed'] for c in wrote)


@pytest.mark.slow
def test_replay_repeats_the_episode(scripted, tmp_path):
    ep, _ = scripted
    rep = rollout('diag_matmul', ReplayPolicy(ep), 'cpu', out=tmp_path)
    assert calls(rep) == calls(ep) and oks(rep) == oks(ep)
    assert rep['files'] == ep['files'] and rep['evaluation']['correct'] and rep['stop_reason'] == 'finished'


@pytest.mark.slow
def test_openai_client_drives_a_full_episode_against_serve_policy(tmp_path):
    srv = serve_policy('scripted')
    try: ep = rollout('gelu', OpenAIPolicy(srv.url, model='scripted', timeout=60), 'cpu', out=tmp_path)
    finally: srv.shutdown()
    assert ep['stop_reason'] == 'finished' and ep['evaluation']['correct'] and ep['reward'] >= 1
    assert ep['policy'] == 'openai:scripted' and len({n for n, _ in calls(ep)}) >= 6
    assert all(s['usage'] for s in ep['steps'])


def test_prose_without_tool_calls_ends_on_the_format_error_limit(tmp_path):
    ep = rollout('gelu', Scripted(say('I would write a kernel here.')), 'cpu', out=tmp_path, limits=Limits(max_format_errors=3))
    assert ep['stop_reason'] == 'format_errors' and len(ep['steps']) == 3 and ep['reward'] == -1
    assert all('no tool call' in s['note'] for s in ep['steps'])
    assert sum(m['role'] == 'user' for m in ep['messages']) == 4        # the task, then three reminders
    assert ep['evaluation']['correct'] is False


def test_bad_tool_calls_are_recorded_and_counted(tmp_path):
    bad = {'id': 'x', 'type': 'function', 'function': {'name': 'Read', 'arguments': '{"file_path": '}}
    ep = rollout('gelu', Scripted(say('look', call('Read', file_path='/etc/passwd'), call('Fetch', url='http://x'), bad)), 'cpu',
                 out=tmp_path, limits=Limits(max_turns=2))
    assert ep['stop_reason'] in ('max_turns', 'format_errors')
    out = [m['content'] for m in ep['messages'] if m['role'] == 'tool']
    assert 'outside' in out[0] and 'Fetch' in out[1] and 'JSON' in out[2]
    assert oks(ep)[:3] == [False, False, False]


def test_turn_limit_and_a_server_that_is_down(tmp_path):
    ep = rollout('gelu', Scripted(say('look', call('Glob', pattern='*'))), 'cpu', out=tmp_path, limits=Limits(max_turns=2))
    assert ep['stop_reason'] == 'max_turns' and len(ep['steps']) == 2
    down = rollout('gelu', OpenAIPolicy('http://127.0.0.1:9/v1', model='m', retries=0, timeout=5), 'cpu', out=tmp_path)
    assert down['stop_reason'] == 'policy_error' and '127.0.0.1:9' in down['steps'][0]['note']
    assert len(read_episodes(tmp_path)) == 2


@pytest.mark.slow
def test_run_episodes_resumes(tmp_path):
    pol = Scripted(say('done, nothing to do'), name='quiet')
    first = run_episodes('gelu,softmax', pol, 'cpu', tmp_path, limits=Limits(max_format_errors=1), progress=False)
    again = run_episodes('gelu,softmax', pol, 'cpu', tmp_path, limits=Limits(max_format_errors=1), progress=False)
    assert len(first) == 2 and again == [] and len(read_episodes(tmp_path)) == 2


class DiesOnce:
    "The scripted expert, except that the first episode to act kills its own worker process (a lost node, an OOM kill)"
    name = 'scripted'
    def __init__(self, marker): self.marker = marker
    def act(self, messages, tools=None):
        import os
        from cuda_agent_lab.policy import ScriptedExpert
        try: os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))   # exactly one episode wins this
        except FileExistsError: return ScriptedExpert().act(messages, tools)
        os._exit(1)


@pytest.mark.slow
def test_ray_backend_runs_episodes_as_tasks_and_retries_a_lost_worker(ray_fake_gpus, tmp_path):
    import os, sys
    ray = ray_fake_gpus
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])   # the workers cannot import this test module
    marker, out = tmp_path/'died', tmp_path/'run'
    eps = run_episodes('gelu,softmax', DiesOnce(str(marker)), 'cpu', out, workers=2, backend='ray', progress=False)
    assert marker.exists()                        # one worker died mid-episode, and still both episodes finished:
    assert sorted(e['task'] for e in eps) == ['gelu', 'softmax']
    assert all(e['stop_reason'] == 'finished' and e['evaluation']['correct'] and e['reward'] >= 1 for e in eps), eps
    assert all(e['ray']['pid'] != os.getpid() and e['ray']['node'] for e in eps)   # they ran in Ray workers
    lines = read_episodes(out)
    assert sorted(e['id'] for e in lines) == sorted(e['id'] for e in eps)       # each written once, by the driver
    assert all((out/'episodes'/f"{e['id']}.json").exists() for e in eps)
    assert run_episodes('gelu,softmax', 'scripted', 'cpu', out, backend='ray', progress=False) == []   # resumes
    assert len(read_episodes(out)) == 2
