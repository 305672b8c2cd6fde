"Policies: the scripted expert on every task, replay, the OpenAI client against real loopback servers, the policy server"
import json, os, socket, sys, textwrap, threading, time, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
import pytest
from cuda_agent_lab.policy import (PolicyError, Policy, ScriptedExpert, ReplayPolicy, OpenAIPolicy, make_policy, serve_policy,
                                   expert_plan, plant_mistake, asked_names, workspace_paths, DRAFT_NOTE, tool_failed)
from cuda_agent_lab.tasks import load_suite
from cuda_agent_lab.jit import parse_signature, CompileError

S = {'type': 'string'}
def _schema(name, **props):
    return {'type': 'function', 'function': {'name': name, 'description': name,
            'parameters': {'type': 'object', 'properties': props, 'additionalProperties': False}}}

# Claude-Code-style schemas, like the workspace's Toolbox offers
TOOLS = [_schema('Bash', command=S), _schema('Read', file_path=S), _schema('Write', file_path=S, content=S),
         _schema('Edit', file_path=S, old_string=S, new_string=S),
         _schema('MultiEdit', file_path=S, edits={'type': 'array', 'items': {'type': 'object',
                 'properties': {'old_string': S, 'new_string': S}}}),
         _schema('Glob', pattern=S, path=S), _schema('Grep', pattern=S, path=S, output_mode=S)]

PROFILE = 'eager 2.90 ms\ncompile 2.40 ms\ncandidate 0.41 ms\nspeedup vs eager 7.07x\nspeedup vs compile 5.85x\nreward 3'

def _defined(files, name):
    return any(f.startswith('kernels/') and _has_def(t, name) for f, t in files.items())

def _has_def(text, name):
    try: parse_signature(text, name); return True
    except CompileError: return False

def fake_tool(files:dict, call:dict, verify_ok=True) -> str:
    "Play the workspace: files in a dict, compile checks that each asked-for kernel is defined, verify/profile canned"
    name, a = call['function']['name'], json.loads(call['function']['arguments'])
    if name == 'Write': files[a['file_path']] = a['content']; return f"wrote {len(a['content'])} characters to {a['file_path']}"
    if name in ('Edit', 'MultiEdit'):
        for e in a.get('edits', [a]):
            text = files.get(a['file_path'], '')
            if text.count(e['old_string']) != 1: return f"{name} {a['file_path']}: old_string was not found. The file is unchanged."
            files[a['file_path']] = text.replace(e['old_string'], e['new_string'])
        return f"{name}: applied edit(s) to {a['file_path']}"
    if name == 'Read': return '     1\tstub'
    if name in ('Glob', 'Grep'): return 'model.py\nmodel_new.py\nSKILL.md\nbin/compile\nbin/verify\nbin/profile'
    out = []
    for cmd in a['command'].split(' && '):
        if cmd == 'compile':
            missing = [n for n in asked_names(files.get('model_new.py', '')) if not _defined(files, n)]
            if missing: return f"compile failed:\nCompileError: no definition of `{missing[0]}(...) {{` found\n[exit code 1]"
            out.append('compiled')
        elif cmd == 'verify':
            if not verify_ok: return 'check 2/5: FAIL max abs diff 0.31\n[exit code 1]'
            out.append('5/5 checks passed')
        elif cmd.startswith('profile'): out.append(PROFILE)
    return '\n'.join(out)

def drive(policy, task='diag_matmul', device='cpu', tools=TOOLS, max_turns=30, files=None, **kw):
    "An episode of `policy` against `fake_tool`: (messages, files)"
    files = {} if files is None else files
    msgs = [{'role': 'system', 'content': 'You write fast kernels.'},
            {'role': 'user', 'content': f'Task: {task}\nLevel: 1\nDevice: {device}\nFormat: fast\n\nMake it faster.'}]
    for _ in range(max_turns):
        m = policy.act(msgs, tools)['message']; msgs.append(m)
        if not m['tool_calls']: break
        for c in m['tool_calls']:
            msgs.append({'role': 'tool', 'tool_call_id': c['id'], 'name': c['function']['name'], 'content': fake_tool(files, c, **kw)})
    return msgs, files

def _assistants(msgs): return [m for m in msgs if m['role'] == 'assistant']

# --- the scripted expert -------------------------------------------------------------------------------------------

def _solved():
    return [(t.name, d) for t in load_suite() for d in ('cpu', 'cuda') if t.solutions[d]]

