"""The built-in suite and its reference solutions: CUDA ones compile with NVRTC here, CPU ones pass the trusted evaluation."""
import ast, re
import pytest
from cuda_agent_lab.tasks import load_suite
from cuda_agent_lab.jit import nvrtc_check

SUITE = load_suite()
CPU = [t for t in SUITE if t.solutions['cpu']]
CUDA = [t for t in SUITE if t.solutions['cuda']]

def test_suite_size():
    levels = {l: [t for t in SUITE if t.level == l] for l in (1, 2, 3)}
    assert len(SUITE) >= 30 and len(levels[1]) >= 12 and len(levels[2]) >= 12 and len(levels[3]) >= 6, {l: len(v) for l, v in levels.items()}
    assert len(CPU) >= 16, [t.name for t in CPU]
    assert [t.name for t in SUITE if not t.solutions['cuda']] == []

def _kernel_names(model_new: str):
    "Kernel names passed to cuda_kernel(source, 'name') in a model_new.py"
    return [c.args[1].value for c in ast.walk(ast.parse(model_new)) if isinstance(c, ast.Call) and len(c.args) > 1
            and getattr(c.func, 'id', getattr(c.func, 'attr', None)) == 'cuda_kernel' and isinstance(c.args[1], ast.Constant)]

@pytest.mark.parametrize('task', CUDA, ids=lambda t: t.name)
def test_cuda_solution_compiles_with_nvrtc(task):
    d = task.solutions['cuda']
    files = sorted(d.glob('*.cu'))
    assert files, f'{d} has no .cu kernel files'
    for f in files: nvrtc_check(f)
    names = _kernel_names((d/'model_new.py').read_text())
    assert names, f'{d}/model_new.py builds no kernel with cuda_kernel(source, name)'
    for name in names:
        holders = [f for f in files if re.search(rf'\b{name}\s*\(', f.read_text())]
        assert holders, f'kernel {name} is in none of {[f.name for f in files]}'
        nvrtc_check(holders[0], name)

@pytest.fixture(scope='module')
def cpu_evaluations():
    """Every CPU solution submitted at once to a pool of two workers: the evaluations are the trusted ones (a sandbox
    process each, baselines timed cold in a process of their own, the CPU's timing lock taken exclusive for every
    timing), two side by side so one's compiles overlap the other's; each test below waits for its own"""
    from cuda_agent_lab.pool import EvalPool
    with EvalPool('cpu', workers=2, timeout=600) as pool:
        yield {t.name: pool.submit(dict(task=t, candidate=str(t.solutions['cpu']), device='cpu', key=t.name)) for t in CPU}

@pytest.mark.slow
@pytest.mark.parametrize('task', CPU, ids=lambda t: t.name)
def test_cpu_solution_passes(task, cpu_evaluations):
    r = cpu_evaluations[task.name].result()
    assert r['correct'] and r['reward'] >= 1 and r['violations'] == [], (r['violations'], r['error'])
    assert r['t_eager_ms'] and r['t_compile_ms'] and r['t_candidate_ms']
