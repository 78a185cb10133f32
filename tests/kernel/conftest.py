"""Kernelspecs for the kernel tests, installed into a temporary prefix found through JUPYTER_PATH
(the same route jupyter_client's standard provisioner takes for any installed kernel)."""
import json
import os
import sys
from pathlib import Path

import pytest

from sandbox_kernel.install import install

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session", autouse=True)
def jupyter_kernels(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("jupyter-prefix")
    data_path = str(prefix / "share" / "jupyter")
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [data_path, os.environ.get("JUPYTER_PATH")])))
    install("sandbox", prefix=str(prefix))
    install("sandbox-signal", prefix=str(prefix), interrupt_mode="signal",
            display_name="Sandbox (signal interrupts)")
    fake_dir = prefix / "share" / "jupyter" / "kernels" / "sandbox-fake"
    fake_dir.mkdir(parents=True)
    (fake_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(HERE / "fake_kernel.py"), "-f", "{connection_file}"],
        "display_name": "Sandbox with a scripted fake engine", "language": "bash",
        "interrupt_mode": "message"}))
    yield data_path
    mp.undo()