def test_every_task_has_a_plan_whose_files_are_the_reference():
    "For every built-in task and device with a solution: the draft has a compile-caught slip, and after the fix the files are the reference"
    pairs = _solved()
    assert sum(d == 'cpu' for _, d in pairs) >= 37 and sum(d == 'cuda' for _, d in pairs) >= 37
    for name, dev in pairs:
        sol, plan = expert_plan(name, dev)
        assert sol is not None, (name, dev)
        folder = next(t for t in load_suite(names=[name])).solutions[dev]
        files = {}
        for step in plan:
            for tool, args in step.calls:
                if tool == 'Write': files[args['file_path']] = args['content']
                if tool in ('Edit', 'MultiEdit'):
                    for e in args.get('edits', [args]):
                        assert files[args['file_path']].count(e['old_string']) == 1, (name, dev, tool)
                        files[args['file_path']] = files[args['file_path']].replace(e['old_string'], e['new_string'])
            if step.expect == 'fail':   # the compile step: some kernel model_new.py asks for is not defined in the draft
                assert any(not _defined(files, n) for n in asked_names(files['model_new.py'])), (name, dev)
        ref_kernels = {f'kernels/{f.name}': f.read_text() for f in folder.iterdir() if f.suffix in ('.c', '.cu')}
        assert ref_kernels and all(files[k] == v for k, v in ref_kernels.items()), (name, dev)
        assert files['model_new.py'] == workspace_paths((folder/'model_new.py').read_text()), (name, dev)
        assert DRAFT_NOTE not in files['model_new.py'] and 'with_name' not in files['model_new.py']
        assert all(_defined(files, n) for n in asked_names(files['model_new.py'])), (name, dev)
        assert len({t for s in plan for t, _ in s.calls}) >= 6

def test_first_steps_for_every_task_are_well_formed():
    "The first six turns of every task: tool calls with ids and JSON-string arguments that fit the schemas"
    props = {t['function']['name']: set(t['function']['parameters']['properties']) for t in TOOLS}
    for name, dev in _solved():
        msgs = [{'role': 'user', 'content': f'Task: {name}\nDevice: {dev}\nFormat: fast'}]
        files = {}
        for _ in range(6):
            m = ScriptedExpert().act(msgs, TOOLS)['message']
            assert m['role'] == 'assistant' and m['content'] and m['tool_calls'], (name, dev, m)
            msgs.append(m)
            for c in m['tool_calls']:
                args = json.loads(c['function']['arguments'])
                assert c['id'] and c['type'] == 'function' and set(args) <= props[c['function']['name']]
                msgs.append({'role': 'tool', 'tool_call_id': c['id'], 'name': c['function']['name'], 'content': fake_tool(files, c)})
        assert 'compile failed' in msgs[-1]['content']   # turn 6 is the compile that catches the draft's slip

def test_full_fake_episode_and_summary():
    msgs, files = drive(ScriptedExpert(), 'matvec', 'cuda')
    final = msgs[-1]
    assert final['role'] == 'assistant' and not final['tool_calls']
    assert 'speedup vs eager 7.07x' in final['content'] and 'reward 3' in final['content']
    names = [c['function']['name'] for m in _assistants(msgs) for c in m['tool_calls']]
    assert {'Glob', 'Read', 'Grep', 'Bash', 'Write', 'Edit', 'MultiEdit'} <= set(names)
    assert any('compile failed' in m['content'] for m in msgs if m['role'] == 'tool')

def test_expert_stops_on_unexpected_failure():
    msgs, _ = drive(ScriptedExpert(), verify_ok=False)
    assert not msgs[-1]['tool_calls'] and '`compile && verify` failed' in msgs[-1]['content'] and 'FAIL' in msgs[-1]['content']
    assert len(_assistants(msgs)) == 9     # stopped right after the failing turn, no loop

def test_expert_without_solution_or_task():
    m = ScriptedExpert().act([{'role': 'user', 'content': 'Task: no_such_task\nDevice: cpu'}], TOOLS)['message']
    assert not m['tool_calls'] and 'no_such_task' in m['content']
    with pytest.raises(PolicyError, match='no `Task: NAME` line'): ScriptedExpert().act([{'role': 'user', 'content': 'hi'}], TOOLS)

