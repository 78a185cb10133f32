"""Resource limits of a sandbox run (one cell, one CLI script)."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, fields

_SIZE_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


@dataclass
class Limits:
    #: Wall-clock seconds one run may take; exceeded -> status 124, like `timeout`.
    wall_time: float = 30.0
    #: Bytes of stdout one run may produce; the rest is dropped with one notice on stderr.
    stdout_bytes: int = 1024 * 1024
    #: Bytes of stderr one run may produce; the rest is dropped with one notice.
    stderr_bytes: int = 1024 * 1024
    #: Commands (simple commands, builtins and functions) one run may execute: a backstop for
    #: runaway loops next to the wall time (a while-read loop over 1M lines needs ~3M).
    commands: int = 10_000_000
    #: Nesting depth of shell function calls (and nested `bash -c` / `source`).
    function_depth: int = 1000
    #: Total bytes of file content the VFS may hold.
    vfs_bytes: int = 256 * 1024 * 1024
    #: Number of inodes (files, directories, symlinks) the VFS may hold.
    vfs_inodes: int = 100_000
    #: Bytes one shell variable or word may grow to (string bombs end with an error, not a MemoryError).
    string_bytes: int = 64 * 1024 * 1024
    #: Linear memory of the JS engine (wasm) in bytes.
    wasm_memory_bytes: int = 64 * 1024 * 1024
    #: Memory one VM command (a %%vm cell, a `vm` command) may use in the guest, page cache and
    #: files it writes to the guest's tmpfs included; the guest also caps it at its own memory
    #: less 64 MiB, so the OOM killer acts inside the command and the VM stays up.
    vm_memory_bytes: int = 16 * 1024 * 1024 * 1024
    #: Processes and threads one VM command may have at once in the guest (fork bombs).
    vm_processes: int = 1024

    def replace(self, **changes) -> "Limits":
        return dataclasses.replace(self, **changes)

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def set_from_text(self, name: str, text: str) -> None:
        """Set one field from user text such as ``4M`` or ``60``; raises ValueError."""
        if name not in self.field_names():
            raise ValueError(f"unknown limit '{name}' (known: {', '.join(self.field_names())})")
        current = getattr(self, name)
        if isinstance(current, float):
            value: float | int = float(text)
        else:
            value = parse_size(text)
        if value <= 0:
            raise ValueError(f"limit '{name}' must be positive")
        setattr(self, name, value)

    def describe(self) -> str:
        rows = []
        for f in fields(self):
            value = getattr(self, f.name)
            shown = f"{value:g} s" if isinstance(value, float) else format_size(value) if f.name.endswith("bytes") else str(value)
            rows.append(f"{f.name:18} {shown}")
        return "\n".join(rows)


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
