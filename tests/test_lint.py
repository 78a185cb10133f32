"""Static gates in `make test`: ruff (pyflakes' checks, pycodestyle errors, the line length the
code meets) over the package (with guest/ and kernelspec/), benchmarks, scripts and tests; mypy
over the typed layers (the root core modules, vfs/, kernel/, shell/) as configured in
pyproject.toml."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean():
    done = run("ruff", "check", "--no-cache", "sandbox_kernel", "guest", "kernelspec", "benchmarks", "scripts",
               "tests", "labextension/source_hash.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean_on_the_typed_layers():
    done = run("mypy")  # files and options: [tool.mypy] in pyproject.toml
    assert done.returncode == 0, done.stdout + done.stderr
