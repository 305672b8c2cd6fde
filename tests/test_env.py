"""KernelEnv driven by hand: crafted assistant messages (good calls, format errors, a limit, a tool that crashes, a
candidate never written), one tool call at a time, raw `<tool_call>` text, and four final evaluations overlapping on
one pool. Real workspaces, real tools, real sandbox evaluations on the CPU."""
import json, shutil, time
from pathlib import Path
import pytest
from cuda_agent_lab.env import KernelEnv, Limits, finish_all
from cuda_agent_lab.policy import reference_solution
from cuda_agent_lab.rollout import read_episodes

FAST = dict(compile=False)   # the final verdicts here need correctness and a reward, not the torch.compile baseline


def tool(name, i=0, **args):
    return {'id': f'c{i}-{name}', 'type': 'function', 'function': {'name': name, 'arguments': json.dumps(args)}}


def say(text, *calls): return {'role': 'assistant', 'content': text, 'tool_calls': list(calls)}


def solve(task):
    "Two assistant messages that read model_new.py, then write the reference solution into the workspace"
    sol = reference_solution(task, 'cpu')
    writes = [tool('Write', i, file_path=f'kernels/{n}', content=t) for i, (n, t) in enumerate(sol.kernels.items())]
    return [say('reading', tool('Read', file_path='SKILL.md'), tool('Read', 1, file_path='model_new.py')),
            say(None, *writes, tool('Write', 9, file_path='model_new.py', content=sol.model_new))]


def live_in_group(pgid):
    "Processes of group `pgid` that are not zombies (this container's init may not reap the ones it inherits)"
    found = []
    for d in Path('/proc').iterdir():
        try: fields = (d/'stat').read_text().rsplit(')', 1)[1].split()
        except (OSError, IndexError): continue
        if int(fields[2]) == pgid and fields[0] != 'Z': found.append(int(d.name))
    return found


def on_disk(out, ep_id): return json.loads((Path(out)/'episodes'/f'{ep_id}.json').read_text())


def test_good_calls_end_in_the_trusted_reward_and_the_record_grows_each_step(tmp_path):
    with KernelEnv('diag_matmul', 'cpu', out=tmp_path, policy='hand', **FAST) as env:
        messages, tools = env.reset()
        assert [m['role'] for m in messages] == ['system', 'user'] and 'Task: diag_matmul' in messages[1]['content']
        assert {t['function']['name'] for t in tools} >= {'Bash', 'Read', 'Write', 'Edit'}
        root, eid = env.ws.root, env.record['id']
        assert eid == 'diag_matmul.cpu.hand.0' and on_disk(tmp_path, eid)['steps'] == []
        for n, m in enumerate(solve('diag_matmul'), 1):
            new, reward, done, info = env.step(m)
            assert (reward, done) == (None, False) and all(x['role'] == 'tool' for x in new)
            assert len(on_disk(tmp_path, eid)['steps']) == n                # written after every step
        assert 'SKILL' in new[0]['content'] or 'wrote' in new[-1]['content']
        new, reward, done, info = env.step(say('model_new.py is written and verified.'))
    assert done and new == [] and info['stop_reason'] == 'finished' and info['id'] == eid
    ev = info['evaluation']
    assert ev['correct'] and reward == ev['reward'] >= 1 and ev['violations'] == [], ev
    rec = read_episodes(tmp_path)[0]
    assert rec == on_disk(tmp_path, eid) and rec['reward'] == reward and rec['format_errors'] == 0
    assert set(rec['files']) == {'model_new.py', 'kernels/row_scale.c'} and len(rec['steps']) == 3
    assert [rec['messages'][s['message_index']]['role'] for s in rec['steps']] == ['assistant'] * 3
    assert rec['final_eval']['ended'] >= rec['final_eval']['started']
    assert not root.exists() and env.ws is None                             # the verdict is in, the workspace is gone
    assert env.finish() is env.finish() and env.finish().reward == reward   # finishing again changes nothing
    with pytest.raises(RuntimeError, match='episode is over'): env.step(say('more'))


