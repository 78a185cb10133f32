"""The package as a user gets it: a wheel built from a copy of the tracked sources, installed
into a fresh venv whose dependencies come from this venv through a .pth line (a full `pip
install` of them takes ~28 s here, this ~6 s). Used by tests/test_packaging.py (the wheel's
files, `install`, the recipe as installed) and tests/vm/test_wheel.py (a %%vm cell from it)."""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def clean_env() -> dict[str, str]:
    """The environment without PYTHONPATH: nothing of the checkout on the path."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def tracked_files() -> list[str]:
    """The files git tracks that exist (or, outside git, the tree without caches and build output)."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        files = [n for n in names.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {".venv", "build", ".git", "__pycache__", "node_modules", ".pytest_cache", ".hypothesis"}
        files = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]
    return [n for n in files if (ROOT / n).is_file()]  # tracked but deleted in the worktree: not part of it


def build_wheel(tmp_path: Path) -> Path:
    """A wheel of the tracked sources (copied to tmp_path/src, removed afterwards)."""
    src = tmp_path / "src"
    for name in tracked_files():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(src)],
                   check=True, capture_output=True, env=clean_env(), cwd=tmp_path)
    shutil.rmtree(src)  # no source tree left but the checkout, which the installed package must not use
    [wheel] = (tmp_path / "dist").glob("sandbox_kernel-*.whl")
    return wheel


def install_wheel(wheel: Path, env_dir: Path) -> tuple[Path, Path]:
    """A new venv at env_dir with the wheel installed: (its python, its site-packages)."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, env=clean_env(), cwd=env_dir)
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True, env=clean_env()).stdout.strip())
    # after its own site-packages: this venv's packages, not its editable sandbox_kernel (a path
    # named in a .pth file is not itself scanned for .pth files)
    (purelib / "zz-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python, purelib
