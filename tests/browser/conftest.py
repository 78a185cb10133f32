"""A temporary Jupyter data dir for the browser tests, found through JUPYTER_PATH: the `sandbox`
kernelspec, and the repository's prebuilt JupyterLab extension (sandbox_kernel/kernel/labextension)
so that the test exercises the committed assets whatever is installed in the environment."""
import os
from pathlib import Path

import pytest

from sandbox_kernel.kernel.install import install

ROOT = Path(__file__).resolve().parents[2]
LABEXTENSION = ROOT / "sandbox_kernel" / "kernel" / "labextension"
LABEXTENSION_NAME = "sandbox-kernel-labextension"


@pytest.fixture(scope="session")
def jupyter_data_dir(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("browser-prefix")
    data_path = prefix / "share" / "jupyter"
    install("sandbox", prefix=str(prefix))
    extensions = data_path / "labextensions"
    extensions.mkdir(parents=True)
    (extensions / LABEXTENSION_NAME).symlink_to(LABEXTENSION, target_is_directory=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [str(data_path), os.environ.get("JUPYTER_PATH")])))
    yield str(data_path)
    mp.undo()
