"""Tests of cuda_agent_lab.guard: the runtime guard, the static checks, harness integrity and process counts.

Plain pytest (no fastcore), so the GPU test also runs on a machine without the dev extras."""
import builtins, importlib.util, json, os, re, subprocess, sys, threading, time, types
from pathlib import Path
import pytest
import torch
import torch.nn.functional as F
from cuda_agent_lab.guard import (VIOLATIONS, Violation, GuardViolation, ALLOWED_ATEN, forbid_torch, audit_aten, static_check,
                                  static_check_kernel, check_candidate, snapshot_harness, check_harness, thread_count,
                                  child_processes, build_env_var, watch_cuda_graphs, active_guard)
from cuda_agent_lab import guard

ROOT = Path(__file__).resolve().parents[1]
CONTRACT_CODES = """missing_file syntax_error import_error no_model_new init_mismatch compile_error runtime_error wrong_type wrong_shape
wrong_dtype incorrect nan_inf input_mutated output_aliases_input tensor_subclass torch_fallback forbidden_import reference_access
torch_compile side_stream spawned_thread spawned_process tampered_harness frame_inspection file_access network_access early_exit
inconsistent_outputs timeout incomplete_evaluation speed_of_light l2_persistence crash cuda_error out_of_memory output_flood disk_quota
reduced_precision""".split()


def codes(vs): return [v.code for v in vs]


# ---------------------------------------------------------------- codes

def test_violation_codes_are_the_contracts():
    assert sorted(VIOLATIONS) == sorted(CONTRACT_CODES)
    assert all(isinstance(d, str) and d and '\n' not in d for d in VIOLATIONS.values())


def test_every_code_has_a_rule_row():
    "The notebook's 'The rules, code by code' table has one row per code of VIOLATIONS (and none for unknown codes)"
    cells = json.loads((ROOT/'nbs'/'03_guard.ipynb').read_text())['cells']
    rules = next(''.join(c['source']) for c in cells
                 if c['cell_type'] == 'markdown' and ''.join(c['source']).startswith('## The rules, code by code'))
    assert sorted(re.findall(r'^\| `(\w+)` \|', rules, re.M)) == sorted(VIOLATIONS)


def test_codes_the_modules_emit_are_known():
    "Every code passed to Violation/_viol/fail/_v (or set as `code = '...'`) anywhere in the package is one of VIOLATIONS"
    src = '\n'.join(p.read_text() for p in (ROOT/'cuda_agent_lab').glob('*.py'))
    used = set(re.findall(r"\b(?:Violation|GuardViolation|_viol|fail|_v)\(\s*'([a-z_]+)'", src))
    used |= set(re.findall(r"\bcode\s*=\s*'([a-z_]+)'", src))
    assert len(used) > 20 and used <= set(VIOLATIONS), sorted(used - set(VIOLATIONS))


def test_violation_roundtrip_and_errors():
    v = Violation('torch_fallback', 'called F.relu', 'model_new.py', 3)
    assert Violation.from_dict(v.to_dict()) == v and str(v) == 'model_new.py:3: called F.relu [torch_fallback]'
    with pytest.raises(ValueError, match='unknown violation code'): Violation('nope', 'x')
    e = GuardViolation('torch_fallback', 'ModelNew.forward called torch.nn.functional.relu')
    assert e.code == 'torch_fallback' and 'torch.nn.functional.relu' in str(e)


# ---------------------------------------------------------------- runtime guard

X, Y = torch.randn(16, 8), torch.randn(16, 8)

