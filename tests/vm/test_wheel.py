"""%%vm from a plain wheel install: the guest recipe is package data, nothing reads the source
tree. A wheel built from a copy of the tracked sources is installed into a fresh venv
(tests/wheelinstall.py; tests/test_packaging.py checks its files without a VM), its kernelspec
installed, and a %%vm cell run through jupyter_client from a directory outside the checkout,
with the already-built image cache."""
from __future__ import annotations

import subprocess
import time
import zipfile

import pytest

from sandbox_kernel.guest import build
from tests.support.kernelclient import execute, start_kernel
from tests.support.wheelinstall import build_wheel, clean_env, install_wheel

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def test_vm_cell_from_a_wheel_install(guest_image, tmp_path, monkeypatch):
    env = clean_env()
    timings = {}
    started = time.monotonic()
    wheel = build_wheel(tmp_path)
    timings["wheel"] = time.monotonic() - started
    recipe = {f"sandbox_kernel/guest/{f.relative_to(build.HERE)}" for f in build.RECIPE_FILES}
    assert recipe <= set(zipfile.ZipFile(wheel).namelist()), "the wheel lacks recipe files"

    started = time.monotonic()
    python, purelib = install_wheel(wheel, tmp_path / "venv")
    timings["venv"] = time.monotonic() - started

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    where = subprocess.run([str(python), "-P", "-c", "import sandbox_kernel.vm.image as m; print(m.__file__)"],
                           capture_output=True, text=True, env=env, cwd=outside, check=True).stdout.strip()
    assert where.startswith(str(purelib)), where
    # the recipe as installed hashes as the checkout's (the image the cache holds is the one
    # this install looks for): no recipe file lost, added or changed on the way into the wheel
    installed = subprocess.run(
        [str(python), "-P", "-c", "from sandbox_kernel.guest import build as b; "
                                  "print(b.__file__, b.recipe_hash(), b.recipe_pointer().is_file())"],
        capture_output=True, text=True, env=env, cwd=outside, check=True).stdout.split()
    assert installed[0].startswith(str(purelib)), installed
    assert installed[1:] == [build.recipe_hash(), "True"], (installed, build.recipe_hash())
    prefix = tmp_path / "prefix"
    subprocess.run([str(python), "-m", "sandbox_kernel", "install", "--prefix", str(prefix)], check=True,
                   capture_output=True, env=env, cwd=outside)
    monkeypatch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))  # where jupyter_client finds it

    started = time.monotonic()
    with start_kernel("sandbox", cwd=str(outside), env=env) as (_, kc):
        reply, messages = execute(kc, "%%vm\necho hi > from-vm.txt; id -un; python3 -c 'print(6*7)'", timeout=120)
    streams = [(m["content"]["name"], m["content"]["text"]) for m in messages if m["msg_type"] == "stream"]
    timings["kernel and cell"] = time.monotonic() - started
    print("timings: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))
    assert reply["status"] == "ok", streams
    assert "".join(t for n, t in streams if n == "stdout") == "user\n42\n", streams
    assert not (outside / "from-vm.txt").exists()  # the VM's files go to the VFS, not the host