def test_expert_adapts_to_schema_names():
    tools = [_schema('Read', path=S), _schema('Bash', cmd=S), _schema('Glob', pattern=S)]
    msgs = [{'role': 'user', 'content': 'Task: gelu\nDevice: cpu'}]
    m = ScriptedExpert().act(msgs, tools)['message']
    assert json.loads(m['tool_calls'][0]['function']['arguments']) == {'pattern': '**/*'}
    msgs += [m, {'role': 'tool', 'tool_call_id': m['tool_calls'][0]['id'], 'content': 'model.py'}]
    m = ScriptedExpert().act(msgs, tools)['message']
    assert [json.loads(c['function']['arguments']) for c in m['tool_calls']] == [{'path': 'model.py'}, {'path': 'model_new.py'}]

@pytest.mark.slow
def test_expert_with_the_real_toolbox(tmp_path):
    "Against the real Toolbox (its schemas and rules, e.g. Read before Write), with bin/compile importing the candidate for real"
    import cuda_agent_lab.tools as tools_mod
    ws = tmp_path/'ws'; (ws/'kernels').mkdir(parents=True); (ws/'bin').mkdir()
    (ws/'model.py').write_text('import torch\n'); (ws/'SKILL.md').write_text('# Skill\nKernels must live in kernels/.\n')
    (ws/'model_new.py').write_text('# starter: replace me\n')
    py = sys.executable
    scripts = {'compile': f'#!/bin/sh\nexec {py} -c "import importlib.util as u; s = u.spec_from_file_location(\'m\', \'model_new.py\'); '
                          f'm = u.module_from_spec(s); s.loader.exec_module(m); print(\'compiled\')"\n',
               'verify': '#!/bin/sh\necho "5/5 checks passed"\n', 'profile': f'#!/bin/sh\nprintf "{PROFILE}\\n"\n'}
    for n, t in scripts.items(): (ws/'bin'/n).write_text(t); (ws/'bin'/n).chmod(0o755)
    box = tools_mod.Toolbox(ws)
    try:
        msgs = [{'role': 'user', 'content': 'Task: diag_matmul\nDevice: cpu\nFormat: fast'}]
        for _ in range(20):
            m = ScriptedExpert().act(msgs, box.schemas())['message']; msgs.append(m)
            if not m['tool_calls']: break
            for c in m['tool_calls']:
                r = box.call(c['function']['name'], c['function']['arguments'])
                msgs.append({'role': 'tool', 'tool_call_id': c['id'], 'name': c['function']['name'], 'content': r.output})
    finally: box.close()
    tool_out = [m['content'] for m in msgs if m['role'] == 'tool']
    assert any('no definition of `row_scale' in o for o in tool_out)          # the real compile caught the draft's slip
    assert 'speedup vs eager 7.07x' in msgs[-1]['content'], msgs[-1]['content']
    sol, _ = expert_plan('diag_matmul', 'cpu')
    assert (ws/'model_new.py').read_text() == sol.model_new and (ws/'kernels'/'row_scale.c').read_text() == sol.kernels['row_scale.c']

# --- replay --------------------------------------------------------------------------------------------------------

def test_replay_reemits_exactly(tmp_path):
    msgs, files = drive(ScriptedExpert())
    ep = {'id': 'e1', 'messages': msgs, 'steps': []}
    (tmp_path/'episodes.jsonl').write_text(json.dumps({'id': 'e0', 'messages': []}) + '\n' + json.dumps(ep) + '\n')
    (tmp_path/'ep.json').write_text(json.dumps(ep))
    for src in (ep, tmp_path/'ep.json', f'{tmp_path}/episodes.jsonl#1', f'{tmp_path}/episodes.jsonl#e1', f"replay:{tmp_path}/ep.json"):
        pol = make_policy(src) if isinstance(src, str) and src.startswith('replay:') else ReplayPolicy(src)
        again, files2 = drive(pol)
        assert _assistants(again) == _assistants(msgs) and files2 == files
    assert ReplayPolicy(f'{tmp_path}/episodes.jsonl').episode['id'] == 'e0'
    # after the last recorded message: a closing message without tool calls
    end = ReplayPolicy(ep).act(msgs + [{'role': 'assistant', 'content': 'more?'}], [])['message']
    assert end['tool_calls'] == [] and 'Replay finished' in end['content']

def test_replay_of_a_truncated_episode_ends():
    msgs, _ = drive(ScriptedExpert())
    cut = msgs[:msgs.index(_assistants(msgs)[3]) + 1]
    again, _ = drive(ReplayPolicy({'messages': cut}))
    assert _assistants(again)[:4] == _assistants(cut) and not again[-1]['tool_calls'] and len(_assistants(again)) == 5

