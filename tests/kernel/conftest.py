"""Kernelspecs for the kernel tests: the shared ones plus a fake-engine kernel; and for the
JupyterLab panel test a data dir with the repository's prebuilt extension."""
import json
import sys
from pathlib import Path

import pytest

from sandbox_kernel.kernel.install import install

HERE = Path(__file__).resolve().parent
LABEXTENSION = HERE.parents[1] / "sandbox_kernel" / "kernel" / "labextension"
LABEXTENSION_NAME = "sandbox-kernel-labextension"


@pytest.fixture(scope="session", autouse=True)
def jupyter_kernels(jupyter_kernels):
    """The shared kernelspecs (tests/conftest.py) plus a kernel with a scripted fake engine."""
    fake_dir = Path(jupyter_kernels) / "kernels" / "sandbox-fake"
    fake_dir.mkdir(parents=True, exist_ok=True)
    (fake_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(HERE / "fake_kernel.py"), "-f", "{connection_file}"],
        "display_name": "Sandbox with a scripted fake engine", "language": "bash",
        "interrupt_mode": "message"}))
    return jupyter_kernels


@pytest.fixture(scope="session")
def jupyter_data_dir(tmp_path_factory):
    """A data dir (the JUPYTER_PATH the browser tests give JupyterLab and the gateways) with the
    `sandbox` kernelspec and the committed prebuilt extension, so the panel tests exercise the
    repository's assets whatever is installed. The tests' own JUPYTER_PATH is left alone: other
    modules find their kernelspecs through it."""
    prefix = tmp_path_factory.mktemp("browser-prefix")
    data_path = prefix / "share" / "jupyter"
    install("sandbox", prefix=str(prefix))
    extensions = data_path / "labextensions"
    extensions.mkdir(parents=True)
    (extensions / LABEXTENSION_NAME).symlink_to(LABEXTENSION, target_is_directory=True)
    return str(data_path)
