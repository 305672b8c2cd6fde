import os, shutil, pytest

def _has_cuda():
    try:
        import torch, cupy  # noqa: F401
        return torch.cuda.is_available()
    except Exception: return False

def pytest_collection_modifyitems(config, items):
    "`gpu` tests run only where torch sees a GPU and CuPy is installed; everything else always runs"
    if _has_cuda(): return
    skip = pytest.mark.skip(reason="gpu: needs an NVIDIA GPU with CuPy")
    for it in items:
        if 'gpu' in it.keywords: it.add_marker(skip)
