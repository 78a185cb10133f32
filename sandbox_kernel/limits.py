"""Resource limits of a sandbox run (one cell, one CLI script), and the ceilings a cell may
raise them to.

``Limits()`` are the tight defaults of ``python -m sandbox_kernel sh``; kernel cells start
from ``notebook_defaults()`` (a generous wall time: the interrupt button is the control, as in
ipykernel). The admin may change both and set ceilings (``policy.Policy``); ``%limits`` may
lower any limit and raise it up to its ceiling (the CLI: ``--limit NAME=VALUE``, its limits
are ``CliLimits``). Every limit message ends with ``raise_hint``: how to raise that limit.
"""
from __future__ import annotations

import re

_SIZE_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


class Limits:
    """Each limit's default is a class attribute; an instance holds them all (``Limits(NAME=VALUE,
    ...)`` sets some, ``replace`` and ``set_from_text`` change them). Not a dataclass: the
    shell's start imports no ``dataclasses`` (with inspect, ~10 ms; tests/test_startup.py)."""

    #: Wall-clock seconds one run may take; exceeded -> status 124, like `timeout`.
    wall_time: float = 30.0
    #: Bytes of stdout one run may produce; the rest is dropped with one notice on stderr.
    stdout_bytes: int = 1024 * 1024
    #: Bytes of stderr one run may produce; the rest is dropped with one notice.
    stderr_bytes: int = 1024 * 1024
    #: Commands (simple commands, builtins and functions) one run may execute: a backstop for
    #: runaway loops next to the wall time (a while-read loop over 1M lines needs ~3M).
    commands: int = 10_000_000
    #: Words one shell command may expand to (brace expansion, "$@", globs): word-list bombs
    #: such as {1..1000}{1..1000}{1..1000} end with an error before they take the memory.
    words: int = 1_000_000
    #: Nesting depth of shell function calls (and nested `bash -c` / `source`).
    function_depth: int = 1000
    #: Total bytes of file content the VFS may hold.
    vfs_bytes: int = 256 * 1024 * 1024
    #: Number of inodes (files, directories, symlinks) the VFS may hold.
    vfs_inodes: int = 100_000
    #: Bytes one shell variable or word may grow to (string bombs end with an error, not a MemoryError).
    string_bytes: int = 64 * 1024 * 1024
    #: Bytes all shell variables (strings, array elements and keys) may hold together.
    shell_memory_bytes: int = 256 * 1024 * 1024
    #: Bytes one command may hold (sort's lines, a whole input, awk's and jq's values); also
    #: how much the kernel process may grow during a run beyond what the VFS, the shell's
    #: variables and the JS engine may hold (a safety net over all commands): memory.py.
    memory_bytes: int = 1024 * 1024 * 1024
    #: Linear memory of the JS engine (wasm) in bytes.
    wasm_memory_bytes: int = 64 * 1024 * 1024
    #: Linear memory of the Python engine (CPython in wasm, 32-bit: at most 4G) in bytes; past
    #: it allocations fail with MemoryError inside Python.
    python_memory_bytes: int = 1024 * 1024 * 1024
    #: Memory one VM command (a %%vm cell, a `vm` command) may use in the guest, page cache and
    #: files it writes to the guest's tmpfs included; the guest also caps it at its own memory
    #: less 64 MiB, so the OOM killer acts inside the command and the VM stays up.
    vm_memory_bytes: int = 16 * 1024 * 1024 * 1024
    #: Processes and threads one VM command may have at once in the guest (fork bombs).
    vm_processes: int = 1024

    def __init__(self, **values: float) -> None:
        unknown = values.keys() - set(_NAMES)
        if unknown:
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{min(unknown)}'")
        for name in _NAMES:
            setattr(self, name, values.get(name, getattr(Limits, name)))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _NAMES)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in _NAMES)})"

    def replace(self, **changes: float) -> "Limits":
        return type(self)(**{**{name: getattr(self, name) for name in _NAMES}, **changes})

    @classmethod
    def field_names(cls) -> list[str]:
        return list(_NAMES)

    def set_from_text(self, name: str, text: str) -> None:
        """Set one field from user text such as ``4M`` or ``60``; raises ValueError."""
        if name not in self.field_names():
            raise ValueError(f"unknown limit '{name}' (known: {', '.join(self.field_names())})")
        current = getattr(self, name)
        if isinstance(current, float):
            value: float | int = parse_seconds(text)
        else:
            value = parse_size(text)
        if value <= 0:
            raise ValueError(f"limit '{name}' must be positive")
        setattr(self, name, value)

    def shown(self, name: str) -> str:
        """One limit as the user writes it: ``600 s``, ``64M``, ``1000``."""
        value = getattr(self, name)
        if isinstance(value, float):
            return f"{value:g} s"
        return format_size(value) if name.endswith("bytes") else str(value)

    def setting(self, name: str, value: float | int) -> str:
        """``NAME=VALUE`` as ``%limits`` (and the CLI's ``--limit``) read it back."""
        if isinstance(value, float):
            return f"{name}={value:.12g}"
        return f"{name}={format_size(int(value)) if name.endswith('bytes') else int(value)}"

    def raise_hint(self, *names: str, ceilings: "Limits | None" = None) -> str:
        """How to give a run more of ``names``: the text every limit message ends with, e.g.
        ``raise it with %limits wall_time=1200``. Each limit is doubled; with ``ceilings``
        no further than its ceiling, and a limit already there says so instead."""
        raisable = []
        for name in names:
            value, more = getattr(self, name), getattr(self, name) * 2
            if ceilings is not None:
                if value >= getattr(ceilings, name):
                    continue
                more = min(more, getattr(ceilings, name))
            raisable.append(self.setting(name, more))
        if not raisable:
            return self.at_ceiling(list(names))
        return f"raise {'them' if len(raisable) > 1 else 'it'} with {self.how_to_set(raisable)}"

    def how_to_set(self, settings: list[str]) -> str:
        """What the user types to set ``NAME=VALUE`` settings: a kernel cell's line magic."""
        return "%limits " + " ".join(settings)

    def at_ceiling(self, names: list[str]) -> str:
        return (f"{'that is' if len(names) == 1 else 'those are'} this kernel's ceiling, which the admin "
                f"sets: python -m sandbox_kernel install --max-limit {names[0]}=...")

    def above_ceiling(self, name: str, ceilings: "Limits") -> str:
        """Why ``name`` may not be set this high (``check_ceiling``)."""
        return (f"{name}={self.shown(name)} is above this kernel's ceiling of {ceilings.shown(name)} (the "
                f"admin sets ceilings: python -m sandbox_kernel install --max-limit {name}=...)")

    def describe(self) -> str:
        return "\n".join(f"{name:18} {self.shown(name)}" for name in _NAMES)


