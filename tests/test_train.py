"""The paper's pipeline on the CPU at toy scale (`cuda_agent_lab.train`): scripted data, a real TRL SFT run that resumes
from its checkpoint, the fine-tuned model rolled out as an `hf:` policy on training and held-out tasks, real GRPO steps
through KernelEnv on trusted rewards, figures and a report written as it goes, and a rerun that skips what is done."""
import json
from pathlib import Path
import pytest
import torch
from cuda_agent_lab.rollout import read_episodes
from cuda_agent_lab.train import read_log, rft, run_pipeline, stage_record
from cuda_agent_lab.trl_env import alternating_script

CANDIDATES = {p.parent.name: p.read_text() for p in (Path(__file__).parent/'fixtures'/'one_file').glob('*/model_new.py')}
KW = dict(tasks='diag_matmul', held_out='gelu', device='cpu', size='tiny', rft_steps=3, eval_turns=1, max_new_tokens=24,
          grpo_steps=2, grpo_generations=4, grpo_turns=2, grpo_temperature=0.9, eval_kw=dict(compile=False))


@pytest.mark.slow
def test_pipeline_stages_resume_and_report(tmp_path):
    out, said = tmp_path/'run', []
    run_pipeline(out, stages=('data',), log=said.append, **KW)
    data = stage_record(out, 'data')
    assert data['kept'] == 1 and data['rewards']['diag_matmul'] >= 1 and (out/'rft-data'/'train.parquet').exists()
    assert 'No trainer step' in (out/'report.html').read_text() and '(not run yet)' in (out/'summary.md').read_text()

    # a cut RFT run resumes from its checkpoint: 2 steps, then the same run asked for 4 goes on from step 2
    from cuda_agent_lab.train import build_model
    init = build_model(out, 'tiny')
    rft(out, init, 'cpu', steps=2, log=said.append)
    assert (out/'rft'/'trainer'/'checkpoint-2').is_dir()
    rft(out, init, 'cpu', steps=4, log=said.append)
    steps = read_log(out/'rft'/'log.jsonl')
    assert [r['step'] for r in steps if 'loss' in r] == [1, 2, 3, 4] and all(r['loss'] > 0 for r in steps if 'loss' in r)
    assert not (out/'rft'/'trainer'/'checkpoint-2').exists() and (out/'rft'/'trainer'/'checkpoint-4').is_dir()
    import shutil; shutil.rmtree(out/'rft')

    script = alternating_script(CANDIDATES)
    def cut_in_step2(i, text):   # the run is cut in GRPO's second step: what the first wrote stays, and a rerun resumes
        if any('rewards' in r for r in read_log(out/'grpo'/'log.jsonl')): raise RuntimeError('cut in the second GRPO step')
        return script(i, text)
    with pytest.raises(RuntimeError, match='cut in the second GRPO step'): run_pipeline(out, script=cut_in_step2, log=said.append, **KW)
    assert stage_record(out, 'grpo') is None and (out/'grpo'/'trainer'/'checkpoint-1').is_dir()
    assert 'id="fig-grpo-reward"' in (out/'report.html').read_text() and (out/'figures'/'grpo-seconds.json').exists()
    assert '## grpo (running, or cut: 1 steps logged' in (out/'summary.md').read_text()
    step1 = next(r for r in read_log(out/'grpo'/'log.jsonl') if 'rewards' in r)   # the cut run's summary: the logged step's rewards
    assert f"| 1 | {' '.join(f'{x:g}' for x in step1['rewards'])} |" in (out/'summary.md').read_text()
    done = run_pipeline(out, script=script, log=said.append, **KW)        # GRPO goes on from its step-1 checkpoint
    assert any(s.startswith('data: done already') for s in said)
    assert set(done) == {'data', 'rft', 'eval', 'grpo'}
    assert done['rft']['steps'] == 3 and done['rft']['last_loss'] > 0
    ev = done['eval']
    assert ev['train']['episodes'] == 1 and ev['held_out']['episodes'] == 1 and set(ev['held_out']['rewards']) == {'gelu'}
    eps = read_episodes(out/'eval'/'train') + read_episodes(out/'eval'/'held_out')
    assert {e['policy'] for e in eps} == {'hf:model'} and all(e['steps'] for e in eps)   # the checkpoint acted
    assert done['grpo']['temperature'] == 0.9                              # the rollouts sampled as asked
    g = [r for r in read_log(out/'grpo'/'log.jsonl') if 'rewards' in r]
    assert len(g) == 2 and all(len(r['rewards']) == 4 and 'kernel/pass_rate' in r for r in g)
    assert all(r['kernel/generate_s'] > 0 and r['kernel/generate_calls'] >= 1 and r['kernel/decode_steps'] > 0 for r in g), g   # the rollouts' generation, timed
    got = [x for r in g for x in r['rewards']]
    assert got.count(-1.0) == 4 and all(x >= 1 for x in got if x != -1.0)   # the written candidates pass, the rest do not
    from safetensors.torch import load_file
    a, b = load_file(out/'rft'/'model'/'model.safetensors'), load_file(out/'grpo'/'model'/'model.safetensors')
    assert sum(not torch.equal(a[k], b[k]) for k in a) > len(a) // 2       # GRPO took real optimizer steps
    html = (out/'report.html').read_text()
    for fig in ('rft-loss', 'rft-accuracy', 'eval-rewards', 'grpo-reward', 'grpo-reward-dist', 'grpo-spread', 'grpo-minus1', 'grpo-seconds',
                'grpo-eph', 'grpo-stop'):
        assert f'id="fig-{fig}"' in html and (out/'figures'/f'{fig}.json').exists(), fig
    import plotly.io as pio, statistics
    spread = pio.read_json(out/'figures'/'grpo-spread.json').data   # the std of each step's rewards, and TRL's share of one-reward groups
    assert list(spread[0].y) == pytest.approx([statistics.pstdev(r['rewards']) for r in g])
    assert list(spread[1].y) == [r['frac_reward_zero_std'] for r in g] and all(0 <= y <= 1 for y in spread[1].y)
    assert html.count('plotly.js v') <= 1 and '<script src="http' not in html
    md = (out/'summary.md').read_text()
    assert 'Toy scale' in md and '| held_out | 1 |' in md and '(not run yet)' not in md
    assert '| step | rewards | std |' in md and md.count('\n| 2 | ') == 1      # both GRPO steps in the table
    assert md.count('| finished 2, no_tool_call 2 |') == 2 and all(sorted(r['stops']) == ['finished'] * 2 + ['no_tool_call'] * 2 for r in g)
    ended = pio.read_json(out/'figures'/'grpo-stop.json').data       # how each step's rollouts ended
    assert {b.name: list(b.y) for b in ended} == {'finished': [2, 2], 'no_tool_call': [2, 2]}

    n = len(read_episodes(out/'episodes'))
    said.clear(); run_pipeline(out, log=said.append, **KW)                  # everything done: nothing runs again
    assert all('done already' in s for s in said) and len(said) == 4 and len(read_episodes(out/'episodes')) == n


