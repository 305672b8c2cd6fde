"""The local Hugging Face policy (issue 37): `hf:PATH` loads a saved tiny model (config-built, tokenizer trained here),
`cal rollout` runs two CPU episodes with it batched in one process and records the generated text; a model made to
emit a fixed well-formed call writes real files in the workspace and earns the trusted reward; a malformed call is a
format error; `cal serve-policy`'s server answers through it over HTTP."""
import json, subprocess, sys
from pathlib import Path
import pytest
from cuda_agent_lab.env import Limits
from cuda_agent_lab.hf import HFPolicy
from cuda_agent_lab.policy import OpenAIPolicy, make_policy, reference_solution, serve_policy
from cuda_agent_lab.rollout import read_episodes, rollout
from cuda_agent_lab.skill import remove_workspace
from cuda_agent_lab.trl_env import script_generation, tiny_policy, write_file_call


@pytest.fixture(scope='module')
def tiny_folder(tmp_path_factory):
    model, tok = tiny_policy(seed=0)
    folder = tmp_path_factory.mktemp('ckpt')/'tiny'
    model.save_pretrained(folder); tok.save_pretrained(folder)
    return folder


def forced(script):
    "A tiny policy whose generation is `script(row, prompt_text)` (a logits processor forces the tokens)"
    model, tok = tiny_policy(seed=0)
    return HFPolicy(model=script_generation(model, tok, script), tokenizer=tok, name='hf:forced', temperature=0.0, max_new_tokens=4096)


def test_cal_rollout_runs_two_episodes_of_a_saved_checkpoint_in_one_batch(tiny_folder, tmp_path):
    cal = Path(sys.executable).with_name('cal')
    r = subprocess.run([str(cal), 'rollout', '--tasks', 'diag_matmul,gelu', '--policy', f'hf:{tiny_folder}', '--workers', '2',
                        '--max-turns', '3', '--max-new-tokens', '12', '--temperature', '1.0', '--seed', '0', '--pool', '--out', str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    eps = read_episodes(tmp_path)
    assert sorted(e['task'] for e in eps) == ['diag_matmul', 'gelu'] and {e['policy'] for e in eps} == {'hf:tiny'}
    steps = [s for e in eps for s in e['steps']]
    assert all(e['stop_reason'] == 'max_turns' and len(e['steps']) == 3 for e in eps)   # random text: no call, no candidate
    assert all(isinstance(s['generated'], str) and s['generated'] for s in steps)
    assert all(0 < s['usage']['completion_tokens'] <= 12 for s in steps)
    assert max(s['usage']['batch_size'] for s in steps) == 2, [s['usage'] for s in steps]   # both episodes in one generate
    again = subprocess.run([str(cal), 'rollout', '--tasks', 'diag_matmul,gelu', '--policy', f'hf:{tiny_folder}', '--out', str(tmp_path)],
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and '2 episodes already done, 0 to run' in again.stdout, again.stdout + again.stderr


def test_a_forced_well_formed_call_writes_the_workspace_and_earns_the_reward():
    sol = reference_solution('diag_matmul', 'cpu')
    text = '\n'.join([write_file_call(f'kernels/{n}', t) for n, t in sol.kernels.items()] + [write_file_call('model_new.py', sol.model_new)])
    pol = forced(lambda row, prompt: '' if '<tool_response>' in prompt else text)
    ep = rollout('diag_matmul', pol, 'cpu', compile=False, keep_workspace=True)
    first = ep['steps'][0]
    assert [c['name'] for c in first['calls']] == ['Bash'] * (len(sol.kernels) + 1) and all(c['ok'] for c in first['calls'])
    assert first['generated'].count('<tool_call>') == len(sol.kernels) + 1
    ws = Path(ep['workspace'])
    try: assert (ws/'model_new.py').read_text().strip() == sol.model_new.strip()
    finally: remove_workspace(ws)
    assert ep['stop_reason'] == 'finished' and ep['evaluation']['correct'] and ep['reward'] >= 1


def test_a_malformed_call_is_a_format_error():
    bad = '<tool_call>\n{"name": "Read", "arguments": {"file_path": \n</tool_call>'
    pol = forced(lambda row, prompt: '' if '<tool_response>' in prompt else bad)
    ep = rollout('diag_matmul', pol, 'cpu', limits=Limits(max_turns=2))
    call = ep['steps'][0]['calls'][0]
    answer = next(m for m in ep['messages'] if m.get('role') == 'tool')
    assert call.get('format_error') and not call['ok'] and 'not one JSON object' in answer['content']
    assert ep['format_errors'] >= 1 and ep['reward'] == -1


def test_serve_policy_answers_with_the_checkpoint_over_http(tiny_folder):
    pol = make_policy(f'hf:{tiny_folder}', temperature=0.0, max_new_tokens=8, seed=0)
    srv = serve_policy(pol)
    try:
        client = OpenAIPolicy(srv.url, retries=0, timeout=120)
        assert client.resolve_model() == 'hf:tiny'
        r = client.act([{'role': 'user', 'content': 'Task: diag_matmul'}], [])
        direct = pol.act([{'role': 'user', 'content': 'Task: diag_matmul'}], [])
        assert r['message']['content'] == direct['message']['content'] and r['usage']['completion_tokens'] == direct['usage']['completion_tokens']
    finally: srv.shutdown(); srv.server_close(); pol.close()
