"""Modules imported, and regular expressions compiled, on first use, for what a run may never
need: ``python -m sandbox_kernel sh -c true`` imports none of those modules (tests/test_startup.py
lists them) and compiles no pattern.

``posix_regex = lazy_import("...commands._lib.posix_regex", __package__)`` at a module's top,
beside its imports (the shell has no imports inside functions), imports the module when one of
its attributes is first read. An ``except`` clause naming a lazy module's exception reads it
only when an exception gets that far: such clauses come after the others.
``_NAME = lazy_compile(r"...")`` is a pattern compiled by its first call (re.compile is ~0.7M
instructions a pattern: the shell's modules have dozens)."""
from __future__ import annotations

import importlib
import re
import sys
from types import ModuleType

#: typing.TYPE_CHECKING without importing typing (~2 ms of every start): type checkers take
#: a name TYPE_CHECKING as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, cast
else:
    def cast(typ, value):
        """typing.cast (which type checkers see): the value itself."""
        return value


class LazyModule:
    """Stands for a module until its first attribute read imports it (then every read is the
    module's: nothing is copied, so a module's later changes, a test's monkeypatch, show).
    The module whose code read through it then holds the module itself under the names that
    held the stand-in: its later reads cost what any module attribute read does."""

    __slots__ = ("_name", "_package", "_module", "_rebound")

    def __init__(self, name: str, package: str | None) -> None:
        self._name = name
        self._package = package
        self._module: ModuleType | None = None
        #: the namespaces rebound already (each is looked at once)
        self._rebound: set[int] = set()

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name, self._package)
        namespace = sys._getframe(1).f_globals  # the reader's module
        if id(namespace) not in self._rebound:
            self._rebound.add(id(namespace))
            for key, value in list(namespace.items()):
                if value is self:
                    namespace[key] = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{' (imported)' if self._module is not None else ''}>"


def lazy_import(name: str, package: str | None = None) -> Any:
    """``name`` (relative to ``package`` when it starts with a dot), imported on first use."""
    return LazyModule(name, package)


class LazyPattern:
    """A regular expression compiled on its first use; from then on its methods are the
    compiled pattern's own, bound on this object (a call costs what the pattern's does)."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(*self._source)
            for method in ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split"):
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)`` on first use (methods only: not for ``re.sub(p, ...)``)."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]