def test_cal_train_refuses_bad_stages_a_missing_checkpoint_and_bad_pool_options(tmp_path, capsys):
    from cuda_agent_lab.cli import run
    assert run(['train', '--stages', 'data,fine-tune', '--out', str(tmp_path/'a')]) == 2
    assert "stages ['fine-tune']: use some of data, rft, eval, grpo" in capsys.readouterr().err
    assert run(['train', '--stages', 'grpo', '--out', str(tmp_path/'b')]) == 2
    assert 'no RFT checkpoint; run the rft stage first' in capsys.readouterr().err
    assert run(['train', '--eval-gpus', '1', '--waiting', '2', '--out', str(tmp_path/'c')]) == 2   # before any stage runs
    assert 'gpus=1 is for device cuda' in capsys.readouterr().err and not (tmp_path/'c'/'stages').exists()
    with pytest.MonkeyPatch.context() as m:
        m.setenv('CUDA_VISIBLE_DEVICES', '0,1')
        assert run(['train', '--device', 'cuda', '--eval-gpus', '1,3', '--out', str(tmp_path/'d')]) == 2
    assert 'GPU 3 is not visible here (visible: 0,1' in capsys.readouterr().err


def _one_conversation(out):
    from cuda_agent_lab.export import write_split
    msgs = [dict(role='system', content='You write CUDA kernels.'), dict(role='user', content='Which file holds the task?'),
            dict(role='assistant', content='The task is in model.py; the kernel goes in kernels/.')]
    write_split([dict(id='a', messages=msgs)], out/'rft-data', set())
    return msgs


