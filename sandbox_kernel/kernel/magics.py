"""Cell routing and line magics of the kernel (``%%js``, ``%limits``, ``%save`` ...).

Kept apart from the protocol layer so it can be tested without a kernel process.
"""
from __future__ import annotations

import io
import re
import secrets
import shlex
from dataclasses import dataclass, field
from typing import Callable

from ..limits import Limits, format_size
from ..vfs import USER_UID, FSError, export_tar, import_tar, normpath

#: ``%%name`` -> engine.
CELL_MAGICS = {"sh": "sh", "bash": "sh", "js": "js", "vm": "vm"}
#: cell magics whose first line may carry options for their engine (``%%vm --root``)
CELL_MAGICS_WITH_OPTIONS = {"vm"}
#: ``%name`` -> one-line help.
LINE_MAGICS = {
    "limits": "%limits [NAME=VALUE ...]  show or set this kernel's limits (e.g. wall_time=60 stdout_bytes=4M)",
    "save": "%save PATH.tar[.gz]       snapshot /workspace, /home/user and /tmp into a VFS file",
    "load": "%load PATH.tar[.gz]       restore a snapshot made by %save (replaces those trees)",
    "help": "%help NAME                show the help of a command, builtin or magic in the pager",
    "js": "%js ARGS                  forward to the JS engine (e.g. %js reset)",
    "vm": "%vm ARGS                  forward to the VM engine (e.g. %vm status)",
}
#: The trees a snapshot holds: everything the sandbox user can write.
SNAPSHOT_ROOTS = ("/workspace", "/home/user", "/tmp")

_CELL_MAGIC = re.compile(r"%%(\S*)(.*)")
_LINE_MAGIC = re.compile(r"%([A-Za-z_][\w-]*)(.*)")


class MagicError(Exception):
    """A bad magic line; the message is shown to the user (ename ``UsageError``)."""


@dataclass
class Cell:
    """What a cell asks for: line magics to run, then ``body`` in ``engine`` (unless blank)."""

    engine: str = "sh"
    body: str = ""
    line_magics: list[tuple[str, str]] = field(default_factory=list)
    #: the cell magic's options (None: none given), for the engine to check
    args: list[str] | None = None

    @property
    def has_code(self) -> bool:
        return bool(self.body.strip())


def known_cell_magics() -> str:
    return ", ".join("%%" + name for name in CELL_MAGICS)


def known_line_magics() -> str:
    return ", ".join("%" + name for name in LINE_MAGICS)


def parse_cell(code: str) -> Cell:
    """Split a cell into its magics and body; raises MagicError for unknown magics.

    Consumed magic lines become empty lines in ``body`` so that line numbers in the engine's
    messages are the cell's."""
    lines = code.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i == len(lines):
        return Cell()
    first = lines[i].strip()
    m = _CELL_MAGIC.fullmatch(first)
    if m:
        name = m.group(1)
        if name not in CELL_MAGICS:
            raise MagicError(f"unknown cell magic '%%{name}' (known: {known_cell_magics()})")
        args = None
        if m.group(2).strip():
            if name not in CELL_MAGICS_WITH_OPTIONS:
                raise MagicError(f"%%{name} takes no arguments (put the code on the next lines)")
            args = split_args(m.group(2))
        return Cell(CELL_MAGICS[name], "\n" * (i + 1) + "\n".join(lines[i + 1:]), args=args)
    magics: list[tuple[str, str]] = []
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped:
            i += 1
            continue
        m = _LINE_MAGIC.fullmatch(stripped)
        if not m:
            break
        name = m.group(1)
        if name not in LINE_MAGICS:
            hint = f"; cell magics ({known_cell_magics()}) go on the first line" if name in CELL_MAGICS else ""
            raise MagicError(f"unknown line magic '%{name}' (known: {known_line_magics()}){hint}")
        magics.append((name, m.group(2).strip()))
        i += 1
    return Cell("sh", "\n" * i + "\n".join(lines[i:]), magics)