FALLBACKS = {
    'functional': (lambda: F.relu(X), 'torch.nn.functional.relu'),
    'functional gelu': (lambda: torch.nn.functional.gelu(X), 'torch.nn.functional.gelu'),
    'method': (lambda: X.relu(), 'aten.relu'),
    'operator': (lambda: X + Y, 'torch.Tensor.add (aten.add.Tensor)'),
    'in-place': (lambda: X.mul_(1), 'aten.mul_'),
    'reduction': (lambda: torch.sum(X), 'aten.sum'),
    'matmul': (lambda: X @ Y.t(), 'aten.mm'),
    'aten direct': (lambda: torch.ops.aten.add.Tensor(X, Y), 'aten.add.Tensor'),
    'cast': (lambda: X.double(), 'aten._to_copy'),
    'clone': (lambda: X.clone(), 'aten.clone'),
    'contiguous copy': (lambda: X.t().contiguous(), 'aten.clone'),
    'reshape copy': (lambda: X.t().reshape(-1), 'aten.clone'),
    'random': (lambda: torch.randn(3), 'aten.randn'),
    'numpy escape': (lambda: X.numpy(), 'torch.Tensor.numpy'),
    'array escape': (lambda: X.__array__(), 'torch.Tensor.__array__'),
    'conv without allow': (lambda: torch.conv2d(torch.randn(1, 1, 4, 4), torch.randn(1, 1, 3, 3)), 'conv2d'),
}


@pytest.mark.parametrize('ctx', [torch.no_grad, torch.inference_mode, torch.enable_grad])
@pytest.mark.parametrize('name', list(FALLBACKS))
def test_forbid_torch_refuses(name, ctx):
    f, says = FALLBACKS[name]
    rec = []
    with ctx(), forbid_torch(record=rec):
        with pytest.raises(GuardViolation, match='ModelNew.forward called') as e: f()
    assert says in str(e.value), str(e.value)
    assert codes(rec) == ['torch_fallback'] and rec[0].file == 'test_guard.py' and rec[0].line


def allowed_things(x):
    out = torch.empty_like(x)
    torch.zeros(4, 8).zero_(); torch.empty(3, dtype=x.dtype, device=x.device); x.new_empty(3); torch.zeros_like(x)
    torch.empty_strided((2, 2), (2, 1)); torch.tensor(2.0); torch.empty(4).fill_(1.0)
    (x.shape, x.size(0), x.stride(), x.dim(), x.numel(), x.is_contiguous(), x.dtype, x.device, x.data_ptr())
    (x.view(-1), x.reshape(2, -1), x.flatten(), x.unsqueeze(0).squeeze(0), x[0], x[:, :4], x.t(), x.detach(), x.contiguous(),
     x.to(torch.float32), x.to('cpu'), x.float(), x.permute(1, 0), x.expand(2, -1, -1), x.split(4), x[1].numel())
    return out


@pytest.mark.parametrize('ctx', [torch.no_grad, torch.inference_mode, torch.enable_grad])
def test_forbid_torch_allows_allocation_metadata_views(ctx):
    with ctx(), forbid_torch() as g: allowed_things(X)
    assert g.record == []
    assert {'empty', 'zeros', 'view', 'detach'} <= ALLOWED_ATEN and 'clone' not in ALLOWED_ATEN


def test_record_catches_a_swallowed_fallback():
    rec = []
    with torch.no_grad(), forbid_torch(record=rec):
        try: F.gelu(X)
        except BaseException: pass
        try: X * 2
        except GuardViolation: pass
    assert codes(rec) == ['torch_fallback'] * 2
    assert 'torch.nn.functional.gelu' in rec[0].message and 'aten.mul.Tensor' in rec[1].message


def test_task_allow_list():
    w, b = torch.randn(4, 8), torch.randn(4)
    img, k = torch.randn(1, 3, 8, 8), torch.randn(2, 3, 3, 3)
    for ctx in (torch.no_grad, torch.inference_mode):
        with ctx(), forbid_torch(allow=('mm', 'addmm', 'bmm')):
            torch.addmm(b, X, w.t()); torch.mm(X, w.t()); X @ w.t(); F.linear(X, w, b); F.linear(X.view(2, 8, 8), w, b)
            torch.bmm(X.view(2, 8, 8), Y.view(2, 8, 8)); torch.matmul(X.view(2, 8, 8), Y.view(2, 8, 8))
            with pytest.raises(GuardViolation, match='torch.nn.functional.conv2d'): F.conv2d(img, k)
            with pytest.raises(GuardViolation, match='aten.relu'): F.linear(X, w, b).relu()
        with ctx(), forbid_torch(allow='convolution'):
            F.conv2d(img, k, padding=1); torch.conv2d(img, k, None, 1, 1)
            with pytest.raises(GuardViolation, match='this task also allows convolution'): torch.mm(X, w.t())
            with pytest.raises(GuardViolation, match='torch.nn.functional.linear'): F.linear(X, w, b)