def test_rft_trains_until_the_model_reproduces_its_data(tmp_path):
    "RFT stops when a greedy rollout would write the data's replies (checked teacher-forced over the whole set), not after a fixed count"
    from cuda_agent_lab.hf import load_hf
    from cuda_agent_lab.train import build_model, summary_md, _finish
    out = tmp_path/'run'; msgs = _one_conversation(out)
    r = rft(out, build_model(out, 'tiny'), 'cpu', steps=400, lr=3e-3, until=1.0, check_every=5, log=lambda s: None)
    checks = [x for x in read_log(out/'rft'/'log.jsonl') if 'reproduce_accuracy' in x]
    assert r['reproduced'] and r['wrong_tokens'] == 0 and r['tokens'] > 0 and r['steps'] < 400, r
    assert r['scope'] == 'replies' and r['all_wrong_tokens'] >= 0 and 0 < r['all_tokens_accuracy'] <= 1
    assert checks[0]['reproduce_accuracy'] < 1 and checks[-1]['step'] == r['steps'] and checks[-1]['wrong_tokens'] == 0
    assert all(x['reproduce_accuracy'] < 1 for x in checks[:-1])          # it stopped at the first check that passed
    model, tok = load_hf(out/'rft'/'model', 'cpu')                        # the saved model, greedy, writes the reply itself
    ids = tok.apply_chat_template(msgs[:2], add_generation_prompt=True, return_tensors='pt', return_dict=True)
    with torch.no_grad(): gen = model.generate(**ids, max_new_tokens=40, do_sample=False)
    assert tok.decode(gen[0, ids['input_ids'].shape[1]:], skip_special_tokens=True).strip() == msgs[2]['content']
    _finish(out, 'rft', r)
    assert f"stopped at step {r['steps']} of at most 400" in summary_md(out)

    short = tmp_path/'short'; _one_conversation(short)                   # a cap reached first: said plainly, not hidden
    s = rft(short, build_model(short, 'tiny'), 'cpu', steps=2, lr=3e-3, until=1.0, log=lambda s: None)
    assert s['steps'] == 2 and not s['reproduced'] and s['wrong_tokens'] > 0
    _finish(short, 'rft', s)
    assert f"Does not reproduce the RFT set: {s['wrong_tokens']} of {s['tokens']} tokens of the replies" in summary_md(short)


def test_reply_tokens_are_the_assistant_turns(tmp_path):
    "the stop's check counts what a rollout generates: each assistant turn, its role line and closing marker, nothing else"
    from transformers import AutoTokenizer
    from cuda_agent_lab.train import build_model, reply_tokens
    out = tmp_path/'run'; msgs = _one_conversation(out)
    tok = AutoTokenizer.from_pretrained(build_model(out, 'tiny'))
    msgs = msgs + [dict(role='user', content='And then?'), dict(role='assistant', content='Then compile it.')]
    ids = tok.apply_chat_template(msgs, tokenize=True, return_dict=True)['input_ids']
    mask = reply_tokens(ids, tok)
    assert len(mask) == len(ids)
    assert tok.decode([t for t, m in zip(ids, mask) if m]) == f"assistant\n{msgs[2]['content']}<|im_end|>assistant\nThen compile it.<|im_end|>"
    class NoMarkers:   # a chat format without Qwen's turn markers: the check falls back to every trained token
        unk_token_id = 0
        def convert_tokens_to_ids(self, t): return 0
    assert reply_tokens([1, 2, 3], NoMarkers()) is None
