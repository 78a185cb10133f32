"""The pinned QuickJS binary and the compiled-module cache: fail loudly if either changes."""
import hashlib
from importlib.metadata import version
from pathlib import Path

import wasmtime

from sandbox_kernel.js import binary
from sandbox_kernel.js.engine import compiled_module
from sandbox_kernel.js.runtime import CompiledModule, make_wasmtime_engine


def test_the_installed_binary_is_the_pinned_one():
    data = binary.original_wasm()
    assert hashlib.sha256(data).hexdigest() == binary.WASM_SHA256


def test_binary_facts_are_found():
    facts = binary.load()
    assert facts.interrupt_table_index > 0
    assert 0 < facts.pending_signals_addr < 16 << 20
    engine = make_wasmtime_engine()
    module = compiled_module().load(engine)  # the cached native code of facts.wasm
    exports = {e.name for e in module.exports}
    assert set(binary.REQUIRED_EXPORTS) <= exports
    imports = {(i.module, i.name) for i in module.imports}
    assert all(m == "wasi_snapshot_preview1" for m, _ in imports) and len(imports) == 21


def test_analyse_rejects_a_different_binary():
    import pytest

    with pytest.raises(binary.BinaryMismatch):
        binary.analyse(wasmtime.wat2wasm('(module (func (export "f")))'))


def test_compiled_module_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    compiled = CompiledModule(binary.load())
    files = list((tmp_path / "sandbox-kernel" / "js").glob("*.cwasm"))
    assert len(files) == 1 and files[0].name.startswith(version("wasmtime") + "-")
    assert compiled.load(make_wasmtime_engine()) is not None
    again = CompiledModule(binary.load())  # now from the cache
    assert again.serialized is None and again.load(make_wasmtime_engine()) is not None


def test_unwritable_cache_falls_back_to_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    compiled = CompiledModule(binary.load())
    assert compiled.path is None
    assert compiled.load(make_wasmtime_engine()) is not None


def test_an_unreadable_cache_folder_falls_back_to_memory(tmp_path, monkeypatch):
    """A kernel whose HOME is someone else's (Enterprise Gateway's Docker launcher copies the
    gateway's environment, HOME=/root, into a container running as uid 1000): stat() of the
    cache file fails with EACCES, which Path.is_file() raises; the module compiles in memory."""
    denied = tmp_path / "root-home" / ".cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(denied))
    real_is_file = Path.is_file

    def is_file(path):
        if str(path).startswith(str(denied)):
            raise PermissionError(13, "Permission denied", str(path))
        return real_is_file(path)

    def mkdir(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(Path, "is_file", is_file)
    monkeypatch.setattr(Path, "mkdir", mkdir)
    compiled = CompiledModule(binary.load())
    assert compiled.path is None and compiled.serialized
    assert compiled.load(make_wasmtime_engine()) is not None


def test_a_corrupt_cache_file_is_recompiled(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    compiled = CompiledModule(binary.load())
    compiled.path.write_bytes(b"garbage")
    again = CompiledModule(binary.load())
    assert again.load(make_wasmtime_engine()) is not None
    assert compiled.path.stat().st_size > 1000