def split_args(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as e:
        raise MagicError(f"cannot parse arguments: {e}") from None


# ------------------------------------------------------------------ %limits
def parse_limits(limits: Limits, args: list[str]) -> tuple[Limits, list[str]]:
    """``limits`` with the ``NAME=VALUE`` settings applied to a copy, and the changed names."""
    trial = limits.replace()
    changed = []
    for arg in args:
        name, eq, value = arg.partition("=")
        if not eq or not value:
            raise MagicError(f"expected NAME=VALUE, got '{arg}' (e.g. %limits wall_time=60 stdout_bytes=4M)")
        try:
            trial.set_from_text(name, value)
        except ValueError as e:
            raise MagicError(str(e)) from None
        changed.append(name)
    return trial, changed


def limits_bundle(limits: Limits, ceilings: Limits) -> dict:
    """The %limits table: each limit, and the most %limits may raise it to."""
    names = Limits.field_names()
    text = [f"{'limit':18} {'value':>10}  ceiling"] + [
        f"{n:18} {limits.shown(n):>10}  {ceilings.shown(n)}" for n in names]
    html_rows = "".join(f"<tr><td><code>{n}</code></td><td>{limits.shown(n)}</td><td>{ceilings.shown(n)}</td></tr>"
                        for n in names)
    return {"text/plain": "\n".join(text),
            "text/html": f"<table><tr><th>limit</th><th>value</th><th>ceiling</th></tr>{html_rows}</table>"}


# ------------------------------------------------------------------ %save / %load
def _compression(path: str) -> str:
    if path.endswith((".tar.gz", ".tgz")):
        return "gz"
    if path.endswith((".tar.bz2", ".tbz2")):
        return "bz2"
    if path.endswith((".tar.xz", ".txz")):
        return "xz"
    if path.endswith(".tar"):
        return ""
    raise MagicError(f"'{path}': the snapshot name must end in .tar, .tar.gz, .tar.bz2 or .tar.xz")


def _in_snapshot(name: str) -> bool:
    """Whether archive name ``name`` (relative to /) belongs to a snapshot tree."""
    return any(name == r.lstrip("/") or name.startswith(r.lstrip("/") + "/") for r in SNAPSHOT_ROOTS)


def save_snapshot(fs, path: str, cwd: str, check: Callable[[], None] | None = None) -> int:
    """Write the snapshot trees to ``path`` (a VFS file, itself left out); returns the entry count."""
    compress = _compression(path)
    target = normpath(path, cwd)
    buf = io.BytesIO()
    count = export_tar(fs, buf, "/", compress=compress, check=check,
                       skip=lambda name: not _in_snapshot(name) or "/" + name == target)
    fs.write_bytes(target, buf.getvalue())
    return count - sum(1 for r in SNAPSHOT_ROOTS if fs.is_dir(r))  # the roots themselves


def load_snapshot(fs, path: str, cwd: str, check: Callable[[], None] | None = None) -> int:
    """Replace the snapshot trees with the contents of the snapshot ``path``; returns the count
    of entries restored. The archive is unpacked beside the current trees first and swapped in
    only when all of it unpacked: a bad archive, a full VFS or an interrupt changes nothing.
    The archive file itself is kept."""
    target = normpath(path, cwd)
    data = fs.read_bytes(target)
    staging = f"/.sandbox-load-{secrets.token_hex(4)}"
    fs.install_dir_as_root(staging, 0o700, USER_UID)
    try:
        try:
            import_tar(fs, io.BytesIO(data), staging, check=check)
        except FSError as e:
            if e.code == "ENOSPC":
                raise MagicError(f"'{path}': not enough room in the VFS to unpack the snapshot beside "
                                 f"the current files (vfs_bytes={format_size(fs.max_bytes)}B); free some "
                                 "space or raise vfs_bytes; nothing was changed") from None
            if e.code == "EINVAL":
                raise MagicError(f"'{path}': {e.filename or 'not a tar archive'}; nothing was changed") from None
            raise
        restored = {root: sum(1 for _ in _entries_below(fs, staging + root)) for root in SNAPSHOT_ROOTS}
        if not any(restored.values()):
            raise MagicError(f"'{path}': not a snapshot made by %save (nothing under "
                             + ", ".join(SNAPSHOT_ROOTS) + "); nothing was changed")
        for root in SNAPSHOT_ROOTS:
            staged = staging + root
            if not fs.is_dir(root) or not fs.is_dir(staged):
                continue
            for name in fs.listdir(root):
                fs.remove_tree(root + "/" + name)
            for name in fs.listdir(staged):
                fs.rename(staged + "/" + name, root + "/" + name)
    finally:
        with fs.privileged():
            fs.remove_tree(staging)
    if target.startswith(tuple(root + "/" for root in SNAPSHOT_ROOTS)) and not fs.exists(target):
        fs.mkdir(target.rsplit("/", 1)[0] or "/", parents=True, exist_ok=True)
        fs.write_bytes(target, data)
    return sum(restored.values())


def _entries_below(fs, top: str):
    try:
        for _, dirs, files in fs.walk(top):
            yield from dirs
            yield from files
    except FSError:
        return
