"""TRL's GRPOTrainer drives KernelEnv on the CPU: a tiny Qwen2-shaped model, real workspaces and tools, real trusted
evaluations as rewards, and real optimizer steps (no mock of the trainer)."""
import math
from pathlib import Path
import pytest
import torch
from cuda_agent_lab.rollout import read_episodes
from cuda_agent_lab.trl_env import agent_corpus, alternating_script, grpo_trainer, script_generation, tiny_policy, write_file_call

# correct one-file candidates: their C kernels are compiled from strings
CANDIDATES = {p.parent.name: p.read_text() for p in (Path(__file__).parent/'fixtures'/'one_file').glob('*/model_new.py')}


@pytest.mark.slow
def test_grpo_steps_through_kernel_env(tmp_path):
    model, tok = tiny_policy(agent_corpus(extra=[write_file_call('model_new.py', c) for c in CANDIDATES.values()] * 20))
    assert len(tok('<tool_call>', add_special_tokens=False)['input_ids']) == 1
    script_generation(model, tok, alternating_script(CANDIDATES))   # rows 0 and 2 of a group write a candidate, 1 and 3 stop
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    trainer = grpo_trainer(model, tok, 'diag_matmul,gelu', 'cpu', tmp_path/'run', eval_kw=dict(compile=False, profile=False),
                           use_cpu=True, bf16=False, activation_checkpointing=False, learning_rate=1e-3,
                           per_device_train_batch_size=4, num_generations=4, max_completion_length=512, max_steps=2,
                           logging_steps=1, report_to='none', save_strategy='no', max_tool_calling_iterations=2, beta=0.0, seed=0)
    # the prompt TRL renders (its own tool list, from KernelTools's methods) is the one every episode shows a policy
    # (`hf.render_prompt` of the env's opening messages and tools) and the RFT export's rows render: same text
    from cuda_agent_lab.env import KernelEnv
    from cuda_agent_lab.hf import render_prompt
    from cuda_agent_lab.tasks import get_task
    row = trainer.train_dataset[0]
    trl_text = tok.apply_chat_template(conversation=[row['prompt']], tools=trainer._env_tools[None], chat_template=trainer.chat_template,
                                       add_generation_prompt=True, tokenize=False)[0]
    with KernelEnv(get_task(row['task']), 'cpu') as env: msgs, tools = env.reset()
    assert trl_text == render_prompt(tok, msgs, tools) and '"name": "MultiEdit"' in trl_text
    trainer.train()

    reward = trainer.reward
    logged = [h for h in trainer.state.log_history if 'rewards/kernel_reward/mean' in h]
    assert len(logged) == 2 and len(reward.history) == 2
    for h, batch in zip(logged, reward.history):            # what TRL logged is what the environments scored
        assert math.isclose(h['rewards/kernel_reward/mean'], sum(batch['rewards']) / len(batch['rewards']), abs_tol=1e-6), (h, batch)
        assert h['kernel/pass_rate'] == 0.5 and any(k.startswith('kernel/minus1/') for k in h), h
    eps = {e['id']: e for e in read_episodes(tmp_path/'run')}
    assert sorted(i for b in reward.history for i in b['ids']) == sorted(eps)          # every scored episode was recorded
    for h, batch in zip(logged, reward.history):            # the environment's share of the step: its tool calls and final evaluations
        tools = sum(st.get('t_tools_s') or 0 for i in batch['ids'] for st in eps[i]['steps'])
        assert math.isclose(h['kernel/tool_s'], tools, abs_tol=1e-3) and h['kernel/final_eval_s'] > 0, (h, tools)
    written = [e for e in eps.values() if e['files'].get('model_new.py') == CANDIDATES[e['task']]]
    assert len(written) == 4 and {e['task'] for e in written} == {'diag_matmul', 'gelu'}  # the generated calls reached the workspaces
    assert all(e['reward'] == 1 and e['steps'][0]['calls'][0]['name'] == 'Bash' for e in written)
    assert all(e['reward'] == -1 for e in eps.values() if e not in written)             # the starter is not a solution
    # how TRL ended each rollout is in its record: the reply with no tool call is the last turn; the stop reason says
    # whether the candidate had been written (the stoppers' first reply ended the rollout with the stub in place)
    assert all(e['stop_reason'] == 'finished' for e in written)
    assert all(e['stop_reason'] == 'no_tool_call' for e in eps.values() if e not in written)
    assert all(e['messages'][-1] == dict(role='assistant', content='') and 'ended the rollout' in e['steps'][-1]['note'] for e in eps.values())
    assert all(sorted(b['stops']) == ['finished', 'finished', 'no_tool_call', 'no_tool_call'] for b in reward.history)
    assert all(h['kernel/stop/finished'] == 0.5 and h['kernel/stop/no_tool_call'] == 0.5 for h in logged), logged
    changed = [n for n, p in model.named_parameters() if not torch.equal(p.detach(), before[n])]
    assert len(changed) > len(before) // 2, changed                                      # real optimizer steps


def test_end_rollout_records_the_last_reply_and_why_the_rollout_ended(tmp_path):
    "TRL ends a rollout at a reply with no tool call, or at its turn or length cap; the record says which"
    from cuda_agent_lab.env import KernelEnv
    from cuda_agent_lab.trl_env import end_rollout
    def env(): e = KernelEnv('diag_matmul', 'cpu', out=tmp_path, compile=False); e.reset(); return e
    reply = dict(role='assistant', content='<tool_call>\n{"name": "Write", "argu')     # a call whose JSON broke off
    with env() as e:
        e.call('Read', {'file_path': 'model.py'})
        end_rollout(e, [dict(role='assistant', tool_calls=[]), dict(role='tool', content='...'), reply])
        assert e.stop_reason == 'no_tool_call' and e.messages[-1] == dict(reply) and len(e.record['steps']) == 2
        assert e.record['steps'][-1]['note'] == 'the reply that ended the rollout: no tool call'
        assert e.finish().reward == -1 and e.record['stop_reason'] == 'no_tool_call'
    with env() as e:                                      # model_new.py written, then a plain answer: the agent finished
        e.call('Read', {'file_path': 'model_new.py'}); e.call('Write', {'file_path': 'model_new.py', 'content': CANDIDATES['diag_matmul']})
        assert e.candidate_written()
        end_rollout(e, [dict(role='assistant', content='Done: ModelNew scales the rows.')])
        assert e.stop_reason == 'finished' and e.messages[-1]['content'] == 'Done: ModelNew scales the rows.'
    with env() as e:                                      # TRL's cap came at a reply that called tools: nothing added
        n = len(e.messages)
        end_rollout(e, [dict(role='assistant', content='', tool_calls=[dict(type='function', function=dict(name='Read', arguments={}))])])
        assert e.stop_reason == 'rollout_limit' and len(e.messages) == n
    with env() as e:                                      # no conversation to read (a plain-text completion): unchanged
        end_rollout(e, 'text'); end_rollout(e, []); end_rollout(e, None)
        assert e.stop_reason is None and e.record['steps'] == []
