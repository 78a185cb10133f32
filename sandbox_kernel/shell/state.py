"""Shell variables, control-flow signals and errors shared by the interpreter and builtins."""
from __future__ import annotations

from collections import deque


class Var:
    """One variable. ``value`` is a str (scalar), a dict[int, str] (indexed array), a
    dict[str, str] (associative array, ``assoc``), or None (declared but unset)."""

    __slots__ = ("value", "exported", "readonly", "integer", "assoc", "lower", "upper", "nameref")

    def __init__(self, value=None, exported: bool = False) -> None:
        self.value = value
        self.exported = exported
        self.readonly = False
        self.integer = False
        self.assoc = False
        self.lower = False
        self.upper = False
        self.nameref = False

    def copy(self) -> "Var":
        v = Var.__new__(Var)
        value = self.value
        v.value = dict(value) if isinstance(value, dict) else value
        v.exported = self.exported
        v.readonly = self.readonly
        v.integer = self.integer
        v.assoc = self.assoc
        v.lower = self.lower
        v.upper = self.upper
        v.nameref = self.nameref
        return v

    def scalar(self) -> str | None:
        """The value as a scalar (element 0 of an indexed array)."""
        v = self.value
        if v is None or isinstance(v, str):
            return v
        if self.assoc:
            return v.get("0")
        return v.get(0)

    def attr_flags(self) -> str:
        flags = ""
        if isinstance(self.value, dict):
            flags += "A" if self.assoc else "a"
        if self.integer:
            flags += "i"
        if self.lower:
            flags += "l"
        if self.nameref:
            flags += "n"
        if self.readonly:
            flags += "r"
        if self.upper:
            flags += "u"
        if self.exported:
            flags += "x"
        return flags


class ControlFlow(Exception):
    """Base of non-error unwinding (break, continue, return, exit)."""


class BreakLoop(ControlFlow):
    def __init__(self, levels: int = 1) -> None:
        self.levels = levels


class ContinueLoop(ControlFlow):
    def __init__(self, levels: int = 1) -> None:
        self.levels = levels


class ReturnFromFunction(ControlFlow):
    def __init__(self, status: int) -> None:
        self.status = status


class ExitShell(ControlFlow):
    def __init__(self, status: int) -> None:
        self.status = status


class ShellError(Exception):
    """An error that ends the current command with ``status`` after printing ``message``.

    ``abort``: the whole top-level command (the script line) is abandoned, as bash does on an
    arithmetic error or a readonly assignment; ``fatal``: a non-interactive shell exits, as on
    ``${x:?}`` or an unbound variable under ``set -u``."""

    def __init__(self, message: str, status: int = 1, fatal: bool = False, abort: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.fatal = fatal
        self.abort = abort


class AbortCommand(ControlFlow):
    """Unwind to the top-level command loop (or the enclosing subshell) with ``status``."""

    def __init__(self, status: int) -> None:
        self.status = status


class LimitExceeded(Exception):
    """A sandbox limit (commands, function depth, string size) stopped the run."""

    def __init__(self, message: str, limit: str) -> None:
        super().__init__(message)
        self.message = message
        self.limit = limit


ASSOC_BUCKETS = 1024


def _bash_hash(key: str) -> int:
    # bash's hash_string (FNV-1, 32 bit): associative arrays list keys in bucket order
    h = 2166136261
    for b in key.encode("utf-8", "surrogateescape"):
        h = (h * 16777619) & 0xFFFFFFFF
        h ^= b
    return h


def ordered_keys(var: Var) -> list:
    """Keys in the order bash lists them: indices ascending, or the hash-table order of an
    associative array (bucket by bucket, newest first within a bucket; the table starts with
    1024 buckets and grows fourfold once it holds twice as many entries)."""
    value = var.value
    if not isinstance(value, dict):
        return [0] if value is not None else []
    if not var.assoc:
        return sorted(value)
    keys = list(value)
    if len(keys) < 2:
        return keys
    if len(keys) <= 2 * ASSOC_BUCKETS:
        position = {k: i for i, k in enumerate(keys)}
        return sorted(keys, key=lambda k: (_bash_hash(k) & (ASSOC_BUCKETS - 1), -position[k]))
    return _simulate_table(keys)


def _simulate_table(keys: list) -> list:
    size = ASSOC_BUCKETS
    buckets = [deque() for _ in range(size)]
    hashes = {k: _bash_hash(k) for k in keys}
    for count, key in enumerate(keys):
        if count >= size * 2:
            # bash's hash_rehash: walk the old chains, pushing each item on its new chain
            size *= 4
            grown = [deque() for _ in range(size)]
            for chain in buckets:
                for item in chain:
                    grown[hashes[item] & (size - 1)].appendleft(item)
            buckets = grown
        buckets[hashes[key] & (size - 1)].appendleft(key)
    return [k for chain in buckets for k in chain]


def ordered_values(var: Var) -> list[str]:
    value = var.value
    if not isinstance(value, dict):
        return [value] if value is not None else []
    return [value[k] for k in ordered_keys(var)]
