"""The sha256 of the extension's sources. `make labextension` writes it next to the built
bundle (sandbox_kernel/kernel/labextension/source.sha256); a test recomputes it, so a change
to the sources without a rebuild of the committed bundle fails CI."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = ("package.json", "package-lock.json", "tsconfig.json", "webpack.config.js", "install.json")
SOURCE_DIRS = ("src", "style")


def source_hash(root: Path = HERE) -> str:
    files = [root / name for name in SOURCES]
    for folder in SOURCE_DIRS:
        files += sorted(p for p in (root / folder).rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


if __name__ == "__main__":
    sys.stdout.write(source_hash() + "\n")