def test_dispatch_only_mode_still_refuses_functional():
    with forbid_torch(functional=False):
        with pytest.raises(GuardViolation, match='aten.relu'): F.relu(X)
        X.shape, X.data_ptr(), torch.empty(3)


def test_guard_notices_a_popped_mode():
    from torch.utils._python_dispatch import _pop_mode, _get_current_dispatch_mode_stack
    rec = []
    with pytest.raises(GuardViolation, match="changed torch's dispatch mode stack"):
        with forbid_torch(record=rec):
            _pop_mode()
            X + 1
    assert codes(rec) == ['tampered_harness'] and _get_current_dispatch_mode_stack() == []


def test_guard_reusable_and_nothing_left_behind():
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack
    from torch.overrides import _get_current_function_mode_stack
    g = forbid_torch()
    for _ in range(3):
        with g: torch.empty(2)
    with pytest.raises(GuardViolation):
        with g: X + 1
    assert _get_current_dispatch_mode_stack() == [] and _get_current_function_mode_stack() == []
    assert (X + 1).shape == X.shape


def test_audit_aten_sees_what_disabled_modes_hide():
    from torch.utils._python_dispatch import _disable_current_modes
    def modes_off(a, b):
        with torch._C.DisableTorchFunction(), _disable_current_modes(): return a * b + 1
    with torch.no_grad(), forbid_torch() as g: modes_off(X, Y)
    assert g.record == []
    _, found = audit_aten(modes_off, X, Y)
    assert codes(found) == ['torch_fallback'] * 2 and 'aten::mul' in found[0].message and 'aten::add' in found[1].message
    w = torch.randn(4, 8)
    with torch.no_grad():
        assert audit_aten(allowed_things, X)[1] == []
        assert audit_aten(lambda: F.linear(X, w), allow=('mm',))[1] == []


ROW_SCALE_C = '''
void row_scale(const float* d, const float* B, float* out, long n, long m) {
    #pragma omp parallel for
    for (long i = 0; i < n; i++) for (long j = 0; j < m; j++) out[i*m + j] = d[i] * B[i*m + j];
}'''


def test_c_function_runs_inside_the_guard():
    from cuda_agent_lab.jit import c_function
    f = c_function(ROW_SCALE_C, 'row_scale')
    d, B = torch.randn(64), torch.randn(64, 32)
    with torch.no_grad(), forbid_torch() as g:
        out = torch.empty_like(B)
        f(d, B, out, B.shape[0], B.shape[1])
    assert g.record == [] and torch.allclose(out, d[:, None] * B)


@pytest.mark.gpu
def test_cuda_kernel_runs_inside_the_guard():
    from cuda_agent_lab.jit import cuda_kernel, cdiv
    k = cuda_kernel(r'''extern "C" __global__ void row_scale(const float* d, const float* B, float* out, int n, int m) {
        long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
        if (i < (long)n * m) out[i] = d[i / m] * B[i]; }''', 'row_scale')
    d, B = torch.randn(512, device='cuda'), torch.randn(512, 256, device='cuda')
    with torch.no_grad(), forbid_torch() as g:
        out = torch.empty_like(B)
        k(cdiv(B.numel(), 256), 256, d, B, out, 512, 256)
        with pytest.raises(GuardViolation, match='aten.mul.Tensor'): B * 2
        with pytest.raises(GuardViolation, match='torch.nn.functional.relu'): F.relu(B)
        with pytest.raises(GuardViolation, match='__cuda_array_interface__'): B.__cuda_array_interface__
    torch.cuda.synchronize()
    assert len(g.record) == 3 and torch.allclose(out, d[:, None] * B)


