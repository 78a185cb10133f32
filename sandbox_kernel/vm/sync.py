"""Two-way sync of the VFS ``/workspace`` with the guest's ``/workspace``.

Before a VM command, what changed in the VFS since the last sync is copied in (deletions
too); after it, what changed in the guest is copied back. Directories the user may not
write (a read-only mount's 0555) are made writable while their contents go in and get their
mode at the end of the step. "Changed" compares (type, size,
mtime, mode, link target) with the snapshot each side had at the last sync, and a changed
guest file whose content equals the VFS file (SHA-256) is not rewritten. A path changed on
both sides keeps the sandbox version and is reported; a file the VFS quota cannot hold is
reported and left in the guest. Nothing is dropped silently (notes are capped per step).

The guest is as untrusted as the cell (its root can replace the agent): every name, type,
size and link target of its listing is checked before anything is written to the VFS, and
writes land only in real directories under ``/workspace``. The guest side of the sync acts
as the guest's unprivileged user (``protocol.GUEST_USER``), who owns ``/workspace`` there.
"""
from __future__ import annotations

import errno as errno_mod
import hashlib
import os
import stat as stat_mod
from typing import Callable

from ..vfs import FSError
from . import protocol as P
from .client import AgentClient, AgentError

ROOT = "/workspace"
Entry = tuple  # (type, size, mtime, mode, target); ("unreadable", errno) for VFS entries it cannot stat
MAX_REL = P.MAX_PATH - len(ROOT) - 1   # bytes of a name relative to ROOT
MAX_COMPONENT = 255                    # bytes of one path component (NAME_MAX)
LISTING_BYTES = 64 << 20               # of a guest listing accepted (the entries are capped by the VFS inodes)
MAX_NOTES = 20                         # notes shown per sync step; the rest are counted
KINDS = ("file", "dir", "symlink", "other")


