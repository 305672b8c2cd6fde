"Drive a real JupyterLab in headless Chromium: start a server on loopback, open a notebook, run it, read the page."
import contextlib, json, os, secrets, shutil, socket, subprocess, sys, time, urllib.request
from pathlib import Path

CHROMIUM = os.environ.get('CAL_CHROMIUM', '/usr/bin/chromium')
HERE = Path(__file__).parent

def missing_browser() -> list[str]:
    "What the browser tests need and this machine lacks, each with the command that installs it"
    out = []
    try: import playwright.sync_api  # noqa: F401
    except ImportError: out.append("playwright (pip install -e '.[browser]')")
    if not Path(CHROMIUM).exists(): out.append(f"{CHROMIUM} (apt-get install -y chromium, or set CAL_CHROMIUM)")
    return out

def free_port() -> int:
    "A free TCP port on 127.0.0.1"
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _settings(d:Path):
    "Lab settings for a quiet, deterministic page: no news or update toasts, every cell in the DOM"
    for ext, name, val in [('@jupyterlab/apputils-extension', 'notification', {'fetchNews': 'false', 'checkForUpdates': False}),
                           ('@jupyterlab/notebook-extension', 'tracker', {'windowingMode': 'none'})]:
        (d/ext).mkdir(parents=True, exist_ok=True)
        (d/ext/f'{name}.jupyterlab-settings').write_text(json.dumps(val))

def _tail(p:Path, n=4000) -> str: return p.read_text(errors='replace')[-n:] if p.exists() else ''

@contextlib.contextmanager
def jupyterlab(root:Path, timeout:float=90):
    "Run `jupyter lab` on loopback serving `root`; yields (base_url, token); the server log is root/../lab.log"
    state = root.parent/'lab-state'
    for d in ('runtime', 'config', 'workspaces', 'settings'): (state/d).mkdir(parents=True, exist_ok=True)
    _settings(state/'settings')
    port, token, log = free_port(), secrets.token_hex(16), root.parent/'lab.log'
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(state/'runtime'), JUPYTER_CONFIG_DIR=str(state/'config'),
               JUPYTERLAB_WORKSPACES_DIR=str(state/'workspaces'), JUPYTERLAB_SETTINGS_DIR=str(state/'settings'),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")  # the kernel is this Python
    cmd = [sys.executable, '-m', 'jupyter', 'lab', '--no-browser', '--allow-root', '--ip=127.0.0.1', f'--port={port}',
           '--ServerApp.port_retries=0', f'--ServerApp.token={token}', f'--ServerApp.root_dir={root}',
           '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate']
    with open(log, 'w') as f: proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=root)
    base = f'http://127.0.0.1:{port}'
    try:
        wait_status(base, token, proc, log, timeout)
        yield base, token
    finally:
        proc.terminate()
        try: proc.wait(15)
        except subprocess.TimeoutExpired: proc.kill(); proc.wait()

def wait_status(base, token, proc, log, timeout):
    "Wait until the server answers /api/status; fail with its log when it dies or never answers"
    t0 = time.time()
    while time.time() - t0 < timeout:
        if proc.poll() is not None: raise RuntimeError(f"jupyter lab exited with code {proc.returncode}:\n{_tail(log)}")
        try:
            with urllib.request.urlopen(f'{base}/api/status?token={token}', timeout=2) as r:
                if r.status == 200: return json.load(r)
        except OSError: time.sleep(0.3)
    raise TimeoutError(f"jupyter lab did not answer {base}/api/status within {timeout:.0f} s:\n{_tail(log)}")

def page_text(page, n=3000) -> str:
    "The visible text of the page (its end), for failure messages"
    try: return page.inner_text('body')[-n:]
    except Exception as e: return f'(page text unavailable: {e})'

def wait_kernel_idle(page, timeout_ms=90_000):
    "Wait until the notebook's kernel is started, connected and idle (the status bar names it and says Idle)"
    page.wait_for_function("""() => {
        const bar = document.querySelector('#jp-main-statusbar')?.innerText || '';
        return /\\|\\s*Idle\\b/.test(bar) && !/No Kernel/.test(bar);
    }""", timeout=timeout_ms)

def run_all_cells(page):
    "Menu Run > Run All Cells, as a person would (accepting a kernel dialog if one is open)"
    dialog = page.locator('.jp-Dialog .jp-mod-accept')
    if dialog.count(): dialog.first.click()
    page.locator('.lm-MenuBar-itemLabel', has_text='Run').first.click()
    page.locator('.lm-Menu-itemLabel', has_text='Run All Cells').first.click()