@pytest.mark.gpu
def test_cuda_kernel_launches_on_the_current_stream():
    "The fast path launches on torch's current stream: inside `torch.cuda.stream(s)` the work lands on s"
    from cuda_agent_lab import jit
    s = torch.cuda.Stream()
    with torch.cuda.stream(s): assert jit._stream_handle() == s.cuda_stream != torch.cuda.default_stream().cuda_stream
    assert jit._stream_handle() == torch.cuda.current_stream().cuda_stream


# ---------------------------------------------------------------- static checks

HACKS = {
    'import model': 'reference_access', 'from model import Model': 'reference_access',
    'import importlib\nm = importlib.import_module("model")': 'reference_access', 'src = open("model.py").read()': 'reference_access',
    'import gc\nobjs = gc.get_objects()': 'reference_access', 'import torch\nm = torch.sys.modules': 'reference_access',
    'import torch\nf = torch.compile(g)': 'torch_compile', 'import torch._dynamo': 'torch_compile', 'import torch\ntorch.jit.script(f)': 'torch_compile',
    'import threading': 'spawned_thread', 'from concurrent.futures import ThreadPoolExecutor': 'spawned_thread',
    'import subprocess': 'spawned_process', 'import os\nos.system("ls")': 'spawned_process', 'import os\nos.fork()': 'spawned_process',
    'import socket': 'network_access', 'import urllib.request': 'network_access', 'import httpx': 'network_access',
    'import inspect': 'frame_inspection', 'import sys\nsys._getframe(1)': 'frame_inspection', 'f = e.__traceback__.tb_frame.f_back': 'frame_inspection',
    'import time\ntime.perf_counter = lambda: 0': 'tampered_harness', 'import torch\ntorch.allclose = lambda *a, **k: True': 'tampered_harness',
    'import torch\ntorch.cuda.Event.elapsed_time = f': 'tampered_harness', 'import builtins\nsetattr(builtins, "len", f)': 'tampered_harness',
    'import torch\ntorch.set_num_threads(1)': 'tampered_harness', 'import torch\nwith torch._C.DisableTorchFunction(): pass': 'tampered_harness',
    'import cuda_agent_lab.verify': 'tampered_harness',
    'import torch\ns = torch.cuda.Stream()': 'side_stream', 'import cupy\ns = cupy.cuda.Stream(non_blocking=True)': 'side_stream',
    'K = """\n__global__ void k() { }\nvoid h(cudaStream_t* s) { cudaStreamCreate(s); }"""': 'side_stream',
    'import os\nos._exit(0)': 'early_exit', 'import sys\nsys.exit()': 'early_exit', 'quit()': 'early_exit',
    'open("/etc/passwd")': 'file_access', 'import os\nos.environ["X"]': 'file_access', 'p = here / ".." / "x"': 'file_access',
    '__import__("os")': 'forbidden_import', 'import importlib\nimportlib.import_module(n)': 'forbidden_import', 'exec(s)': 'forbidden_import',
    'import ctypes': 'forbidden_import', 'from cuda_agent_lab import jit\njit.threading.Thread': 'forbidden_import',
    'import torch\nclass T(torch.Tensor): pass': 'tensor_subclass',
    'import torch\ntorch.backends.cuda.matmul.allow_tf32 = True': 'reduced_precision', 'y = x.half()': 'reduced_precision',
}


@pytest.mark.parametrize('src', list(HACKS))
def test_static_check_catches(src):
    vs = static_check(src)
    assert HACKS[src] in codes(vs), vs
    assert all(v.file == 'model_new.py' and v.line for v in vs)


NEAR_MISSES = [
    'import modeling_utils', 'from .kernels import model_helpers', 'import os.path as osp\np = osp.join("a", "b")',
    'import torch\ntorch.backends.cuda.matmul.allow_tf32 = False', 'import torch\ntorch.set_float32_matmul_precision("highest")',
    'open("kernels/a.cu")', '"""we never call os.system or import threading"""', '# import subprocess',
    'import torch\ne = torch.cuda.Event(enable_timing=True)', 'import torch\ntorch.cuda.synchronize()', 'self.model = 3',
    'from pathlib import Path\nsrc = Path(__file__).with_name("k.cu")', 'from cuda_agent_lab.jit import cuda_kernel, c_function, cdiv',
    'import math\nx = math.sqrt(2)', 'import torch.nn as nn\nclass ModelNew(nn.Module): pass',
]


