"""What the committed JupyterLab bundle was built from, and what it is. `make labextension`
writes both hashes next to the bundle (sandbox_kernel/kernel/labextension/source.sha256); a test
recomputes them, so CI fails on a change to the sources without a rebuild and on a hand edit of
the committed bundle."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUNDLE = HERE.parent / "sandbox_kernel" / "kernel" / "labextension"
RECORD = "source.sha256"
SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "webpack.config.js", "install.json")
SOURCE_DIRS = ("src", "style")
#: the names of the two lines of the record
SOURCES_NAME, BUNDLE_NAME = "labextension", "sandbox_kernel/kernel/labextension"


def _digest(root: Path, files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def source_hash(root: Path = HERE) -> str:
    """The extension's sources (labextension/)."""
    files = [root / name for name in SOURCES]
    for folder in SOURCE_DIRS:
        files += sorted(p for p in (root / folder).rglob("*") if p.is_file())
    return _digest(root, files)


def bundle_hash(bundle: Path = BUNDLE) -> str:
    """The built bundle: every file of it (static/*, package.json, install.json) but the record."""
    files = sorted(p for p in bundle.rglob("*") if p.is_file() and p.relative_to(bundle).as_posix() != RECORD)
    return _digest(bundle, files)


def record(root: Path = HERE, bundle: Path = BUNDLE) -> str:
    """The text of source.sha256: one `HASH  NAME` line each for the sources and the bundle."""
    return f"{source_hash(root)}  {SOURCES_NAME}\n{bundle_hash(bundle)}  {BUNDLE_NAME}\n"


def read_record(text: str) -> dict[str, str]:
    """NAME -> HASH of a source.sha256 text."""
    return {name: digest for digest, name in (line.split(None, 1) for line in text.splitlines() if line.strip())}


if __name__ == "__main__":
    sys.stdout.write(record())
