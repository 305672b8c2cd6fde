"""The device audit through the real sandbox on a GPU: an honest CuPy RawKernel passes it with every activity listed,
and CuPy's elementwise kernel reached by pointer fails it with the kernel's name. The rules themselves are tested on a
trace recorded on the H200 in nbs/19_audit.ipynb, which runs on any machine. With CAL_AUDIT_RECORD set, both reports
are written there (the notebook shows the recorded ones)."""
import json, os
from pathlib import Path
import pytest
from cuda_agent_lab.sandbox import evaluate

RT = Path(__file__).parent/'redteam'


def _record(name, r):
    if os.environ.get('CAL_AUDIT_RECORD'):
        d = Path(os.environ['CAL_AUDIT_RECORD']); d.mkdir(parents=True, exist_ok=True)
        keep = {k: r[k] for k in ('task', 'device', 'reward', 'correct', 'violations', 'error', 't_candidate_ms', 'speedup_eager')}
        (d/f'{name}.json').write_text(json.dumps(dict(keep, device_audit=r['details'].get('device_audit')), indent=1))


@pytest.mark.gpu
def test_honest_rawkernel_passes_the_audit_and_is_listed():
    r = evaluate('diag_matmul', RT/'honest'/'h02_cupy_rawkernel', 'cuda', compile=False)
    _record('honest-h02-cupy-rawkernel', r)
    a = r['details']['device_audit']
    assert r['reward'] >= 1 and r['violations'] == [], r
    assert a['available'] and a['current_stream'] is not None and a['violations'] == [], a
    assert [k['name'] for k in a['kernels'] if k['kind'] == 'kernel'] == ['row_scale'], a
    assert all(k['verdict'] == 'ok' and k['stream'] == a['current_stream'] for k in a['kernels']), a


@pytest.mark.gpu
def test_cupy_library_kernel_by_pointer_fails_the_audit_by_name():
    r = evaluate('diag_matmul', RT/'cuda'/'c13_cupy_ufunc_by_pointer', 'cuda', compile=False)
    _record('fallback-c13-cupy-ufunc', r)
    a = r['details'].get('device_audit') or {}
    assert r['reward'] == -1 and 'torch_fallback' in r['violations'], r
    assert 'cupy_multiply' in r['error'] and any(k['verdict'] == 'torch_fallback' for k in a.get('kernels', [])), (r['error'], a)