@pytest.mark.parametrize('src', NEAR_MISSES)
def test_static_check_near_misses(src):
    assert static_check(src) == []


HONEST_PATTERNS = {   # patterns common in published KernelBench solutions that the static checks must let through
    'build env': "import os\nos.environ['MAX_JOBS'] = '2'\nos.environ.setdefault('TORCH_CUDA_ARCH_LIST', '9.0')\n"
                 "os.environ.update({'TORCH_CUDA_VERBOSE': '0'})\ntry:\n    os.environ.update(CUPY_CACHE_IN_MEMORY='1')\nexcept KeyError: pass\n",
    'cupy raw kernel': "import cupy, torch\nk = cupy.RawKernel(SRC, 'f')\nm = cupy.RawModule(code=SRC).get_function('f')\n"
                       "def fwd(a):\n    with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):\n"
                       "        k((1,), (32,), (a.data_ptr(), cupy.int32(3)))\n"
                       "    m((1,), (32,), (a.data_ptr(),), stream=cupy.cuda.Stream.from_external(torch.cuda.current_stream()))\n",
    'legacy stream class': "import torch\nclass Stream:\n    ptr = torch.cuda.current_stream().cuda_stream\nk((1,), (32,), (p,), stream=Stream)\n",
    'graph in forward': "import torch\nclass M(torch.nn.Module):\n    def forward(self, a):\n        g = torch.cuda.CUDAGraph()\n"
                        "        with torch.cuda.graph(g): self.k(a)\n        g.replay()\n",
}
PATTERN_TWINS = {   # each honest pattern's hack, with the codes it got before the pattern was allowed
    "import os\nos.environ['NVIDIA_TF32_OVERRIDE'] = '0'": ['file_access', 'tampered_harness'],
    "import os\nos.environ.setdefault('OMP_NUM_THREADS', '1')": ['file_access'],
    "import os\nos.environ.update({'MAX_JOBS': '2', 'CUDA_LAUNCH_BLOCKING': '1'})": ['file_access'],
    "import os\ndef f():\n    os.environ['MAX_JOBS'] = '2'": ['file_access', 'tampered_harness'],
    "import os\nos.environ['MAX_JOBS'] = n": ['file_access', 'tampered_harness'],
    "import os\nos.environ['TORCHINDUCTOR_VERBOSE'] = '1'": ['file_access', 'tampered_harness'],
    "import os\nj = os.environ.get('MAX_JOBS')": ['file_access'],
    "import cupy as cp\nv = cp.asarray(t)": ['forbidden_import'],
    "import cupy as cp\nv = cp.from_dlpack(t)": ['forbidden_import'],
    "import cupy as cp\ne = cp.ElementwiseKernel('float32 x', 'float32 y', 'y = x', 'k')": ['forbidden_import'],
    "import cupy as cp\nwith cp.cuda.Stream(): pass": ['side_stream'],
    "import cupy as cp\ns = cp.cuda.ExternalStream(2)": ['side_stream'],
    "k((1,), (32,), (p,), stream=s)": ['side_stream'],
    "import torch\nclass M:\n    def __init__(self):\n        self.g = torch.cuda.CUDAGraph()\n        with torch.cuda.graph(self.g): pass":
        ['side_stream'],
    "import torch\ng = torch.cuda.CUDAGraph()\ng.capture_begin()": ['side_stream'],
    "import torch\nf = torch.cuda.make_graphed_callables(m, (x,))": ['side_stream'],
    "h = g.raw_cuda_graph_exec()": ['side_stream'],
}