class Notes:
    """The report of one sync step: the first MAX_NOTES notes, then how many more there were."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report
        self.count = 0

    def __call__(self, line: str) -> None:
        self.count += 1
        if self.count <= MAX_NOTES:
            self.report(line)

    def close(self) -> None:
        if self.count > MAX_NOTES:
            self.report(f"vm: sync: ... and {self.count - MAX_NOTES} more notes like these")


def shown(path: str) -> str:
    """A path for a message: long ones shortened, with their length."""
    if len(path) <= 160:
        return path
    return f"{path[:80]}...{path[-60:]} ({len(path.encode('utf-8', 'surrogateescape'))} bytes)"


def reason(e: OSError) -> str:
    """The error without the path the agent puts in its messages (ours are named already)."""
    return os.strerror(e.errno) if isinstance(e.errno, int) and 0 < e.errno < 4096 else str(e.strerror or e)


def entry_problem(e: dict, seen: dict[str, Entry]) -> str | None:
    """Why a guest listing entry must not be used (None: it may). ``seen``: the entries
    accepted so far, in listing order (a directory comes before its contents)."""
    name = e.get("name", "")
    raw = name.encode("utf-8", "surrogateescape")
    if not raw:
        return "an empty name"
    if len(raw) > MAX_REL:
        return f"longer than {MAX_REL} bytes"
    if "\0" in name:
        return "a NUL byte"
    parts = name.split("/")
    if "" in parts:
        return "an absolute name or an empty component"
    if "." in parts or ".." in parts:
        return "a '.' or '..' component"
    if any(len(part.encode("utf-8", "surrogateescape")) > MAX_COMPONENT for part in parts):
        return f"a component longer than {MAX_COMPONENT} bytes"
    if name in seen:
        return "listed twice"
    parent = name.rpartition("/")[0]
    if parent and seen.get(parent, ("",))[0] != "dir":
        return "its parent is not a directory of the listing"
    if e.get("type") not in KINDS:
        return "an unknown type"
    for key in ("size", "mode", "mtime_ns"):
        if not isinstance(e.get(key, 0), int) or not 0 <= e.get(key, 0) < 1 << 63:
            return f"an impossible {key}"
    if e["type"] == "symlink":
        target = e.get("target")
        if not isinstance(target, str) or not target:
            return "a symbolic link without a target"
        if "\0" in target or len(target.encode("utf-8", "surrogateescape")) >= P.MAX_PATH:
            return "an invalid link target"
    return None


def _vfs_type(st) -> str:
    m = st.st_mode
    return ("dir" if stat_mod.S_ISDIR(m) else "file" if stat_mod.S_ISREG(m) else
            "symlink" if stat_mod.S_ISLNK(m) else "other")


class WorkspaceSync:
    def __init__(self, fs) -> None:
        self.fs = fs
        self.vfs_base: dict[str, Entry] = {}
        self.guest_base: dict[str, Entry] = {}
        self.root_listed = False  # the last sync_out listed the guest's /workspace
        #: guest paths the VFS cannot hold, as the last listing had them (each is told once)
        self.too_long: set[str] = set()

    def reset(self) -> None:
        """A fresh guest: its /workspace is empty, everything must be copied in."""
        self.vfs_base = {}
        self.guest_base = {}
        self.root_listed = False
        self.too_long = set()

    # ------------------------------------------------------------------ snapshots
    def scan_vfs(self) -> dict[str, Entry]:
        """rel path -> entry; an entry the sandbox user may not stat (or whose path is too
        long) is ("unreadable", errno) so it is neither copied nor mistaken for a deletion."""
        out: dict[str, Entry] = {}
        fs = self.fs
        if not fs.is_dir(ROOT):
            return out
        for dirpath, dirs, files in fs.walk(ROOT):
            for name in dirs + files:
                path = f"{dirpath.rstrip('/')}/{name}"
                rel = path[len(ROOT) + 1:]
                try:
                    st = fs.lstat(path)
                    kind = _vfs_type(st)
                    target = fs.readlink(path) if kind == "symlink" else None
                except FSError as e:
                    out[rel] = ("unreadable", e.errno)
                    continue
                size = st.st_size if kind == "file" else 0
                out[rel] = (kind, size, st.st_mtime if kind == "file" else 0, st.st_mode & 0o7777, target)
        return out

    async def scan_guest(self, client: AgentClient, notes: Callable[[str], None]) -> dict[str, Entry] | None:
        """rel path -> entry of the guest's /workspace, every entry checked; None when the
        guest's state is unknown (the listing failed or is too large): nothing is copied
        back and nothing deleted."""
        try:
            entries = await client.list(ROOT, recursive=True, user=P.GUEST_USER,
                                        max_entries=self.fs.max_inodes + 1, max_bytes=LISTING_BYTES)
        except AgentError as e:
            self.root_listed = False
            if e.errno == errno_mod.ENOENT:  # the cell removed /workspace
                return {}
            why = e.strerror if e.errno == errno_mod.EFBIG else reason(e)  # EFBIG: our own message
            notes(f"vm: sync: cannot list {ROOT} in the VM: {why}; nothing was copied back")
            return None
        self.root_listed = True
        out: dict[str, Entry] = {}
        too_long: set[str] = set()
        for e in entries:
            name = e.get("name", "")
            beyond = len(name.encode("utf-8", "surrogateescape")) > MAX_REL
            if beyond or (e.get("type") == "dir" and e.get("errno") == errno_mod.ENAMETOOLONG):
                # a path the VFS cannot hold (the agent lists it but does not descend): named, once
                too_long.add(name)
                if name not in self.too_long:
                    what = ("what is under it was" if not beyond else
                            "it and what is under it were" if e.get("type") == "dir" else "it was")
                    notes(f"vm: sync: {shown(ROOT + '/' + name)!r}: path longer than {P.MAX_PATH} bytes, which the "
                          f"sandbox's files cannot hold: {what} not copied back (it stays in the VM)")
                if beyond:
                    continue
            problem = entry_problem(e, out)
            if problem:
                notes(f"vm: sync: the VM listed an invalid entry {shown(e.get('name', ''))!r} ({problem}); ignored")
                continue
            kind, name = e["type"], e["name"]
            out[name] = (kind, e.get("size", 0) if kind == "file" else 0,
                         e.get("mtime_ns", 0) if kind == "file" else 0, e.get("mode", 0) & 0o7777,
                         e.get("target") if kind == "symlink" else None)
            if kind == "dir" and "errno" in e and name not in too_long:
                # contents unknown (e.g. a root cell made it private): as the last sync saw them
                code = e["errno"] if isinstance(e["errno"], int) and 0 < e["errno"] < 4096 else errno_mod.EIO
                notes(f"vm: sync: {shown(ROOT + '/' + name)}: cannot be listed in the VM ({os.strerror(code)}); "
                      "its contents were not synced")
                for rel, old in self.guest_base.items():
                    if rel.startswith(name + "/"):
                        out[rel] = old
        self.too_long = too_long
        return out

    # ------------------------------------------------------------------ VFS -> guest
    async def sync_in(self, client: AgentClient, report: Callable[[str], None]) -> None:
        notes = Notes(report)
        try:
            await self._sync_in(client, notes)
        finally:
            notes.close()

    async def _sync_in(self, client: AgentClient, notes: Notes) -> None:
        current = self.scan_vfs()
        user = P.GUEST_USER
        #: directories whose mode keeps their owner out (a read-only mount's 0555): made
        #: writable while their contents are copied, given their mode at the end
        final_modes: dict[str, int] = {}
        await self._ensure_root(client)
        for rel in sorted(self.vfs_base.keys() - current.keys(), reverse=True):
            if rel in self.guest_base:
                try:
                    await client.remove(f"{ROOT}/{rel}", recursive=True, user=user)
                except AgentError:
                    pass
                for key in [k for k in self.guest_base if k == rel or k.startswith(rel + "/")]:
                    del self.guest_base[key]
        for rel in sorted(current):
            entry = current[rel]
            if self.vfs_base.get(rel) == entry and rel in self.guest_base:
                continue
            path = f"{ROOT}/{rel}"
            if entry[0] == "unreadable":
                if self.vfs_base.get(rel) != entry:  # told once, not before every command
                    why = (f"path longer than {P.MAX_PATH} bytes" if entry[1] == errno_mod.ENAMETOOLONG
                           else os.strerror(entry[1]) if entry[1] else "cannot be read")
                    notes(f"vm: sync to VM: {shown(path)}: not copied: {why}")
                continue
            if entry[0] == "other":
                continue
            kind, size, mtime, mode, target = entry
            old = self.guest_base.get(rel)
            try:
                if old is not None and old[0] != kind:
                    await client.remove(path, recursive=True, user=user)
                if kind == "dir":
                    want = mode or 0o755
                    if old is not None and old[0] == "dir":  # there already: only its mode changed
                        await self._chmod(client, {path: want | 0o700})
                    else:
                        await client.mkdir(path, parents=True, mode=want | 0o700, user=user)
                    if want & 0o700 != 0o700:
                        final_modes[path] = want
                    self.guest_base[rel] = ("dir", 0, 0, mode, None)
                elif kind == "file":
                    data = self.fs.read_bytes(path)
                    mtime_ns = int(round(mtime * 1e9))
                    await client.write_file(path, data, mode=mode or 0o644, mtime_ns=mtime_ns, parents=True, user=user)
                    self.guest_base[rel] = ("file", len(data), mtime_ns, mode, None)
                elif kind == "symlink":
                    await self._symlink(client, target, path)
                    self.guest_base[rel] = ("symlink", 0, 0, 0o777, target)
            except P.ProtocolError as e:  # a path or target the agent would refuse
                if self.vfs_base.get(rel) != entry:
                    notes(f"vm: sync to VM: {shown(path)}: not copied: {e}")
            except (AgentError, FSError) as e:
                notes(f"vm: sync to VM: {shown(path)}: {reason(e)}")
        if final_modes:
            try:
                await self._chmod(client, final_modes)
            except AgentError as e:
                notes(f"vm: sync to VM: the modes of {len(final_modes)} directories were not set: {reason(e)}")
        self.vfs_base = current

    async def _ensure_root(self, client: AgentClient) -> None:
        if self.root_listed:  # it was there after the last command: spare a round trip
            return
        try:
            await client.mkdir(ROOT, parents=True, user=P.GUEST_USER)
        except AgentError:
            pass

    @staticmethod
    async def _chmod(client: AgentClient, modes: dict[str, int]) -> None:
        """Set the modes of guest paths (deepest first: a parent that loses its x bit last), as
        the guest's user; AgentError when chmod fails."""
        for chunk_start in range(0, len(modes), 200):
            paths = sorted(modes, reverse=True)[chunk_start:chunk_start + 200]
            argv = ["/bin/sh", "-c", 'while [ $# -gt 0 ]; do chmod "$1" "$2" || exit 1; shift 2; done', "sh"]
            for path in paths:
                argv += [f"{modes[path]:o}", path]
            execution = await client.exec(argv, cwd="/", user=P.GUEST_USER)
            errors = b"".join([data async for _, data in execution.events()])
            if execution.exit is None or execution.exit.status != 0:
                raise AgentError(0, errors.decode(errors="replace").strip()[:200] or "chmod failed")

    @staticmethod
    async def _symlink(client: AgentClient, target: str, path: str) -> None:
        execution = await client.exec(["ln", "-sfn", "--", target, path], cwd="/", user=P.GUEST_USER)
        async for _ in execution.events():
            pass

    # ------------------------------------------------------------------ guest -> VFS
    def _lands_in_workspace(self, rel: str) -> bool:
        """Whether writing ``ROOT/rel`` in the VFS stays under ROOT: no symbolic link on the way."""
        parts = rel.split("/")
        for i in range(len(parts)):
            try:
                st = self.fs.lstat("/".join([ROOT, *parts[:i]]))
            except FSError as e:
                return e.errno == errno_mod.ENOENT  # made as a directory of the listing
            if not stat_mod.S_ISDIR(st.st_mode):
                return False
        return True

    async def sync_out(self, client: AgentClient, report: Callable[[str], None]) -> None:
        notes = Notes(report)
        try:
            await self._sync_out(client, notes)
        finally:
            notes.close()

    async def _sync_out(self, client: AgentClient, report: Notes) -> None:
        guest = await self.scan_guest(client, report)
        if guest is None:
            return
        current = self.scan_vfs()
        fs = self.fs
        keep_old_vfs: set[str] = set()

        def changed_in_vfs(rel: str) -> bool:
            return current.get(rel) != self.vfs_base.get(rel)

        for rel in sorted(guest):
            entry = guest[rel]
            if self.guest_base.get(rel) == entry:
                continue
            path = f"{ROOT}/{rel}"
            kind, size, mtime_ns, mode, target = entry
            if current.get(rel, ("",))[0] == "unreadable":
                report(f"vm: sync: {shown(path)}: not copied back: permission denied in the sandbox")
                continue
            if changed_in_vfs(rel) and current.get(rel) is not None:
                report(f"vm: sync: {shown(path)} changed both in the VM and in the sandbox; kept the sandbox version")
                keep_old_vfs.add(rel)
                continue
            if not self._lands_in_workspace(rel):
                report(f"vm: sync: {shown(path)}: not copied back: a symbolic link in the sandbox is in the way")
                if rel in self.guest_base:  # as if unchanged: neither copied nor taken for a deletion
                    guest[rel] = self.guest_base[rel]
                else:
                    del guest[rel]
                continue
            try:
                existing = current.get(rel)
                if existing is not None and existing[0] != kind:
                    if existing[0] == "dir":
                        fs.remove_tree(path)
                    else:
                        fs.unlink(path)
                    existing = None
                if kind == "dir":
                    fs.mkdir(path, parents=True, exist_ok=True)
                elif kind == "file":
                    room = fs.max_bytes - fs.bytes_used + (existing[1] if existing else 0)
                    if size > room:
                        raise fs.quota_error("vfs_bytes", path)
                    data = await client.read_file(path, limit=max(room, 0), user=P.GUEST_USER)
                    same = (existing is not None and existing[1] == len(data)
                            and hashlib.sha256(fs.read_bytes(path)).digest() == hashlib.sha256(data).digest())
                    if not same:
                        fs.write_bytes(path, data)
                    if mode:
                        fs.chmod(path, mode)
                    fs.utime(path, mtime=mtime_ns / 1e9)
                elif kind == "symlink":
                    if existing is not None:
                        fs.unlink(path)
                    fs.symlink(target or "", path)
                else:
                    report(f"vm: sync: {shown(path)}: special file not copied back")
            except FSError as e:
                what = "quota of the sandbox filesystem exceeded" if e.errno == 28 else e.strerror
                report(f"vm: sync: {shown(path)}: not copied back: {what}")
            except AgentError as e:
                if e.errno == 27:  # EFBIG from the size limit: the quota again
                    report(f"vm: sync: {shown(path)}: not copied back: quota of the sandbox filesystem exceeded")
                elif e.errno != 2:  # ENOENT: removed in the guest meanwhile
                    report(f"vm: sync: {shown(path)}: not copied back: {reason(e)}")
        for rel in sorted(self.guest_base.keys() - guest.keys(), reverse=True):
            path = f"{ROOT}/{rel}"
            if rel not in current:
                continue
            if changed_in_vfs(rel):
                report(f"vm: sync: {shown(path)} was deleted in the VM but changed in the sandbox; kept it")
                keep_old_vfs.add(rel)
                continue
            if current[rel][0] == "unreadable":
                continue
            try:
                if current[rel][0] == "dir":
                    fs.remove_tree(path)
                else:
                    fs.unlink(path)
            except FSError as e:
                report(f"vm: sync: {shown(path)}: not deleted: {e.strerror}")
        self.guest_base = guest
        new_vfs = self.scan_vfs()
        for rel in keep_old_vfs:  # a snapshot no scan can equal: the sandbox version goes in next time
            new_vfs[rel] = ("stale",)
        self.vfs_base = new_vfs
