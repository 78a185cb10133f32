import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def sandbox_data(tmp_path_factory):
    """The kernels' host data (stores, records of files not kept) in a temporary folder, never
    the user's ~/.local/share (a test that needs its own sets SANDBOX_KERNEL_DATA itself)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SANDBOX_KERNEL_DATA", str(tmp_path_factory.mktemp("sandbox-data")))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def jupyter_kernels(tmp_path_factory):
    """The sandbox kernelspecs (message and signal interrupt modes) in a temporary prefix found
    through JUPYTER_PATH — the route jupyter_client's standard provisioner takes for any
    installed kernel. Yields the data path."""
    from sandbox_kernel.kernel.install import install

    prefix = tmp_path_factory.mktemp("jupyter-prefix")
    data_path = str(prefix / "share" / "jupyter")
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [data_path, os.environ.get("JUPYTER_PATH")])))
    install("sandbox", prefix=str(prefix))
    install("sandbox-signal", prefix=str(prefix), interrupt_mode="signal",
            display_name="Sandbox (signal interrupts)")
    yield data_path
    mp.undo()


@pytest.fixture(scope="module")
def kernel(jupyter_kernels):
    """(KernelManager, client) of one `sandbox` kernel shared by a test module."""
    from tests.support.kernelclient import start_kernel

    with start_kernel("sandbox") as pair:
        yield pair


@pytest.fixture
def kc(kernel):
    return kernel[1]