def test_format_errors_are_answered_marked_counted_and_end_the_episode(tmp_path):
    bad_json = {'id': 'b1', 'type': 'function', 'function': {'name': 'Read', 'arguments': '{"file_path": '}}
    no_name = {'id': 'b2', 'type': 'function', 'function': {'arguments': '{}'}}
    with KernelEnv('gelu', 'cpu', limits=Limits(max_format_errors=6), out=tmp_path, **FAST) as env:
        env.reset()
        new, reward, done, _ = env.step(say('go', tool('Fetch', url='http://x'), tool('Read', 1, path='SKILL.md'), bad_json,
                                           no_name, tool('Glob', 2, pattern='*')))
        out = [m['content'] for m in new]
        assert 'unknown tool `Fetch`' in out[0] and 'file_path' in out[1] and 'JSON' in out[2] and 'no function name' in out[3]
        assert 'model.py' in out[4] and not done                           # a good call beside bad ones still runs
        marks = [c.get('format_error', False) for c in env.record['steps'][0]['calls']]
        assert marks == [True, True, True, True, False] and env.record['format_errors'] == 4
        new, reward, done, _ = env.step(say('I would write a kernel here.'))  # talk without a tool call, nothing written
        assert new[0]['role'] == 'user' and 'no tool call' in new[0]['content'] and not done
        new, reward, done, info = env.step_text('<tool_call>{"name": "Read", "arguments": {"file_path": </tool_call>')
    assert 'not one JSON object' in new[0]['content']
    assert done and info['stop_reason'] == 'format_errors' and env.record['format_errors'] == 6
    assert reward == -1 and info['evaluation']['correct'] is False        # the starter model_new.py is not a solution
    assert read_episodes(tmp_path)[0]['stop_reason'] == 'format_errors'


def test_turn_limit_and_a_candidate_that_is_never_written(tmp_path):
    with KernelEnv('gelu', 'cpu', limits=Limits(max_turns=2), out=tmp_path, **FAST) as env:
        env.reset()
        _, reward, done, _ = env.step(say('look', tool('Bash', command='rm model_new.py')))
        assert not done and reward is None
        new, reward, done, info = env.step(say('look again', tool('Glob', pattern='*')))
    assert done and info['stop_reason'] == 'max_turns' and 'model.py' in new[0]['content']
    ev = info['evaluation']
    assert reward == -1 and ev['violations'] == ['missing_file'] and 'without a model_new.py' in ev['error']
    assert env.record['files'] == {} and read_episodes(tmp_path)[0]['reward'] == -1


def test_a_tool_that_crashes_and_a_driver_that_crashes_leave_nothing_behind(tmp_path):
    with pytest.raises(ZeroDivisionError):
        with KernelEnv('gelu', 'cpu', out=tmp_path, **FAST) as env:
            env.reset()
            root = env.ws.root
            new, *_ = env.step(say('wait', tool('Bash', command='sleep 300', run_in_background=True)))
            assert 'bash_1' in new[0]['content']
            pid = env.box.shells['bash_1'].proc.pid                          # the shell's process, as this machine sees it
            assert live_in_group(pid)
            shutil.rmtree(root)                                              # the workspace vanishes under the tools
            new, reward, done, _ = env.step(say('list', tool('Bash', command='ls')))
            assert 'Bash failed: FileNotFoundError' in new[0]['content'] and not done   # the crash is the call's output
            call = env.record['steps'][-1]['calls'][0]
            assert call['ok'] is False and 'format_error' not in call and env.record['format_errors'] == 0
            1 / 0                                                            # and then the driver itself crashes
    assert env.ws is None and env.box is None and not root.exists()
    assert live_in_group(pid) == []                                         # the agent's background shell was killed
    assert len(on_disk(tmp_path, env.record['id'])['steps']) == 2 and not (tmp_path/'episodes.jsonl').exists()
    with pytest.raises(RuntimeError, match='after close'): env.finish()