#: the limits' names, in their order (``%limits`` lists them so)
_NAMES = tuple(Limits.__annotations__)


class CliLimits(Limits):
    """The limits of ``python -m sandbox_kernel sh``: the same values and ceilings, but its
    messages name its ``--limit NAME=VALUE`` option (it has no ``%limits``)."""

    def how_to_set(self, settings: list[str]) -> str:
        return " ".join(f"--limit {setting}" for setting in settings)

    def at_ceiling(self, names: list[str]) -> str:
        return "the CLI allows no more"

    def above_ceiling(self, name: str, ceilings: Limits) -> str:
        return f"{name}={self.shown(name)} is above the most the CLI allows ({ceilings.shown(name)})"


def notebook_defaults() -> Limits:
    """Kernel cells: 10 minutes of wall time (a lesson loop calling a 2 s program 15 times,
    `sleep 35`, a long build all fit), the rest as for the CLI."""
    return Limits(wall_time=600.0)


#: The most a cell may ask for unless the admin sets other ceilings: sized so that one
#: notebook cannot take a typical host (memory-backed limits) and stays interruptible.
DEFAULT_CEILINGS = Limits(
    wall_time=24 * 3600.0,
    stdout_bytes=256 * 1024**2,
    stderr_bytes=256 * 1024**2,
    commands=10**10,
    words=20_000_000,
    function_depth=1000,
    vfs_bytes=4 * 1024**3,
    vfs_inodes=2_000_000,
    string_bytes=1024**3,
    shell_memory_bytes=2 * 1024**3,
    memory_bytes=4 * 1024**3,
    wasm_memory_bytes=2 * 1024**3,
    python_memory_bytes=4 * 1024**3,
    vm_memory_bytes=64 * 1024**3,
    vm_processes=32768,
)


def check_ceiling(limits: Limits, ceilings: Limits, name: str) -> None:
    """Raise ValueError when ``limits.name`` is above its ceiling."""
    if getattr(limits, name) > getattr(ceilings, name):
        raise ValueError(limits.above_ceiling(name, ceilings))


_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_seconds(text: str) -> float:
    """``60``, ``1.5``, ``10m``, ``2h`` -> seconds (finite: no ``inf`` or ``nan``)."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([smhd]?)\s*", text, re.IGNORECASE)
    if not m:
        raise ValueError(f"invalid duration '{text}' (seconds, or with a unit: 90s, 10m, 2h)")
    return float(m.group(1)) * _SECONDS[m.group(2).lower()]


def parse_size(text: str) -> int:
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if not m:
        raise ValueError(f"invalid size '{text}'")
    return int(float(m.group(1)) * _SIZE_UNITS[m.group(2).upper()])


def format_size(n: int) -> str:
    for unit in ("T", "G", "M", "K"):
        scale = _SIZE_UNITS[unit]
        if n >= scale and n % scale == 0:
            return f"{n // scale}{unit}"
    return str(n)
