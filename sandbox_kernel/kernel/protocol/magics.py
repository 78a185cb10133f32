"""Cell routing and line magics of the kernel (``%%js``, ``%limits``, ``%save`` ...).

Kept apart from the protocol layer so it can be tested without a kernel process.
"""
from __future__ import annotations

import re
import secrets
import shlex
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ...limits import Limits, format_size
from ...paths import under
from ...vfs import USER_UID, Dir, FSError, normpath
from ...vfs.fs import MAX_PATH
from ...vfs.tar import export_size, export_tar, import_tar

#: ``%%name`` -> engine.
CELL_MAGICS = {"sh": "sh", "bash": "sh", "js": "js", "python": "python", "vm": "vm"}
#: cell magics whose first line may carry options for their engine (``%%vm --root``)
CELL_MAGICS_WITH_OPTIONS = {"vm"}
#: ``%name`` -> one-line help.
LINE_MAGICS = {
    "limits": "%limits [NAME=VALUE ...]  show or set this kernel's limits (e.g. wall_time=60 stdout_bytes=4M)",
    "save": "%save PATH.tar[.gz]       snapshot /workspace, /home/user and /tmp into a VFS file",
    "load": "%load PATH.tar[.gz]       restore a snapshot made by %save (replaces those trees)",
    "help": "%help [NAME]              the help of a command, builtin or magic in the pager (none: an overview)",
    "lsmagic": "%lsmagic                  list the magics",
    "magic": "%magic                    how magics work, and each one's help",
    "workspace": "%workspace [list|attach|delete]  the persistent workspaces (--persist): list, use or delete one",
    "js": "%js reset | info          reset or describe the JS context",
    "python": "%python reset | info      reset or describe the Python interpreter",
    "vm": "%vm ARGS                  start, stop, status, egress, config of the VM (%vm help)",
}
#: ``%%name`` -> one-line help (sh and bash are one entry).
CELL_MAGIC_HELP = {
    "sh": "%%sh, %%bash              the cell is shell code (the default: a cell needs no magic)",
    "js": "%%js                      the cell is JavaScript in this kernel's QuickJS context (kept between cells)",
    "python": "%%python                  the cell is Python in this kernel's CPython interpreter (kept between cells)",
    "vm": "%%vm [--root|--user] [--keep]  the cell is bash in the microVM (booted on first use; %vm help)",
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
    #: where the code after the magic lines starts in the cell's text, and how far a position
    #: in ``body`` lies from the same position in the cell's text (the magic lines are
    #: newlines in ``body``): ``text index = body index + shift`` from ``code_start`` on
    code_start: int = 0
    shift: int = 0

    @property
    def has_code(self) -> bool:
        return bool(self.body.strip())


class Route(NamedTuple):
    """Where a completion or inspection at a cursor goes: ``engine`` gets ``text`` with the
    cursor at ``position``; its answer's offsets + ``shift`` are the cell's."""

    engine: str
    text: str
    position: int
    shift: int


def route(code: str, cursor: int) -> Route | None:
    """The cell's engine with the cell's body (the cursor moved into it); on the magic lines
    (``%load fi``) the shell with the whole text; None for a cell whose magics are wrong."""
    try:
        cell = parse_cell(code)
    except MagicError:
        return None
    cursor = max(0, min(cursor, len(code)))
    if cursor < cell.code_start:
        return Route("sh", code, cursor, 0)
    return Route(cell.engine, cell.body, cursor - cell.shift, cell.shift)


def magic_word(code: str, cursor: int, whole: bool = False) -> tuple[int, str, bool] | None:
    """The ``%word`` a cursor is in, when it is a magic's name: on the first line that is not
    blank (cell or line magic) or on a line magic's line after it; (where it starts, the word
    up to the cursor (``whole``: all of it), whether a cell magic may stand there)."""
    cursor = max(0, min(cursor, len(code)))
    line_start = code.rfind("\n", 0, cursor) + 1
    line_end = code.find("\n", cursor)
    line = code[line_start:len(code) if line_end < 0 else line_end]
    head = line[:cursor - line_start]
    token = head.lstrip()
    if not token.startswith("%") or any(c.isspace() for c in token):
        return None
    earlier = [prior.strip() for prior in code[:line_start].split("\n")[:-1]]
    if any(prior and (not prior.startswith("%") or prior.startswith("%%")) for prior in earlier):
        return None  # after code, or inside a cell magic's cell
    if whole:
        token = line[len(head) - len(token):].split()[0]
    return cursor - len(head.lstrip()), token, not any(earlier)


def known_cell_magics() -> str:
    return ", ".join("%%" + name for name in CELL_MAGICS)


def known_line_magics() -> str:
    return ", ".join("%" + name for name in LINE_MAGICS)


def magic_list() -> str:
    """%lsmagic: every magic with its one-line help."""
    return ("Cell magics (the first line of a cell):\n" + "".join(f"  {h}\n" for h in CELL_MAGIC_HELP.values())
            + "Line magics (lines at the top of a cell, before its code):\n"
            + "".join(f"  {h}\n" for h in LINE_MAGICS.values()))


def magic_help(name: str) -> str | None:
    """The help of the magics called NAME (``%%vm`` and ``%vm`` for "vm"), or None."""
    key = CELL_MAGICS.get(name)
    lines = [CELL_MAGIC_HELP[key]] if key in CELL_MAGIC_HELP else []
    if name in LINE_MAGICS:
        lines.append(LINE_MAGICS[name])
    return "\n".join(lines) or None


MAGIC_OVERVIEW = """\
Magics are lines that start with % and are read by the kernel, not by an engine.
A cell magic (%%NAME) is the first line of a cell and picks the engine the rest of the
cell runs in; without one, a cell is shell code. Line magics (%NAME ARGS) are lines at
the top of a cell, before its code, and run in order before it.

"""


def parse_cell(code: str) -> Cell:
    """Split a cell into its magics and body; raises MagicError for unknown magics.

    Consumed magic lines become empty lines in ``body`` so that line numbers in the engine's
    messages are the cell's."""
    lines = code.split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i == len(lines):
        return Cell(body=code)  # blank: nothing to run
    first = lines[i].strip()
    m = _CELL_MAGIC.fullmatch(first)
    if m:
        name = m.group(1)
        if name not in CELL_MAGICS:
            raise MagicError(f"unknown cell magic '%%{name}' (known: {known_cell_magics()}; "
                             f"line magics: {known_line_magics()})")
        args = None
        if m.group(2).strip():
            if name not in CELL_MAGICS_WITH_OPTIONS:
                raise MagicError(f"%%{name} takes no arguments (put the code on the next lines)")
            args = split_args(m.group(2))
        start = len("\n".join(lines[:i + 1])) + 1
        return Cell(CELL_MAGICS[name], "\n" * (i + 1) + "\n".join(lines[i + 1:]), args=args,
                    code_start=start, shift=start - (i + 1))
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
            where = " go on the first line" if name in CELL_MAGICS else ""
            raise MagicError(f"unknown line magic '%{name}' (known: {known_line_magics()}; cell magics"
                             f"{where}: {known_cell_magics()})")
        magics.append((name, m.group(2).strip()))
        i += 1
    start = len("\n".join(lines[:i])) + 1 if i else 0
    return Cell("sh", "\n" * i + "\n".join(lines[i:]), magics, code_start=start, shift=start - i)


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
    """Write the snapshot trees to ``path`` (a VFS file, itself left out, as are the admin's
    mounts); returns the entry count. The archive is written into the VFS as it is made (never gathered in memory) under
    a temporary name, renamed to ``path`` when complete: a full VFS, the wall time or an
    interrupt leave nothing behind. An uncompressed snapshot that cannot fit (a deep tree's
    tar is quadratic in its depth) is refused before anything is written."""
    compress = _compression(path)
    target = normpath(path, cwd)
    partial = (target.rsplit("/", 1)[0] or "") + f"/.sandbox-save-{secrets.token_hex(4)}"

    mounts = tuple(fs.mount_points)  # outside every snapshot

    def skip(name: str) -> bool:
        path = "/" + name
        return not _in_snapshot(name) or path in (target, partial) or any(under(path, m) for m in mounts)
    room = fs.max_bytes - fs.bytes_used
    if fs.is_file(target):
        room += fs.stat(target).st_size
    if not compress:
        need = export_size(fs, "/", skip=skip, check=check)
        if need > room:
            raise MagicError(f"'{path}': the snapshot needs {_mib(need)} but the VFS has {_mib(room)} free "
                             f"(vfs_bytes={format_size(fs.max_bytes)}B); free some space, raise vfs_bytes "
                             f"or save it compressed ({path}.gz); nothing was written")
    try:
        with fs.open(partial, "xb") as out:
            count = export_tar(fs, out, "/", compress=compress, check=check, skip=skip)
        fs.rename(partial, target)
    except BaseException as e:
        try:
            fs.unlink(partial)
        except FSError:
            pass
        if isinstance(e, FSError) and e.code == "ENOSPC":
            raise MagicError(f"'{path}': not enough room in the VFS for the snapshot (vfs_bytes="
                             f"{format_size(fs.max_bytes)}B); free some space or raise vfs_bytes; "
                             "nothing was written") from None
        raise
    return count - sum(1 for r in SNAPSHOT_ROOTS if fs.is_dir(r))  # the roots themselves


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def load_snapshot(fs, path: str, cwd: str, check: Callable[[], None] | None = None,
                  notes: list[str] | None = None) -> int:
    """Replace the snapshot trees with the contents of the snapshot ``path``; returns the count
    of entries restored. The archive is unpacked beside the current trees first (a bad
    archive, a full VFS or an interrupt changes nothing), then each tree's contents are
    exchanged with the staged ones in one step (nothing to fail half way on a read-only
    directory; should one exchange fail, those done are exchanged back), and only then are
    the old contents deleted. The admin's mounts (ro and rw) are outside every snapshot: the
    snapshot's entries there are dropped (said in ``notes``) and each mount's tree is moved
    into the staged tree before the exchange, so it stays as it is in the sandbox and on the
    host (nothing is written back for it). The archive file itself is kept."""
    target = normpath(path, cwd)
    if not fs.is_file(target):
        fs.read_bytes(target)  # the error a missing or unreadable file gives
    staging = f"/.sandbox-load-{secrets.token_hex(4)}"
    fs.install_dir_as_root(staging, 0o700, USER_UID)
    try:
        try:
            with fs.open(target, "rb") as archive:
                import_tar(fs, archive, staging, check=check)
        except FSError as e:
            if e.code == "ENOSPC":
                raise MagicError(f"'{path}': not enough room in the VFS to unpack the snapshot beside "
                                 f"the current files (vfs_bytes={format_size(fs.max_bytes)}B); free some space or "
                                 "raise vfs_bytes; nothing was changed") from None
            if e.code == "EINVAL":
                raise MagicError(f"'{path}': {e.filename or 'not a tar archive'}; nothing was changed") from None
            raise
        roots = [r for r in SNAPSHOT_ROOTS if fs.is_dir(r) and _is_real_dir(fs, staging + r)]
        mounts = sorted(m for m in fs.mount_points if any(under(m, r) for r in roots))
        restored = {root: _count_below(fs, staging + root, [staging + m for m in mounts]) for root in roots}
        dropped: list[str] = []  # the mounts where the snapshot had entries
        with fs.privileged():
            kept = [m for m in mounts if _stage_mount_point(fs, staging, m, dropped)]
        if not any(restored.values()):
            if dropped:
                raise MagicError(f"'{path}': the snapshot holds nothing but the admin's mounts ({', '.join(dropped)}), "
                                 "which are outside every snapshot; nothing was changed")
            raise MagicError(f"'{path}': not a snapshot made by %save (nothing under "
                             + ", ".join(SNAPSHOT_ROOTS) + "); nothing was changed")
        if notes is not None:
            notes += [f"{m}: the admin's mount is outside every snapshot: the snapshot's entries there were "
                      "skipped, the mount is left as it is" for m in dropped]
        if check is not None:
            check()
        with fs.privileged():
            swapped: list[str] = []
            try:
                for mount in kept:  # the mount's tree into the staged tree, an empty one in its place
                    fs.swap_entries(mount, staging + mount)
                    swapped.append(mount)
                for root in roots:
                    fs.swap_entries(root, staging + root)
                    swapped.append(root)
            except BaseException:
                for done in reversed(swapped):
                    fs.swap_entries(done, staging + done)
                raise
        # past this point the new trees are in place: what follows only tidies up
        for root in roots:
            _told_replaced(fs, root, staging + root, mounts)
        if target.startswith(tuple(root + "/" for root in roots)) and not fs.exists(target, follow=False):
            _move_back(fs, staging + target, target)
    finally:
        with fs.privileged():
            fs.remove_tree(staging)
    return sum(restored.values())


def _stage_mount_point(fs, staging: str, mount: str, dropped: list[str]) -> bool:
    """Drop what the staged snapshot has at the admin's mount ``mount`` (``mount`` is added
    to ``dropped`` if it had anything) and make it an empty directory like the live mount
    point (its parents like the live ones where the snapshot has none); returns whether the
    live mount point is there to keep (a directory). Both chains are walked in hand: no
    symlink is followed."""
    parts = mount.strip("/").split("/")
    live: Dir | None = fs.root
    folder = fs.node(staging, follow=False)
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        found = live.entries.get(part) if live is not None else None
        live = found if isinstance(found, Dir) else None
        child = folder.entries.get(part)
        if child is not None and (last or not isinstance(child, Dir)):
            fs.remove_in(folder, part)  # the snapshot's copy of the mount, or a file where its parents go
            if mount not in dropped:
                dropped.append(mount)
            child = None
        if live is None:
            return False  # no mount point to keep: nothing is made there
        if child is None:
            child = fs.mkdir_in(folder, part, 0o700)
            fs.chmod_node(child, live.mode & 0o7777)
            fs.chown_node(child, live.uid, live.gid)
        folder = child
    return True


def _is_real_dir(fs, path: str) -> bool:
    try:
        return fs.lstat(path).type == "dir"
    except FSError:
        return False


def _count_below(fs, top: str, left_out: list[str]) -> int:
    """Entries below directory ``top``, counted on the nodes (trees deeper than a path may be
    long count too), but the trees at ``left_out`` (the mounts' places)."""
    todo: list[tuple[Dir, str | None]] = [(fs.node(top, follow=False), top)]
    count = 0
    while todo:
        folder, path = todo.pop()
        for name, child in folder.entries.items():
            # a path is kept only along the way to a left-out tree (deep trees have none)
            sub = f"{path}/{name}" if path is not None and any(under(o, f"{path}/{name}") for o in left_out) else None
            if sub in left_out:
                continue
            count += 1
            if isinstance(child, Dir):
                todo.append((child, sub))
    return count


def _old_entries(fs, root: str, old: str, mounts: list[str]):
    """(path at ``root``, node) of every entry of the old contents (now under ``old``) whose
    path is not longer than a path may be, but the admin's mount points (still in place)."""
    todo = [(root, fs.node(old, follow=False))]
    while todo:
        path, folder = todo.pop()
        for name, child in folder.entries.items():
            sub = f"{path}/{name}"
            if sub in mounts:
                continue
            yield sub, child
            if isinstance(child, Dir) and len(sub) < MAX_PATH:
                todo.append((sub, child))


def _move_back(fs, src: str, dest: str) -> None:
    """Put ``src`` (under the staging tree) at ``dest`` in the new tree, replacing what is
    there; parents are made as the user's. Skipped when ``dest``'s parent cannot be a
    directory."""
    parent = dest.rsplit("/", 1)[0] or "/"
    try:
        fs.mkdir(parent, parents=True, exist_ok=True)
        with fs.privileged():
            if fs.exists(dest, follow=False):
                fs.remove_tree(dest)
            fs.rename(src, dest)
    except FSError:
        pass


def _told_replaced(fs, root: str, old: str, mounts: list[str]) -> None:
    """The listeners (the persistent store, rw mounts, watching comms) hear what a %load
    replaced: every old entry deleted, every new top-level entry created (a created
    directory stands for its contents); the mounts did not change."""
    if not fs.listeners:
        return
    for path, _ in _old_entries(fs, root, old, mounts):
        fs.notify(path, "deleted")
    for name in fs.node(root, follow=False).entries:
        if f"{root}/{name}" not in mounts:
            fs.notify(f"{root}/{name}", "created")
