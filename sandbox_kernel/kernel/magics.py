"""Cell routing and line magics of the kernel (``%%js``, ``%limits``, ``%save`` ...).

Kept apart from the protocol layer so it can be tested without a kernel process.
"""
from __future__ import annotations

import io
import re
import shlex
import tarfile
from dataclasses import dataclass, field

from ..limits import Limits
from ..vfs import FSError, export_tar, import_tar, normpath

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
def set_limits(limits: Limits, args: list[str]) -> list[str]:
    """Apply ``NAME=VALUE`` settings (all or none); returns the changed names."""
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
    for name in changed:
        setattr(limits, name, getattr(trial, name))
    return changed


def limits_bundle(limits: Limits) -> dict:
    rows = limits.describe().splitlines()
    html_rows = "".join(
        "<tr><td><code>{}</code></td><td>{}</td></tr>".format(*(row.split(None, 1) + [""])[:2]) for row in rows)
    return {"text/plain": "\n".join(rows),
            "text/html": f"<table><tr><th>limit</th><th>value</th></tr>{html_rows}</table>"}


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


def save_snapshot(fs, path: str, cwd: str) -> int:
    """Write the snapshot trees to ``path`` (a VFS file, itself left out); returns the entry count."""
    compress = _compression(path)
    target = normpath(path, cwd)
    buf = io.BytesIO()
    count = 0
    with tarfile.open(fileobj=buf, mode="w:" + compress if compress else "w",
                      format=tarfile.PAX_FORMAT) as out:
        for root in SNAPSHOT_ROOTS:
            if not fs.is_dir(root):
                continue
            part = io.BytesIO()
            export_tar(fs, part, root)
            part.seek(0)
            prefix = root.lstrip("/")
            root_info = tarfile.TarInfo(prefix)
            root_info.type = tarfile.DIRTYPE
            st = fs.stat(root)
            root_info.mode, root_info.mtime = st.st_mode & 0o7777, int(st.st_mtime)
            out.addfile(root_info)
            with tarfile.open(fileobj=part, mode="r") as tin:
                for member in tin.getmembers():
                    if root + "/" + member.name == target:
                        continue
                    data = tin.extractfile(member) if member.isreg() else None
                    member.name = prefix + "/" + member.name
                    out.addfile(member, data)
                    count += 1
    fs.write_bytes(target, buf.getvalue())
    return count


def load_snapshot(fs, path: str, cwd: str) -> int:
    """Replace the snapshot trees with the contents of the snapshot ``path``; returns the count
    of entries restored. The archive file itself is kept."""
    target = normpath(path, cwd)
    data = fs.read_bytes(target)
    prefixes = tuple(root.lstrip("/") for root in SNAPSHOT_ROOTS)
    kept = io.BytesIO()
    restored = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tin, \
                tarfile.open(fileobj=kept, mode="w", format=tarfile.PAX_FORMAT) as out:
            for member in tin.getmembers():
                name = member.name.lstrip("/")
                if name in prefixes:
                    continue
                if not name.startswith(tuple(p + "/" for p in prefixes)):
                    continue
                member.name = name
                out.addfile(member, tin.extractfile(member) if member.isreg() else None)
                restored += 1
    except (tarfile.TarError, EOFError, OSError) as e:
        if isinstance(e, FSError):
            raise
        raise MagicError(f"'{path}': not a tar archive ({e})") from None
    if restored == 0:
        raise MagicError(f"'{path}': not a snapshot made by %save (nothing under "
                         + ", ".join(SNAPSHOT_ROOTS) + ")")
    for root in SNAPSHOT_ROOTS:
        if fs.is_dir(root):
            for name in fs.listdir(root):
                fs.remove_tree(root + "/" + name)
    kept.seek(0)
    import_tar(fs, kept, "/")
    if target.startswith(tuple(root + "/" for root in SNAPSHOT_ROOTS)):
        fs.mkdir(target.rsplit("/", 1)[0] or "/", parents=True)
        fs.write_bytes(target, data)
    return restored