# --- the OpenAI client and the policy server over loopback HTTP ----------------------------------------------------

@pytest.fixture
def scripted_server():
    srv = serve_policy(ScriptedExpert())
    yield srv
    srv.shutdown(); srv.server_close()

def test_client_against_served_expert_matches_direct(scripted_server):
    client = OpenAIPolicy(scripted_server.url, retries=0, timeout=30)
    assert client.resolve_model() == 'scripted' and client.name == 'openai:scripted'
    msgs = [{'role': 'system', 'content': 'x'}, {'role': 'user', 'content': 'Task: softmax\nDevice: cuda\nFormat: fast'}]
    files = {}
    for _ in range(8):
        direct, via = ScriptedExpert().act(msgs, TOOLS), client.act(msgs, TOOLS)
        assert via['message'] == direct['message']
        assert via['usage'] == direct['usage']
        msgs.append(via['message'])
        for c in via['message']['tool_calls']:
            msgs.append({'role': 'tool', 'tool_call_id': c['id'], 'name': c['function']['name'], 'content': fake_tool(files, c)})

def test_client_drives_whole_fake_episode_over_http(scripted_server):
    via, f1 = drive(OpenAIPolicy(scripted_server.url, model='scripted', retries=0))
    direct, f2 = drive(ScriptedExpert())
    assert via == direct and f1 == f2 and not via[-1]['tool_calls']

def test_server_answers_openai_shape_and_rejects_bad_bodies(scripted_server):
    url = scripted_server.url
    body = json.dumps({'model': 'x', 'messages': [{'role': 'user', 'content': 'Task: gelu\nDevice: cpu'}], 'tools': TOOLS}).encode()
    with urllib.request.urlopen(urllib.request.Request(url + '/chat/completions', body, {'Content-Type': 'application/json'})) as r:
        reply = json.load(r)
    assert reply['object'] == 'chat.completion' and reply['id'].startswith('chatcmpl-') and isinstance(reply['created'], int)
    assert reply['choices'][0]['finish_reason'] == 'tool_calls' and reply['model'] == 'scripted'
    assert set(reply['usage']) == {'prompt_tokens', 'completion_tokens', 'total_tokens'}
    with urllib.request.urlopen(url + '/models') as r: assert json.load(r)['data'][0]['id'] == 'scripted'
    for bad, what in [(b'{not json', 'not JSON'), (b'{"messages": 3}', 'needs `messages`'), (b'[]', 'needs `messages`'),
                      (json.dumps({'messages': [{'role': 'user', 'content': 'hi'}]}).encode(), 'no `Task: NAME` line')]:
        req = urllib.request.Request(url + '/chat/completions', bad, {'Content-Type': 'application/json'})
        with pytest.raises(urllib.error.HTTPError) as e: urllib.request.urlopen(req)
        assert e.value.code == 400
        assert what in json.loads(e.value.read())['error']['message']

def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def test_down_server_fails_fast_naming_the_url():
    port = _free_port()
    t0 = time.perf_counter()
    with pytest.raises(PolicyError, match=f'cannot reach http://127.0.0.1:{port}/v1/chat/completions') as e:
        OpenAIPolicy(f'http://127.0.0.1:{port}/v1', model='m', retries=1, backoff=0.01).act([{'role': 'user', 'content': 'hi'}], TOOLS)
    assert time.perf_counter() - t0 < 3 and '2 attempts' in str(e.value)

class _Canned:
    "A tiny HTTP server answering every request with (status, body) from `replies` in turn (the last one repeats)"
    def __init__(self, *replies, delay=0.0):
        outer = self
        self.replies, self.delay, self.hits = list(replies), delay, 0
        class H(BaseHTTPRequestHandler):
            def log_message(self, *a): pass
            def _answer(self):
                if self.command == 'POST': self.rfile.read(int(self.headers.get('Content-Length') or 0))
                i = min(outer.hits, len(outer.replies) - 1); outer.hits += 1
                time.sleep(outer.delay)
                code, body = outer.replies[i]
                body = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(code); self.send_header('Content-Length', str(len(body))); self.end_headers()
                try: self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError): pass
            do_GET = do_POST = _answer
        self.srv = ThreadingHTTPServer(('127.0.0.1', 0), H); self.srv.daemon_threads = True
        threading.Thread(target=self.srv.serve_forever, kwargs={'poll_interval': 0.05}, daemon=True).start()
        self.url = f'http://127.0.0.1:{self.srv.server_address[1]}/v1'
    def __enter__(self): return self
    def __exit__(self, *a): self.srv.shutdown(); self.srv.server_close()

