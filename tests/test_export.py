"""`cal demo` end to end, then the paper's warm-up data from its run folder: `cal export rft` (read by a real TRL
`SFTTrainer` step on the tiny model) and `cal export value`; bad input named by file and line, the rest exported."""
import json, shutil
import pytest
import torch
from cuda_agent_lab.cli import run
from cuda_agent_lab.export import read_split, verl_rows


@pytest.fixture(scope='module')
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp('demo')
    import contextlib, io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): code = run(['demo', '--tasks', 'diag_matmul', '--out', str(out), '--workers', '1'])
    return code, buf.getvalue(), out


@pytest.mark.slow
def test_cal_demo_writes_the_summary_and_report(demo):
    code, out, folder = demo
    assert code == 0 and '| level 1 | 1 | 100.0%' in out and 'report.html' in out
    html = (folder/'report.html').read_text()
    assert 'plotly' in html and '<script src="http' not in html
    assert {'results.csv', 'results.parquet', 'summary.md', 'episodes.jsonl'} <= {p.name for p in folder.iterdir()}


@pytest.mark.slow
def test_exports_of_the_demo_run_and_an_sft_step_on_them(demo, tmp_path, capsys):
    from trl import SFTConfig, SFTTrainer
    from cuda_agent_lab.trl_env import tiny_policy
    _, _, folder = demo
    broken = tmp_path/'broken'; broken.mkdir()                       # a second run, killed while writing its first line
    (broken/'episodes.jsonl').write_text('{"id": "half-writ')
    assert run(['export', 'rft', f'{folder},{broken},{tmp_path/"nowhere"}', '--out', str(tmp_path/'rft'), '--val', '0']) == 0
    said = capsys.readouterr().out
    assert f'{broken}/episodes.jsonl: skipped 1 incomplete line 1' in said and 'nowhere: no such file' in said
    assert '1 kept' in said
    ds = read_split(tmp_path/'rft'/'train.parquet')
    row = ds[0]
    assert row['task'] == 'diag_matmul' and row['reward'] >= 1 and row['messages'][-1]['role'] == 'assistant'

    from cuda_agent_lab.tools import chat_schemas
    assert json.loads(row['tools']) == chat_schemas()                 # the tools as TRL's GRPO renders them (tests/test_trl.py)
    model, tok = tiny_policy()
    text = tok.apply_chat_template(row['messages'], tools=json.loads(row['tools']), tokenize=False)
    call = next(c for m in row['messages'] if m.get('tool_calls') for c in m['tool_calls'])
    assert '<tool_call>\n' + json.dumps({'name': call['function']['name'], 'arguments': call['function']['arguments']}) in text
    assert 'null' not in json.dumps([c for m in row['messages'] for c in m.get('tool_calls') or []])   # no merged-in empty fields
    # verl's multi-turn SFT form, read the way its dataset reads it (pandas, arrays as lists), renders the same conversation
    v = verl_rows(tmp_path/'rft'/'verl'/'train.parquet')[0]
    assert v['id'] == row['id'] and json.loads(v['tools_json']) == json.loads(row['tools'])
    assert all(isinstance(c['function']['arguments'], str) for m in v['messages'] for c in m.get('tool_calls') or [])
    from trl.chat_template_utils import qwen3_chat_template      # a template that takes arguments as JSON text or as objects
    verl_text = tok.apply_chat_template(v['messages'], tokenize=False, chat_template=qwen3_chat_template)
    assert verl_text == tok.apply_chat_template(row['messages'], tokenize=False, chat_template=qwen3_chat_template)
    assert json.dumps(call['function']['arguments']) in verl_text and 'null' not in verl_text
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    args = SFTConfig(output_dir=str(tmp_path/'sft'), use_cpu=True, bf16=False, max_steps=1, per_device_train_batch_size=1,
                     learning_rate=1e-3, logging_steps=1, report_to='none', save_strategy='no', max_length=None)
    trainer = SFTTrainer(model=model, processing_class=tok, args=args, train_dataset=ds)
    trainer.train()
    assert trainer.state.log_history[0]['loss'] > 0 and trainer.state.log_history[0]['num_tokens'] > 1000
    assert sum(not torch.equal(p.detach(), before[n]) for n, p in model.named_parameters()) > len(before) // 2

    assert run(['export', 'value', str(folder), '--out', str(tmp_path/'value'), '--val', '0']) == 0
    v = read_split(tmp_path/'value'/'train.jsonl')[0]
    assert v['rewards'][-1] == v['reward'] >= 1 and set(v['mc_returns']) == {float(v['reward'])}
    assert len(v['turns']) == len(v['advantages']) == len(v['value_targets']) and v['advantages'][-1] == v['reward']
    assert run(['export', 'value', str(broken), '--out', str(tmp_path/'none')]) == 2      # nothing exportable: a clear error
    assert 'no episodes to export' in capsys.readouterr().err
