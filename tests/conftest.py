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

@pytest.fixture
def ray_fake_gpus(monkeypatch):
    "A local Ray cluster of 2 CPUs and 2 fake GPUs (Ray only schedules them), small enough for a 24 GiB machine"
    import ray   # the `ray` extra is part of the test install (Makefile TEST_EXTRAS)
    monkeypatch.setenv('RAY_AUTH_MODE', 'disabled')
    ray.init(num_cpus=2, num_gpus=2, object_store_memory=80 * 1024**2, include_dashboard=False)
    yield ray
    ray.shutdown()
