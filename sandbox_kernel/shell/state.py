"""Shell variables, control-flow signals and errors shared by the interpreter and builtins."""
from __future__ import annotations

from collections import deque

from ..lazy import lazy_compile

#: what one stored value costs besides its characters (the str header, a dict slot, the key)
VALUE_OVERHEAD = 64
_ARRAY_REFERENCE = lazy_compile(r"([A-Za-z_][A-Za-z_0-9]*)\[")


class IndexedArray:
    """The elements of an indexed array, index -> value, at linear cost for what scripts do
    with them: the top index is tracked on every change (appends, ``${a[-1]}``, ``${#a[@]}``
    need no scan), and the ascending key list is kept while elements arrive in order and is
    rebuilt (once) after an insertion below the top or a removal in the middle."""

    __slots__ = ("_items", "_top", "_keys")

    def __init__(self, items: dict[int, str] | None = None) -> None:
        self._items: dict[int, str] = {}
        self._top = 0
        self._keys: list[int] | None = []
        if items:
            for k in sorted(items):
                self[k] = items[k]

    @classmethod
    def of(cls, values) -> "IndexedArray":
        """An array of ``values`` at indices 0, 1, ..."""
        a = cls.__new__(cls)
        a._items = dict(enumerate(values))
        a._top = len(a._items)
        a._keys = None
        return a

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __contains__(self, index: int) -> bool:
        return index in self._items

    def __getitem__(self, index: int) -> str:
        return self._items[index]

    def get(self, index: int, default: str | None = None) -> str | None:
        return self._items.get(index, default)

    def __setitem__(self, index: int, value: str) -> None:
        items = self._items
        if index not in items:
            if index >= self._top:
                self._top = index + 1
                if self._keys is not None:
                    self._keys.append(index)
            else:
                self._keys = None
        items[index] = value

    def pop(self, index: int, default: str | None = None) -> str | None:
        items = self._items
        if index not in items:
            return default
        value = items.pop(index)
        keys = self._keys
        if keys is not None:
            if keys[-1] == index:
                keys.pop()
            else:
                self._keys = None
        if index == self._top - 1:
            keys = self.keys()
            self._top = keys[-1] + 1 if keys else 0
        return value

    def clear(self) -> None:
        self._items.clear()
        self._top = 0
        self._keys = []

    @property
    def top(self) -> int:
        """The highest index + 1 (0 when empty): where ``a+=(x)`` puts x."""
        return self._top

    def keys(self) -> list[int]:
        """The indices in ascending order (the cached list: do not change it)."""
        keys = self._keys
        if keys is None:
            keys = self._keys = sorted(self._items)
        return keys

    def values(self) -> list[str]:
        items = self._items
        return [items[k] for k in self.keys()]

    def items(self) -> list[tuple[int, str]]:
        items = self._items
        return [(k, items[k]) for k in self.keys()]

    def __iter__(self):
        return iter(self.keys())

    def append(self, values) -> None:
        """``values`` after the top element (new indices, in order: no checks per element)."""
        items, keys, top = self._items, self._keys, self._top
        for value in values:
            items[top] = value
            if keys is not None:
                keys.append(top)
            top += 1
        self._top = top

    def copy(self) -> "IndexedArray":
        a = IndexedArray.__new__(IndexedArray)
        a._items = dict(self._items)
        a._top = self._top
        a._keys = None if self._keys is None else list(self._keys)
        return a

    def __eq__(self, other) -> bool:
        if isinstance(other, IndexedArray):
            return self._items == other._items
        return NotImplemented

    def __repr__(self) -> str:
        return f"IndexedArray({dict(self.items())!r})"


def is_array(value) -> bool:
    """An indexed (IndexedArray) or associative (dict) array value."""
    return type(value) is IndexedArray or type(value) is dict


class Var:
    """One variable. ``value`` is a str (scalar), an IndexedArray, a dict[str, str]
    (associative array, ``assoc``), or None (declared but unset). ``charged`` is what the
    value counts against the shell's memory limit (0 for a copy in a fork: the fork
    shares the parent's strings)."""

    __slots__ = ("value", "exported", "readonly", "integer", "assoc", "lower", "upper", "nameref", "indexed",
                 "charged", "numeric")

    def __init__(self, value=None, exported: bool = False) -> None:
        self.value = value
        self.exported = exported
        self.readonly = False
        self.integer = False
        self.assoc = False
        self.lower = False
        self.upper = False
        self.nameref = False
        #: declared an indexed array (``declare -a``) before it has a value
        self.indexed = False
        self.charged = 0
        #: (value, the number it is) once arithmetic read it as one: valid while ``value`` is
        #: that very string (a loop's counter is parsed once per change, not once per read)
        self.numeric: tuple[str, int] | None = None

    def copy(self) -> "Var":
        """A fork's copy: the same attributes and values (arrays copied), nothing charged."""
        v = Var.__new__(Var)
        value = self.value
        v.value = value.copy() if type(value) is IndexedArray or type(value) is dict else value
        v.exported = self.exported
        v.readonly = self.readonly
        v.integer = self.integer
        v.assoc = self.assoc
        v.lower = self.lower
        v.upper = self.upper
        v.nameref = self.nameref
        v.indexed = self.indexed
        v.charged = 0
        v.numeric = self.numeric
        return v

    def scalar(self) -> str | None:
        """The value as a scalar (element 0 of an array)."""
        v = self.value
        if v is None or type(v) is str:
            return v
        if self.assoc:
            return v.get("0")
        return v.get(0)

    def attr_flags(self) -> str:
        flags = ""
        if self.assoc:
            flags += "A"
        elif type(self.value) is IndexedArray or self.indexed:
            flags += "a"
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