@pytest.mark.parametrize('name', list(HONEST_PATTERNS))
def test_honest_patterns_pass_the_static_checks(name):
    assert static_check(HONEST_PATTERNS[name]) == []


@pytest.mark.parametrize('src', list(PATTERN_TWINS))
def test_pattern_twins_keep_their_codes(src):
    assert sorted({v.code for v in static_check(src)}) == PATTERN_TWINS[src]


def test_build_env_var():
    assert all(map(build_env_var, ('MAX_JOBS', 'TORCH_CUDA_ARCH_LIST', 'TORCH_CUDA_VERBOSE', 'CUPY_CACHE_IN_MEMORY')))
    assert not any(map(build_env_var, ('NVIDIA_TF32_OVERRIDE', 'CUBLAS_WORKSPACE_CONFIG', 'OMP_NUM_THREADS', 'TORCHDYNAMO_VERBOSE',
                                       'MKL_VERBOSE', 'CAL_VERBOSE', 'TORCH_EXTENSIONS_DIR', 'CUPY_CACHE_DIR', 'CXX')))


def test_kernel_sources_may_not_capture_graphs():
    for line in ('cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);', 'cudaGraphLaunch(exec, s);',
                 'at::cuda::CUDAGraph g; g.capture_begin();'):
        assert 'side_stream' in codes(static_check_kernel(f'void f(cudaStream_t s) {{\n  {line}\n}}\n', 'k.cu')), line


def test_static_check_messages_name_file_and_line():
    vs = static_check('import os\n\nx = os.environ["CAL_SEED"]\nimport model\n', 'cand/model_new.py')
    assert [(v.code, v.line) for v in vs] == [('file_access', 3), ('reference_access', 4)]
    assert str(vs[0]).startswith('cand/model_new.py:3: uses `os.environ`')
    assert codes(static_check('def f(:\n pass')) == ['syntax_error']


def test_static_check_kernel():
    ok = '''#include <math.h>
// system("x") in a comment is fine
extern "C" __global__ void k(float* x, int n) { int half = n / 2; __threadfence_system(); x[0] = expf(x[half]); }
void c(float* y, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; i++) y[i] = 0;
}'''
    assert static_check_kernel(ok, 'k.cu') == []
    bad = {'cudaStreamCreate(&s);': 'side_stream', 'system("ls");': 'spawned_process', 'pid_t p = fork();': 'spawned_process',
           'pthread_create(&t, 0, f, 0);': 'spawned_thread', 'int s = socket(2, 1, 0);': 'network_access',
           'FILE* f = fopen("/etc/passwd", "r");': 'file_access', 'char* e = getenv("HOME");': 'file_access',
           'exit(0);': 'early_exit', 'void* h = dlopen("libc.so.6", 1);': 'forbidden_import',
           '__attribute__((constructor)) static void i(void) { }': 'forbidden_import',
           'int clock_gettime(int c, void* t) { return 0; }': 'tampered_harness', 'omp_set_num_threads(1);': 'tampered_harness',
           '__half h = __float2half(1.0f);': 'reduced_precision'}
    for line, code in bad.items():
        vs = static_check_kernel(f'void f(void) {{\n  {line}\n}}\n', 'bad.c')
        assert code in codes(vs), (line, vs)
        assert next(v for v in vs if v.code == code).line == 2


def _reference_solutions():
    return sorted(d for d in ROOT.glob('kernels/*/*/*') if d.name in ('cpu', 'cuda') and (d/'model_new.py').is_file())


def test_reference_solutions_clean():
    "Every reference solution under kernels/*/*/{cpu,cuda}/ passes the static checks with no finding"
    sols = _reference_solutions()
    if not sols: pytest.skip('no reference solutions under kernels/ yet')
    found = {str(d.relative_to(ROOT)): [str(v) for v in check_candidate(d)] for d in sols}
    print(f'\nstatic checks over {len(sols)} reference solutions:', *found, sep='\n  ')
    assert {k: v for k, v in found.items() if v} == {}


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    return m


