"""%%vm from a plain wheel install: the guest recipe is package data, nothing reads the source
tree. A wheel built from a copy of the tracked sources is installed into a fresh venv (its
dependencies come from this venv through a .pth line: a full `pip install` of them takes
~28 s here, this ~6 s), its kernelspec installed, and a %%vm cell run through jupyter_client
from a directory outside the checkout, with the already-built image cache."""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

import pytest

from sandbox_kernel.vm.guest import build
from tests.support.kernelclient import execute, start_kernel

pytestmark = [pytest.mark.vm, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def tracked_sources(dest: Path) -> None:
    """The files git tracks (or, outside git, the tree without caches and build output)."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        files = [n for n in names.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {".venv", "build", ".git", "__pycache__", "node_modules", ".pytest_cache", ".hypothesis"}
        files = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    for name in files:
        if (ROOT / name).is_file():  # tracked but deleted in the worktree: not part of it
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


def test_vm_cell_from_a_wheel_install(guest_image, tmp_path, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # nothing of the checkout on the path
    timings = {}
    started = time.monotonic()
    src = tmp_path / "src"
    tracked_sources(src)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(src)],
                   check=True, capture_output=True, env=env, cwd=tmp_path)
    [wheel] = (tmp_path / "dist").glob("sandbox_kernel-*.whl")
    timings["wheel"] = time.monotonic() - started
    recipe = {f"sandbox_kernel/vm/guest/{f.relative_to(build.HERE)}" for f in build.RECIPE_FILES}
    assert recipe <= set(zipfile.ZipFile(wheel).namelist()), "the wheel lacks recipe files"
    shutil.rmtree(src)  # no source tree left but the checkout, which the kernel must not use

    started = time.monotonic()
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, env=env, cwd=tmp_path)
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True, env=env).stdout.strip())
    # after its own site-packages: this venv's packages, not its editable sandbox_kernel (a path
    # named in a .pth file is not itself scanned for .pth files)
    (purelib / "zz-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    timings["venv"] = time.monotonic() - started

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    where = subprocess.run([str(python), "-P", "-c", "import sandbox_kernel.vm.image as m; print(m.__file__)"],
                           capture_output=True, text=True, env=env, cwd=outside, check=True).stdout.strip()
    assert where.startswith(str(purelib)), where
    # the recipe as installed hashes as the checkout's (the image the cache holds is the one
    # this install looks for): no recipe file lost, added or changed on the way into the wheel
    installed = subprocess.run(
        [str(python), "-P", "-c", "from sandbox_kernel.vm.guest import build as b; "
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