def test_one_tool_call_at_a_time_then_finish(tmp_path):
    sol = reference_solution('diag_matmul', 'cpu')
    with KernelEnv('diag_matmul', 'cpu', out=tmp_path, policy='trl', **FAST) as env:
        env.reset()
        assert 'ModelNew' in env.call('Read', {'file_path': 'model_new.py'})['content']
        for n, t in sol.kernels.items(): env.call('Write', json.dumps({'file_path': f'kernels/{n}', 'content': t}))
        msg = env.call('Write', {'file_path': 'model_new.py', 'content': sol.model_new})
        assert msg['role'] == 'tool' and 'wrote' in msg['content'] and not env.done
        rec = env.record
        assert len(rec['steps']) == 3 and all(len(s['calls']) == 1 for s in rec['steps'])   # each call its own assistant turn
        assert [m['role'] for m in rec['messages'][2:4]] == ['assistant', 'tool']
        assert rec['messages'][2]['tool_calls'][0]['id'] == rec['messages'][3]['tool_call_id']
        res = env.finish()
    assert res.done and res.reward >= 1 and res.info['evaluation']['correct'] and env.record['stop_reason'] == 'finished'
    late = env.call('Read', {'file_path': 'model.py'})
    assert 'episode is over' in late['content'] and len(env.record['steps']) == 3


def test_linked_files_never_reach_the_final_candidate_or_the_record(tmp_path):
    "The harness copies the candidate out following no link: a kernels/ file linked to a file only the harness can read stays behind"
    secret = tmp_path/'secret.txt'; secret.write_text('the harness only'); secret.chmod(0o600)
    sol = reference_solution('diag_matmul', 'cpu')
    with KernelEnv('diag_matmul', 'cpu', out=tmp_path, **FAST) as env:
        env.reset()
        for n, t in sol.kernels.items(): env.call('Write', {'file_path': f'kernels/{n}', 'content': t})
        made = env.call('Bash', {'command': f'ln -s {secret} kernels/leak.txt; mkdir -p kernels/d; ln -s {tmp_path} kernels/d/up; ls -l kernels kernels/d'})
        assert 'leak.txt ->' in made['content'] and 'up ->' in made['content'], made['content']
        env.call('Read', {'file_path': 'model_new.py'})
        env.call('Write', {'file_path': 'model_new.py', 'content': sol.model_new})
        res = env.finish()
    assert res.reward >= 1 and not any('leak' in f or '/up' in f for f in env.record['files']), env.record['files']
    assert 'the harness only' not in json.dumps(env.record)


def test_four_final_evaluations_overlap_on_one_pool(tmp_path):
    from cuda_agent_lab.pool import EvalPool
    envs = [KernelEnv('diag_matmul', 'cpu', out=tmp_path, policy='group', k=k, **FAST) for k in range(4)]   # a GRPO group
    try:
        for e in envs:
            e.reset()
            for m in solve(e.task.name): e.step(m)
        with EvalPool('cpu', workers=4) as pool:
            t0 = time.time()
            got = list(finish_all(envs, pool))
            wall = time.time() - t0
    finally:
        for e in envs: e.close()
    assert sorted(e.record['id'] for e, _ in got) == [f'diag_matmul.cpu.group.{k}' for k in range(4)]
    assert all(r.done and r.reward >= 1 and r.info['evaluation']['correct'] for _, r in got), [r.info for _, r in got]
    windows = [e.record['final_eval'] for e in envs]
    assert max(w['started'] for w in windows) < min(w['ended'] for w in windows), windows   # all four ran at once
    assert wall < sum(w['seconds'] for w in windows), (wall, windows)
    assert sorted(e['id'] for e in read_episodes(tmp_path)) == [f'diag_matmul.cpu.group.{k}' for k in range(4)]
