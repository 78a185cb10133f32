"""jq 1.6's modules: ``import "path" as name;`` (the module's definitions as name::f),
``import "path" as $name;`` (a JSON file's values as $name and $name::name),
``include "path";`` (the definitions themselves), ``module META;``, ``modulemeta``, the
search path (-L, else ~/.jq, $ORIGIN/../lib/jq, $ORIGIN/lib) and ~/.jq, a file, included in
every program.

Where a module is looked for: each directory of the import's ``search`` metadata (relative
to the importing module's directory; the main program's is its origin) or else "." (the
current directory) and the search path; in each, PATH.jq, PATH/jq/main.jq, then
PATH/BASENAME.jq (.json for data). Modules are read from the sandbox's file system, once
each."""
from __future__ import annotations

import posixpath
import sys
from typing import Any

from ... import memory
from ...vfs import FSError
from .inputs import json_values
from .lexer import JqSyntaxError
from .parser import Parser, TopLevel

JQ_ORIGIN = "."  # Debian's jq, run as "jq" from PATH, has "." for $ORIGIN
DEFAULT_SEARCH = ["~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/lib"]
MAX_MODULES = 256  # distinct module files one program may load


class ModuleError(JqSyntaxError):
    """A compile error about a module: the message, and where (a file and its text, or
    nothing for jq's empty location)."""

    def __init__(self, message: str, where: str | None = None, source: str = "") -> None:
        super().__init__(message)
        self.where = where
        self.source = source


class Module:
    """A loaded module: its metadata, imports and definitions (bound by the interpreter)."""

    def __init__(self, path: str, top: TopLevel) -> None:
        self.path = path
        self.top = top
        self.exports: dict | None = None  # (name, arity) -> closure, once linked


class Linker:
    """Finds, reads and parses modules for one jq run."""

    def __init__(self, fs: Any, cwd: str, env: dict, lib_dirs: list[str] | None, prog_origin: str) -> None:
        self.fs = fs
        self.cwd = cwd
        self.home = env.get("HOME")
        self.lib_dirs = DEFAULT_SEARCH if lib_dirs is None else lib_dirs
        self.prog_origin = prog_origin
        self.modules: dict[str, Module] = {}
        self.data: dict[str, list] = {}
        self.loading: set[str] = set()

    # ------------------------------------------------------------------ finding
    def _expand(self, path: str, origin: str | None) -> str | None:
        if path.startswith("~/") or path == "~":
            if self.home is None:
                return None
            return self.home + path[1:]
        if path == ".":
            return path
        if path.startswith("$ORIGIN/"):
            return JQ_ORIGIN + "/" + path[len("$ORIGIN/"):]
        if origin is not None and not path.startswith("/"):
            return origin + "/" + path
        return path

    @staticmethod
    def _valid(relpath: str) -> bool:
        """jq's check of a module's name: '/'-separated, no '..' after the first part, no
        part equal to the one before it (after the second)."""
        if "\\" in relpath or not relpath:
            return False
        parts = relpath.split("/")
        rest = parts[1:]
        for i, part in enumerate(rest):
            if part == ".." or (i > 0 and part == rest[i - 1]):
                return False
        return True

    def find(self, relpath: str, search: list, suffix: str, origin: str | None) -> str:
        if not self._valid(relpath):
            raise ModuleError("Module path must be a string")
        base = relpath.rsplit("/", 1)[-1]
        for entry in search:
            if not isinstance(entry, str) or not entry:
                continue
            where = self._expand(entry, origin)
            if where is None:
                continue
            for candidate in (f"{where}/{relpath}{suffix}", f"{where}/{relpath}/jq/main{suffix}",
                              f"{where}/{relpath}/{base}{suffix}"):
                try:
                    if self.fs.exists(candidate, cwd=self.cwd):
                        return self.fs.realpath(candidate, cwd=self.cwd)
                except FSError:
                    continue
        raise ModuleError(f"module not found: {relpath}")

    def search_for(self, imp, origin: str | None) -> list:
        if imp.meta is not None and "search" in imp.meta:
            search = imp.meta["search"]
            return search if isinstance(search, list) else [search]
        return ["."] + list(self.lib_dirs)

    # ------------------------------------------------------------------ reading
    def _read(self, path: str) -> str:
        memory.need(2 * self.fs.stat(path, cwd=self.cwd).st_size)
        text = self.fs.read_bytes(path, cwd=self.cwd).decode("utf-8", "replace")
        memory.charge(sys.getsizeof(text))
        return text

    def load(self, path: str) -> Module:
        """The module in the file at ``path`` (a real path), parsed once."""
        module = self.modules.get(path)
        if module is not None:
            return module
        if len(self.modules) >= MAX_MODULES:
            raise ModuleError(f"too many modules (more than {MAX_MODULES})")
        try:
            source = self._read(path)
        except FSError as e:
            raise ModuleError(f"{path}: {e.strerror}") from None
        try:
            top = Parser(source).parse_top()
        except ModuleError:
            raise
        except (JqSyntaxError, RecursionError) as e:
            raise ModuleError(str(e) if isinstance(e, JqSyntaxError) else "stack overflow", path, source) from None
        if not top.only_definitions:
            raise ModuleError("jq: error: library should only have function definitions, not a main expression",
                              "", "<unknown location>")
        module = Module(path, top)
        self.modules[path] = module
        return module

    def load_data(self, path: str) -> list:
        values = self.data.get(path)
        if values is None:
            values, error = json_values(path, self._read_raw(path))
            if error:
                raise ModuleError(f"{path}: {error}")
            self.data[path] = values
        return values

    def _read_raw(self, path: str) -> str:
        memory.need(2 * self.fs.stat(path, cwd=self.cwd).st_size)
        return self.fs.read_bytes(path, cwd=self.cwd).decode("utf-8", "surrogateescape")

    def module_dir(self, path: str) -> str:
        return posixpath.dirname(path)

    def home_library(self) -> str | None:
        """~/.jq, when it is a file: its definitions are in every program."""
        if self.home is None:
            return None
        path = self.home.rstrip("/") + "/.jq"
        try:
            if self.fs.is_file(path, cwd=self.cwd):
                return self.fs.realpath(path, cwd=self.cwd)
        except FSError:
            return None
        return None

    # ------------------------------------------------------------------ modulemeta
    def modulemeta(self, name: str) -> Any:
        path = self.find(name, list(self.lib_dirs), ".jq", None)
        top = self.load(path).top
        meta = dict(top.meta) if isinstance(top.meta, dict) else {}
        deps = []
        for imp in top.imports:
            dep = dict(imp.meta or {})
            if imp.alias is not None:
                dep["as"] = imp.alias
            dep["is_data"] = imp.is_data
            dep["relpath"] = imp.path
            deps.append(dep)
        meta["deps"] = deps
        return meta
