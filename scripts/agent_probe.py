"""Check, before a sweep, that the agent's commands work on this machine as the unprivileged agent user.

    python scripts/agent_probe.py [--device cuda]

Makes one workspace the way a rollout does, writes the diag_matmul reference solution into it with the agent's Write
tool, and runs `bin/compile` through the agent's Bash tool (as `cal-agent` in its mount namespace when this runs as
root). Prints the workspace's locking mode and the command's output; exits 0 when the compile went through the trusted
evaluation and passed, 1 otherwise (scripts/h200.sh then runs the sweep with CAL_AGENT_USER=none and says so).
"""
import argparse, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from cuda_agent_lab.skill import make_workspace, remove_workspace   # noqa: E402
from cuda_agent_lab.tasks import get_task                           # noqa: E402
from cuda_agent_lab.tools import Toolbox                            # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--device', default='cuda')
    a = ap.parse_args()
    t = get_task('diag_matmul')
    sol = t.solutions['cuda' if a.device.startswith('cuda') else 'cpu']
    ws = make_workspace(t, device=a.device)
    try:
        box = Toolbox(ws.root, run_as=ws.run_as, wrap=ws.agent_argv if ws.run_as else None)
        box.call('Read', {'file_path': 'model_new.py'})
        model_new = (sol/'model_new.py').read_text()
        for f in sorted(p for p in sol.iterdir() if p.is_file() and p.name != 'model_new.py'):
            box.call('Write', {'file_path': f'kernels/{f.name}', 'content': f.read_text()})
            model_new = model_new.replace(f"with_name('{f.name}')", f"parent/'kernels'/'{f.name}'")
        box.call('Write', {'file_path': 'model_new.py', 'content': model_new})
        r = box.call('Bash', {'command': 'id -un && bin/compile', 'timeout': 300000})
        box.close()
        out = getattr(r, 'output', None) or str(r)
        print(f'locking: {ws.locking}\n{out}')
        return 0 if 'compile: OK' in out else 1
    finally: remove_workspace(ws)


if __name__ == '__main__':
    sys.exit(main())