def _act(url, **kw):
    return OpenAIPolicy(url, model='qwen', retries=kw.pop('retries', 0), backoff=0.01, **kw).act([{'role': 'user', 'content': 'hi'}], TOOLS)

def test_malformed_json_reply():
    with _Canned((200, b'<html>hello</html>')) as s, pytest.raises(PolicyError, match='not a JSON object'): _act(s.url)

def test_reply_without_choices():
    with _Canned((200, {'object': 'chat.completion', 'choices': []})) as s, pytest.raises(PolicyError, match='without choices'): _act(s.url)
    with _Canned((200, {'error': {'message': 'model overloaded'}})) as s, pytest.raises(PolicyError, match='without choices.*model overloaded'): _act(s.url)

def test_400_tool_calling_not_enabled():
    vllm = {'object': 'error', 'message': '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
            'type': 'BadRequestError', 'code': 400}
    with _Canned((400, vllm)) as s, pytest.raises(PolicyError) as e: _act(s.url)
    msg = str(e.value)
    assert f'model qwen at {s.url} does not accept tool calls' in msg and '--enable-auto-tool-choice --tool-call-parser' in msg
    assert s.hits == 1      # a 4xx is not retried
    with _Canned((400, {'error': 'registry.ollama.ai/library/gemma:2b does not support tools'})) as s, \
         pytest.raises(PolicyError, match='does not accept tool calls'): _act(s.url)

def test_other_http_errors():
    with _Canned((401, {'error': {'message': 'bad key'}})) as s, pytest.raises(PolicyError, match='HTTP 401: bad key; check OPENAI_API_KEY'): _act(s.url)
    with _Canned((503, b'busy')) as s, pytest.raises(PolicyError, match=r'HTTP 503 \(3 attempts\): busy'): _act(s.url, retries=2)

def test_5xx_is_retried_then_succeeds():
    ok = {'choices': [{'message': {'role': 'assistant', 'content': None, 'tool_calls': [
          {'id': 'c1', 'type': 'function', 'function': {'name': 'Bash', 'arguments': {'command': 'compile'}}}]}}],
          'usage': {'prompt_tokens': 10, 'completion_tokens': 4, 'total_tokens': 14}}
    with _Canned((502, b'bad gateway'), (200, ok)) as s:
        r = _act(s.url, retries=2)
    assert r['message']['tool_calls'][0]['function']['arguments'] == '{"command": "compile"}'
    assert r['usage'] == {'prompt_tokens': 10, 'completion_tokens': 4} and r['message']['content'] is None

def test_timeout():
    with _Canned((200, {'choices': []}), delay=1.5) as s, pytest.raises(PolicyError, match='did not answer within 0.3 s'):
        _act(s.url, timeout=0.3)

def test_model_from_env_and_server(monkeypatch):
    monkeypatch.setenv('CAL_OPENAI_BASE_URL', 'http://127.0.0.1:1/v1/'); monkeypatch.setenv('CAL_MODEL', 'qwen3')
    p = make_policy('openai')
    assert p.base_url == 'http://127.0.0.1:1/v1' and p.model == 'qwen3' and p.name == 'openai:qwen3'
    assert make_policy('openai:other').model == 'other'
    monkeypatch.delenv('CAL_MODEL'); monkeypatch.delenv('OPENAI_MODEL', raising=False)
    with _Canned((200, {'object': 'list', 'data': [{'id': 'Qwen/Qwen3-8B'}]})) as s:
        p = OpenAIPolicy(s.url, retries=0)
        assert p.name == 'openai:default' and p.resolve_model() == 'Qwen/Qwen3-8B' and p.name == 'openai:Qwen/Qwen3-8B'

def test_make_policy_and_protocol():
    assert isinstance(make_policy('scripted'), ScriptedExpert) and isinstance(make_policy('scripted'), Policy)
    p = ScriptedExpert(); assert make_policy(p) is p
    with pytest.raises(ValueError, match='unknown policy'): make_policy('gpt4')
    with pytest.raises(ValueError, match='replay needs a file'): make_policy('replay:')
