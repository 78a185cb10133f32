"""Modules imported on first use: ``posix_regex = lazy_import("...commands._lib.posix_regex",
__package__)`` at a module's top, beside its imports (the shell has no imports inside
functions), and the module is imported when one of its attributes is first read.

For what a run may never need: ``python -m sandbox_kernel sh -c true`` imports none of them
(tests/test_startup.py lists them), so the shell starts in a third of the time. An ``except``
clause naming a lazy module's exception reads it only when an exception gets that far: such
clauses come after the others."""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for a module until its first attribute read imports it (then every read is the
    module's: nothing is copied, so a module's later changes, a test's monkeypatch, show)."""

    __slots__ = ("_name", "_package", "_module")

    def __init__(self, name: str, package: str | None) -> None:
        self._name = name
        self._package = package
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name, self._package)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{' (imported)' if self._module is not None else ''}>"


def lazy_import(name: str, package: str | None = None) -> Any:
    """``name`` (relative to ``package`` when it starts with a dot), imported on first use."""
    return LazyModule(name, package)
