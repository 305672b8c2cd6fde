"""The stepper, the kernel inspector and the speedup-plot link, driven from Python on the sample episodes (CPU only, no browser)."""
import json
from pathlib import Path
import pytest
import ipywidgets as W
from cuda_agent_lab.widgets import (KernelInspector, Stepper, checker_of, episode_steps, link_explorer, load_episodes,
                                    side_by_side, verdict_html, widget_html, widget_text)

ROOT = Path(__file__).parents[1]
FIXTURE = ROOT/'tests'/'fixtures'/'episodes-sample.jsonl'
DIAG_CPU = ROOT/'kernels'/'level1'/'diag_matmul'/'cpu'

@pytest.fixture(scope='module')
def eps(): return load_episodes(FIXTURE)

def by_id(eps, i): return next(e for e in eps if e['id'] == i)

# --- the stepper ---------------------------------------------------------------------------------------------------

def test_stepper_sources(eps, tmp_path):
    "One dict, a list, a path to episodes.jsonl and a single-episode .json all work; the chooser shows only for several"
    assert len(Stepper(FIXTURE).episodes) == 3 and len(Stepper(eps).chooser.options) == 3
    one = Stepper(eps[0])
    assert one.chooser.layout.display == 'none' and one.slider.max == len(episode_steps(eps[0]))
    p = tmp_path/'ep.json'; p.write_text(json.dumps(eps[1]))
    assert Stepper(p).episode['id'] == 'gelu-openai-0'
    with pytest.raises(FileNotFoundError, match='no such episodes file'): Stepper(tmp_path/'none.jsonl')

def test_slider_renders_each_turn(eps):
    "Setting the slider's value is what renders: reasoning, highlighted calls and outputs, diffs"
    s = Stepper(eps)
    views = []
    for i in range(s.slider.max + 1):
        s.slider.value = i
        views.append(widget_html(s.view))
    assert len(set(views)) == len(views), 'every position renders something different'
    write = views[2]                                        # the turn that writes the kernel and model_new.py
    assert 'A[:, None] * B' in widget_text_of(write)
    assert '#pragma' in widget_text_of(write) and 'style="color' in write          # C highlighted by pygments
    assert 'files changed' in write and '+++ b/kernels/row_scale.c' in widget_text_of(write)
    assert 'cal-code' in write and 'background:#e6ffec' not in views[0]
    assert 'turn 3' in widget_text_of(write) and s.position.value == f'end of {s.chooser.label}'

def widget_text_of(h): return widget_text(W.HTML(h))

def test_buttons_move_the_slider(eps):
    s = Stepper(eps)
    s.next.click(); assert s.slider.value == 1
    s.prev.click(); s.prev.click(); assert s.slider.value == 0
    for _ in range(20): s.next.click()
    assert s.slider.value == s.slider.max                       # stops at the end
    assert 'trusted evaluation' in widget_text(s.view) and 'reward 3' in widget_text(s.view)

def test_next_check_jumps_to_compile_verify_profile(eps):
    s = Stepper(eps)
    seen = []
    for _ in range(5):
        s.next_check.click(); seen.append(s.slider.value)
    assert seen == [1, 3, 4, 5, 5]
    assert 'no later compile/verify/profile' in s.position.value
    assert 'runs bin/profile' in widget_text(s.view)
    s.slider.value = 4
    assert 'PASS: 5/5 checks' in widget_text(s.view)

def test_long_output_folds_and_errors_are_red(eps):
    s = Stepper(eps); s.select('gelu-openai-0')
    s.slider.value = 2                                          # bin/compile with a long compiler error
    acc = [w for w in s.view.children if isinstance(w, W.Accordion)]
    assert acc and acc[0].titles[0].endswith('more lines') and acc[0].selected_index is None
    assert 'implicit declaration' in widget_text(s.view) and 'exit code 1' in widget_html(acc[0])
    s.slider.value = 3                                          # an Edit whose old_string is not there: ok=False
    h = widget_html(s.view)
    assert 'failed' in widget_text(s.view) and '#cf222e' in h and 'old_string not found' in widget_text(s.view)
    assert 'replace' in widget_text(s.view) and 'with' in widget_text(s.view)

def test_episode_without_turns(eps):
    s = Stepper(eps); s.select('softmax-openai-0')
    assert (s.slider.min, s.slider.max, s.slider.value) == (0, 0, 0)
    t = widget_text(s.view)
    assert 'policy_error' in t and 'reward -1' in t and 'runtime_error' in t and 'no turns' in s.position.value
    s.next.click(); s.next_check.click(); s.prev.click()         # nothing to move to, nothing breaks
    assert s.slider.value == 0