def _guarded_forwards(device):
    "Run every reference solution for `device` under forbid_torch and audit_aten (its task's allow-list); (checked, findings)"
    from cuda_agent_lab.tasks import load_suite
    checked, bad = [], {}
    for t in load_suite():
        sol = t.solutions[device]
        if sol is None: continue
        ref = types.ModuleType(f'ref_{t.name}'); exec(compile(t.source_for(device), str(t.path), 'exec'), ref.__dict__)
        mn = _load(sol/'model_new.py', f'guard_test_{t.name}_{device}')
        torch.manual_seed(0)
        model = mn.ModelNew(*ref.get_init_inputs()).to(device).eval()
        model.load_state_dict(ref.Model(*ref.get_init_inputs()).to(device).state_dict())
        rec, inputs = [], [x.to(device) if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()]
        for ctx in (torch.no_grad, torch.inference_mode):
            try:
                with ctx(), forbid_torch(allow=t.allow, record=rec): model(*inputs)
            except GuardViolation: pass
        with torch.no_grad(): rec += audit_aten(model, *inputs, allow=t.allow)[1]
        checked.append(t.name)
        if rec: bad[t.name] = [str(v) for v in rec]
        del model, inputs
    return checked, bad


@pytest.mark.slow
def test_reference_solutions_pass_the_runtime_guard_on_cpu():
    "Every CPU reference solution runs its forward under forbid_torch (with its task's allow-list) without a finding"
    checked, bad = _guarded_forwards('cpu')
    if not checked: pytest.skip('no CPU reference solutions yet')
    print(f'\nruntime guard over {len(checked)} CPU reference solutions: {", ".join(checked)}')
    assert bad == {}


@pytest.mark.gpu
def test_reference_solutions_pass_the_runtime_guard_on_cuda():
    "Every CUDA reference solution (full GPU sizes) runs its forward under forbid_torch without a finding"
    checked, bad = _guarded_forwards('cuda')
    if not checked: pytest.skip('no CUDA reference solutions yet')
    print(f'\nruntime guard over {len(checked)} CUDA reference solutions: {", ".join(checked)}')
    assert bad == {}


# ---------------------------------------------------------------- candidates, harness, processes

def test_check_candidate(tmp_path):
    assert codes(check_candidate(tmp_path)) == ['missing_file']
    (tmp_path/'model_new.py').write_text('import torch\nfrom pathlib import Path\n')
    (tmp_path/'k.cu').write_text('extern "C" __global__ void k(float* x) { x[0] = 1.0f; }')
    assert check_candidate(tmp_path) == []
    (tmp_path/'evil.c').write_text('void f(void) { system("ls"); }')
    vs = check_candidate(tmp_path)
    assert codes(vs) == ['spawned_process'] and vs[0].file == 'evil.c' and vs[0].line == 1


def test_harness_integrity():
    snap = snapshot_harness()
    assert check_harness(snap) == []
    real = (time.perf_counter, torch.cuda.Event.elapsed_time, torch.allclose, builtins.len)
    kw = torch.testing.assert_close.__kwdefaults__
    try:
        time.perf_counter = lambda: 0.0
        torch.cuda.Event.elapsed_time = lambda self, end: 1e-3
        torch.allclose = lambda *a, **k: True
        builtins.len = lambda x: 0
        torch.testing.assert_close.__kwdefaults__ = {**(kw or {}), 'atol': 1.0}
        found = check_harness(snap)
    finally:
        time.perf_counter, torch.cuda.Event.elapsed_time, torch.allclose, builtins.len = real
        torch.testing.assert_close.__kwdefaults__ = kw
    names = sorted(v.message.split('`')[1] for v in found)
    assert names == ['builtins.len', 'time.perf_counter', 'torch.allclose', 'torch.cuda.Event.elapsed_time',
                     'torch.testing.assert_close'], found
    assert set(codes(found)) == {'tampered_harness'} and check_harness(snap) == []


