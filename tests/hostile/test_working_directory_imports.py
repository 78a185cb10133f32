"""Files beside a notebook are never imported as the kernel's own modules.

``python -m`` puts the working directory first on sys.path; a notebook folder holding a
``zoneinfo.py``, ``regex.py`` or ``wasmtime.py`` ran host code as the kernel (red team, item 2).
"""
from __future__ import annotations

import subprocess
import sys

import pytest

#: modules the kernel imports lazily, on the cells below (shell dates, grep, JS)
SHADOWED = ("zoneinfo", "regex", "wasmtime", "nh3", "tarfile", "sqlite3", "difflib")


@pytest.fixture
def trap_dir(tmp_path):
    canary = tmp_path / "CANARY"
    for name in SHADOWED:
        (tmp_path / f"{name}.py").write_text(
            f"import pathlib; pathlib.Path({str(canary)!r}).write_text({name!r})\n"
            "raise ImportError('shadowed module imported')\n")
    return tmp_path, canary


def test_kernel_started_by_its_kernelspec_ignores_the_cwd(trap_dir, jupyter_kernels):
    from tests.support.kernelclient import execute, start_kernel, stream_text

    cwd, canary = trap_dir
    with start_kernel("sandbox", cwd=str(cwd)) as (_, kc):
        reply, messages = execute(kc, "TZ=Europe/Paris date -d @0 +%H; echo abc | grep -E 'b+'; "
                                      "display --html '<b>x</b>'; echo x > f; tar cf a.tar f; tar tf a.tar")
        assert reply["status"] == "ok", stream_text(messages, "stderr")
        assert stream_text(messages) == "01\nabc\nf\n"
        reply, messages = execute(kc, "%%js\nconsole.log(6 * 7)", timeout=60)
        assert reply["status"] == "ok" and stream_text(messages) == "42\n"
    assert not canary.exists(), f"{canary.read_text()}.py from the working directory was imported"


def test_cli_ignores_the_cwd(trap_dir):
    """`python -m sandbox_kernel sh` (no -P) drops the working directory before any import."""
    cwd, canary = trap_dir
    run = subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", "-c",
                          "TZ=Asia/Tokyo date -d @0 +%H; echo abc | grep -o b"],
                         cwd=cwd, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "09\nb\n"
    assert not canary.exists(), f"{canary.read_text()}.py from the working directory was imported"


def test_installed_kernelspec_uses_safe_path():
    from sandbox_kernel.kernel.install import build_spec

    argv = build_spec()["argv"]
    assert argv[:4] == [sys.executable, "-P", "-m", "sandbox_kernel"]