def test_choosing_an_episode_resets_the_position(eps):
    s = Stepper(eps); s.slider.value = 5
    s.chooser.value = 1
    assert s.slider.value == 0 and s.slider.max == s.play.max == 6 and 'turn 1' in widget_text(s.view)
    assert 'Task: gelu' in widget_html(s.prompt)

def test_play_is_jslinked_to_the_slider(eps):
    s = Stepper(eps)
    assert s.play_link.source == (s.play, 'value') and s.play_link.target == (s.slider, 'value')

def test_checker_of():
    assert checker_of('bin/compile') == 'compile' and checker_of('./bin/verify --json') == 'verify'
    assert checker_of('cd /w && timeout 300 profile') == 'profile'
    assert checker_of('echo verify') is None and checker_of('vim bin/profile') is None

# --- verdict and inspector -----------------------------------------------------------------------------------------

def test_verdict(eps):
    ok, bad = verdict_html(eps[0]['evaluation']), verdict_html(eps[1]['evaluation'])
    for s in ('reward 3', 'checks 5/5', '191x', '47.3x', 'no violations'): assert s in ok, s
    for s in ('reward -1', 'not correct', 'incorrect', 'reduced_precision', 'max abs error 0.0203'): assert s in bad, s

def test_inspector_reads_the_row_scaling_at_a_glance(eps):
    ki = KernelInspector('diag_matmul', DIAG_CPU, eps[0]['evaluation'])
    head = widget_text(W.VBox([ki.head]))
    assert head.startswith('diag(A) @ B as a row scaling') and 'O(N*M) scaling' in head
    assert '47.3x vs torch.compile' in head and '191x vs eager' in head
    assert 'class="cal-del"' in ki.diff.value and 'class="cal-add"' in ki.diff.value   # diff markers
    assert 'torch.diag' in widget_text_of(ki.diff.value) and 'row_scale' in widget_text_of(ki.diff.value)
    kern = widget_text_of(ki.kernels.value)
    assert (DIAG_CPU/'row_scale.c').read_text().strip() in kern                      # the kernel in full
    assert 'style="color' in ki.kernels.value and 'reward 3' in ki.verdict.value

def test_inspector_from_episode_and_show(eps):
    ki = KernelInspector.from_episode(eps[1])
    assert 'sigmoid' in ki.head.value and 'kernels/gelu.c' in ki.kernels.value and 'incorrect' in ki.verdict.value
    assert 'BATCH = 512' in widget_text_of(ki.diff.value)         # model.py as the agent saw it on the CPU
    ki.show_episode(eps[0])
    assert 'row scaling' in ki.head.value and 'gelu' not in ki.kernels.value
    with pytest.raises(FileNotFoundError, match='no model_new.py'): KernelInspector('gelu', ROOT/'kernels')

def test_side_by_side_pairs_lines():
    d = side_by_side('a\nb\nc\n', 'a\nB\nc\nd\n', lang='text')
    assert d.count('cal-del') == 1 and d.count('cal-add') == 2 and d.count('<tr>') == 1 + 4

# --- the speedup explorer hook ---------------------------------------------------------------------------------------

def test_link_explorer_click_opens_the_episode(eps):
    import plotly.graph_objects as go   # in the `lab` extra
    from plotly.callbacks import Points
    fig = go.FigureWidget([go.Scatter(x=[1, 2], y=[47.3, 0], customdata=[[e['id'], e['task']] for e in eps[:2]]),
                           go.Scatter(x=[3], y=[0], customdata=[eps[2]['id']])])
    ki, s = KernelInspector(), Stepper(eps)
    assert 'click a point' in ki.head.value
    link_explorer(fig, FIXTURE, ki, s)
    fig.data[0]._dispatch_on_click(Points(point_inds=[1], trace_index=0), None)
    assert 'sigmoid' in ki.head.value and s.episode['id'] == 'gelu-openai-0'
    fig.data[1]._dispatch_on_click(Points(point_inds=[0], trace_index=1), None)     # second trace, scalar customdata
    assert s.episode['id'] == 'softmax-openai-0' and 'runtime_error' in ki.verdict.value
    fig.data[0]._dispatch_on_click(Points(point_inds=[0], trace_index=0), None)
    assert 'row scaling' in ki.head.value and s.slider.value == 0