class TempVar(Var):
    """A ``VAR=x cmd`` binding: ``hides`` is the variable it stands over while the command
    runs (None: there was none), which an ``unset`` inside uncovers, as in bash (``uncovered``:
    the command's end leaves the name as it is then)."""

    __slots__ = ("hides", "uncovered")
    hides: Var | None
    uncovered: bool


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


class ProcessKilled(ExitShell):
    """The shell process dies of signal ``signum`` (its default action): it unwinds as an
    ``exit 128+N`` to the process's end, which runs the EXIT trap when bash would (it catches
    the terminating signals when an EXIT trap is set) and lets the parent say so."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


class WaitInterrupted(ControlFlow):
    """A trapped signal arrived while ``wait`` waited: wait returns 128+N at once, and the
    trap runs after it."""

    def __init__(self, status: int) -> None:
        self.status = status


class ShellError(Exception):
    """An error that ends the current command with ``status`` after printing ``message``.

    ``abort``: the whole top-level command (the script line) is abandoned, as bash does on an
    arithmetic error or a readonly assignment; ``fatal``: a non-interactive shell exits, as on
    ``${x:?}`` or an unbound variable under ``set -u``; ``errexit``: under ``set -e`` the shell
    exits even where errexit is ignored (``|| true``, ``if``), as after bash's report_error
    (readonly variables, bad substitutions, failglob), unlike arithmetic errors."""

    def __init__(self, message: str, status: int = 1, fatal: bool = False, abort: bool = False,
                 errexit: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.fatal = fatal
        self.abort = abort
        self.errexit = errexit


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


class ArithError(Exception):
    def __init__(self, expr: str, message: str, token: str = "") -> None:
        # bash shows the expression without its leading blanks, with its trailing ones
        text = f"{expr.lstrip()}: {message}"
        if token is not None:
            text += f' (error token is "{token}")'
        super().__init__(text)
        self.message = text


class TestError(Exception):
    """A malformed test/[ expression (status 2)."""


def too_many_words(limit: int) -> LimitExceeded:
    return LimitExceeded(f"too many words: over {limit} in one command (limit words)", "words")


def split_subscript(text: str) -> tuple[str, str] | None:
    """``name[sub]`` -> (name, sub); None when ``text`` is not an array reference."""
    m = _ARRAY_REFERENCE.match(text)
    if m is None or not text.endswith("]"):
        return None
    return m.group(1), text[m.end():-1]


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
    if type(value) is IndexedArray:
        return value.keys()
    if type(value) is not dict:
        return [0] if value is not None else []
    keys = list(value)
    if len(keys) < 2:
        return keys
    if len(keys) <= 2 * ASSOC_BUCKETS:
        position = {k: i for i, k in enumerate(keys)}
        return sorted(keys, key=lambda k: (_bash_hash(k) & (ASSOC_BUCKETS - 1), -position[k]))
    return _simulate_table(keys)


def _simulate_table(keys: list) -> list:
    size = ASSOC_BUCKETS
    buckets: list[deque[str]] = [deque() for _ in range(size)]
    hashes = {k: _bash_hash(k) for k in keys}
    for count, key in enumerate(keys):
        if count >= size * 2:
            # bash's hash_rehash: walk the old chains, pushing each item on its new chain
            size *= 4
            grown: list[deque[str]] = [deque() for _ in range(size)]
            for chain in buckets:
                for item in chain:
                    grown[hashes[item] & (size - 1)].appendleft(item)
            buckets = grown
        buckets[hashes[key] & (size - 1)].appendleft(key)
    return [k for chain in buckets for k in chain]


def ordered_values(var: Var) -> list[str]:
    value = var.value
    if type(value) is IndexedArray:
        return value.values()
    if type(value) is not dict:
        return [value] if value is not None else []
    return [value[k] for k in ordered_keys(var)]
