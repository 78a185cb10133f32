"""Kernelspecs for the kernel tests: the shared ones plus a fake-engine kernel."""
import json
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


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
