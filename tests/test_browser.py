"""The widgets and plots in a real browser: JupyterLab on loopback, driven by headless Chromium through Playwright.

Needs playwright (`pip install -e '.[browser]'`) and Chromium (`apt-get install -y chromium`; `CAL_CHROMIUM` points elsewhere).
A missing browser fails these tests (deselect them with -m 'not browser' on a machine without Chromium). Screenshots go to the test's tmp_path,
and to `$CAL_SCREENSHOT_DIR` when that is set (e.g. reports/browser).
"""
import os, shutil, sys, time
from pathlib import Path
import pytest

sys.path.insert(0, str(Path(__file__).parent/'browser'))
from lab import CHROMIUM, HERE, jupyterlab, missing_browser, page_text, run_all_cells, wait_kernel_idle  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
FIXTURE = Path(__file__).parent/'fixtures'/'episodes-sample.jsonl'
NOTEBOOK = HERE/'widgets_demo.ipynb'

@pytest.fixture
def browser():
    "A headless Chromium; a missing browser or Playwright is a failure that says what to install"
    if miss := missing_browser():
        pytest.fail('browser tests need: ' + '; '.join(miss))
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=['--no-sandbox', '--disable-dev-shm-usage'], headless=True)
        try: yield b
        finally: b.close()

def keep(png:Path):
    "Copy a screenshot to $CAL_SCREENSHOT_DIR when it is set"
    if d := os.environ.get('CAL_SCREENSHOT_DIR'):
        Path(d).mkdir(parents=True, exist_ok=True); shutil.copy(png, Path(d)/png.name)

def check(cond, what, page):
    "Fail with `what` and the page's text when `cond` is false"
    if not cond: pytest.fail(f"{what}\n--- page text (end) ---\n{page_text(page)}")

def wait_text_change(page, sel, before, what, timeout_ms=30_000):
    "Wait until the text of `sel` differs from `before`; fail with `what` and the page text otherwise"
    try: page.wait_for_function("([s, b]) => { const e = document.querySelector(s); return e && e.innerText !== b; }",
                                arg=[sel, before], timeout=timeout_ms)
    except Exception as e: check(False, f"{what} (waited {timeout_ms/1000:.0f} s: {type(e).__name__})", page)
    return page.inner_text(sel)

# %% JupyterLab: run the demo notebook, step, play, click a point of the speedup plot
def test_lab_widgets(browser, tmp_path):
    root = tmp_path/'nb'; root.mkdir()
    shutil.copy(NOTEBOOK, root); shutil.copy(FIXTURE, root)
    t0 = time.time()
    with jupyterlab(root) as (base, token):
        page = browser.new_page(viewport={'width': 1400, 'height': 1000})
        errors = []; page.on('pageerror', lambda e: errors.append(str(e)))
        page.goto(f'{base}/lab/tree/{NOTEBOOK.name}?token={token}', timeout=60_000)
        page.wait_for_selector('.jp-NotebookPanel .jp-Cell', timeout=60_000)
        try: wait_kernel_idle(page)
        except Exception: check(False, 'the notebook kernel did not start (python3 kernelspec) within 90 s', page)
        run_all_cells(page)
        step = '.cal-stepper .cal-step'
        try: page.wait_for_selector(step, timeout=120_000)
        except Exception: check(False, f'the Stepper widget did not render after Run All ({errors=})', page)
        first = page.inner_text(step)
        check('turn 1' in first and 'model.py' in first, f'the first turn should show the Read of model.py, got:\n{first[:500]}', page)

        page.click('.cal-stepper .cal-next')                    # Python observer renders the next turn
        second = wait_text_change(page, step, first, 'clicking "next ▶" did not change the step view')
        check('turn 2' in second and 'bin/profile' in second, f'after next the view should show turn 2, got:\n{second[:500]}', page)

        play = page.locator('.cal-stepper .widget-play button').first    # play/pause toggle
        play.click()                                            # Play -> slider (jslink) -> observer
        third = wait_text_change(page, step, second, 'Play did not advance the step view (Play->slider jslink)')
        play.click()                                            # pause
        check('turn 3' in third, f'Play should move to turn 3, got:\n{third[:300]}', page)
        page.locator('.cal-stepper').evaluate('e => e.scrollIntoView({block: "start"})')
        page.screenshot(path=str(tmp_path/'lab-stepper.png'))

        plot = page.locator('.cal-explorer .js-plotly-plot')
        try: plot.first.wait_for(timeout=60_000)
        except Exception: check(False, f'no plotly plot (.js-plotly-plot) rendered for the speedup FigureWidget ({errors=})', page)
        head = '.cal-explorer .cal-headline'
        before = page.inner_text(head)
        check('click a point' in before, f'the empty inspector should ask for a click, got: {before}', page)
        pt = page.locator('.cal-explorer .js-plotly-plot .scatterlayer .point').first
        pt.scroll_into_view_if_needed()
        box = pt.bounding_box()
        page.mouse.move(box['x'] + box['width']/2, box['y'] + box['height']/2)
        page.mouse.click(box['x'] + box['width']/2, box['y'] + box['height']/2)
        after = wait_text_change(page, head, before, 'clicking the diag_matmul point did not open it in the kernel inspector')
        check('row scaling' in after and 'vs torch.compile' in after, f'the inspector should headline the row scaling, got:\n{after}', page)

        page.locator('.cal-explorer').evaluate('e => e.scrollIntoView({block: "start"})')
        page.screenshot(path=str(tmp_path/'lab-inspector.png'))
        for p in ('lab-stepper.png', 'lab-inspector.png'): keep(tmp_path/p)
        check(not errors, f'page errors: {errors}', page)
    print(f'browser test: {time.time() - t0:.1f} s in JupyterLab; screenshots in {tmp_path}')

# %% a self-contained report page: plotly.js inlined, every network request blocked
def test_offline_plotly_html(browser, tmp_path):
    import plotly.graph_objects as go, plotly.io as pio
    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[73.3, 24.0, 3.6], mode='markers', text=['diag', 'collapse', 'resnet']))
    fig.add_bar(x=[1, 2, 3], y=[1, 2, 3])
    html = tmp_path/'report.html'
    pio.write_html(fig, html, include_plotlyjs=True, full_html=True)
    page = browser.new_page(viewport={'width': 1000, 'height': 700})
    blocked, errors = [], []
    page.route('**/*', lambda r: r.continue_() if r.request.url.startswith('file://') else (blocked.append(r.request.url), r.abort()))
    page.on('pageerror', lambda e: errors.append(str(e)))
    page.goto(html.as_uri())
    try: page.wait_for_selector('.js-plotly-plot .main-svg', timeout=30_000)
    except Exception: check(False, f'the offline plot did not render ({blocked=}, {errors=})', page)
    check(page.locator('.js-plotly-plot .scatterlayer .point').count() == 3, 'the scatter trace should draw 3 points', page)
    check(page.locator('.js-plotly-plot .barlayer .point').count() == 3, 'the bar trace should draw 3 bars', page)
    check(not errors, f'page errors: {errors}', page)
    page.screenshot(path=str(tmp_path/'offline-plotly.png')); keep(tmp_path/'offline-plotly.png')