def test_harness_integrity_code_and_settings():
    import cuda_agent_lab.jit as jit
    snap = snapshot_harness()
    code, bench = jit.cdiv.__code__, torch.backends.cudnn.benchmark
    try:
        jit.cdiv.__code__ = (lambda a, b: 1).__code__
        torch.backends.cudnn.benchmark = not bench
        found = check_harness(snap)
    finally:
        jit.cdiv.__code__ = code; torch.backends.cudnn.benchmark = bench
    msgs = ' | '.join(v.message for v in found)
    assert '`cuda_agent_lab.jit.cdiv` had its code replaced' in msgs and '`torch.backends.cudnn.benchmark` changed' in msgs
    assert check_harness(snap) == []


def test_graph_replay_needs_a_capture_under_a_guard():
    "A graph captured outside every guard (import, __init__) may not be replayed under one; one captured under a guard may"
    class Graph:
        def capture_begin(self): pass
        def replay(self): return 'ran'
    Graph.capture_begin, Graph.replay = guard._watch_capture(Graph.capture_begin), guard._watch_replay(Graph.replay)
    early, late, rec = Graph(), Graph(), []
    early.capture_begin()
    assert active_guard() is None
    with forbid_torch(record=rec) as g:
        assert active_guard() is g
        late.capture_begin()
        assert late.replay() == 'ran'
        with pytest.raises(GuardViolation, match='captured outside ModelNew.forward'): early.replay()
    assert early.replay() == 'ran' and codes(rec) == ['torch_fallback'] and rec[0].file == 'test_guard.py'
    watch_cuda_graphs()
    assert all(getattr(torch.cuda.CUDAGraph.__dict__[n], '_cal_watched', False) for n in ('capture_begin', 'replay'))


def test_cupy_allocations_refused_under_the_guard():
    class HookBase:   # what the watch needs of CuPy's MemoryHook (CuPy is not installed in CI)
        def __enter__(self): return self
        def __exit__(self, *exc): pass
    rec = []
    with forbid_torch(record=rec) as g:
        hook = guard._cupy_hook_class(HookBase)(g)
        with pytest.raises(GuardViolation, match="CuPy's allocator"): hook.malloc_preprocess(device_id=0, size=8, mem_size=512)
    assert codes(rec) == ['torch_fallback'] and 'CuPy may only compile and launch your own kernels' in rec[0].message


def test_environment_changes_are_tampering(monkeypatch):
    snap = snapshot_harness()
    monkeypatch.setenv('MAX_JOBS', '3'); monkeypatch.setenv('TORCH_CUDA_VERBOSE', '1')
    assert check_harness(snap) == []
    monkeypatch.setenv('CUBLAS_WORKSPACE_CONFIG', ':4096:8')
    found = check_harness(snap)
    # os.environ and the C library's environment both changed: one finding for each view
    assert codes(found) == ['tampered_harness'] * 2 and all('CUBLAS_WORKSPACE_CONFIG' in f.message for f in found), found
    monkeypatch.delenv('CUBLAS_WORKSPACE_CONFIG')
    assert check_harness(snap) == []


def test_thread_count_and_child_processes():
    n0, kids0 = thread_count(), set(child_processes())
    ev = threading.Event()
    th = threading.Thread(target=ev.wait); th.start()
    p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])
    try:
        assert thread_count() == n0 + 1
        assert set(child_processes()) - kids0 == {p.pid}
    finally:
        ev.set(); th.join(); p.kill(); p.wait()
    assert thread_count() == n0 and p.pid not in child_processes()


def test_c_environment_changes_are_tampering():
    "os.putenv changes the environment the C library (OpenMP, cuBLAS, the CUDA runtime) reads, not os.environ: still seen"
    from cuda_agent_lab.guard import c_environment
    snap = snapshot_harness()
    os.putenv('CAL_PROBE_C_ENV', '1')
    try:
        assert 'CAL_PROBE_C_ENV' not in os.environ and c_environment()['CAL_PROBE_C_ENV'] == '1'
        found = check_harness(snap)
        assert codes(found) == ['tampered_harness'] and 'as the C library sees it' in found[0].message, found
    finally: os.unsetenv('CAL_PROBE_C_ENV')
    assert check_harness(snap) == []
