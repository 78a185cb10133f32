"""Two-way sync of the VFS ``/workspace`` with the guest's ``/workspace``.

Before a VM command, what changed in the VFS since the last sync is copied in (deletions
too); after it, what changed in the guest is copied back. "Changed" compares (type, size,
mtime, mode, link target) with the snapshot each side had at the last sync, and a changed
guest file whose content equals the VFS file (SHA-256) is not rewritten. A path changed on
both sides keeps the sandbox version and is reported; a file the VFS quota cannot hold is
reported and left in the guest. Nothing is dropped silently.
"""
from __future__ import annotations

import hashlib
import stat as stat_mod
from typing import Callable

from ..vfs import FSError
from .client import AgentClient, AgentError

ROOT = "/workspace"
Entry = tuple  # (type, size, mtime, mode, target)


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

    def reset(self) -> None:
        """A fresh guest: its /workspace is empty, everything must be copied in."""
        self.vfs_base = {}
        self.guest_base = {}
        self.root_listed = False

    # ------------------------------------------------------------------ snapshots
    def scan_vfs(self) -> dict[str, Entry]:
        """rel path -> entry; an entry the sandbox user may not stat is ("unreadable",) so it
        is neither copied nor mistaken for a deletion."""
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
                except FSError:
                    out[rel] = ("unreadable",)
                    continue
                size = st.st_size if kind == "file" else 0
                out[rel] = (kind, size, st.st_mtime if kind == "file" else 0, st.st_mode & 0o7777, target)
        return out

    async def scan_guest(self, client: AgentClient) -> dict[str, Entry]:
        try:
            entries = await client.list(ROOT, recursive=True)
        except AgentError:
            self.root_listed = False
            return {}
        self.root_listed = True
        out: dict[str, Entry] = {}
        for e in entries:
            kind = e["type"]
            out[e["name"]] = (kind, e.get("size", 0) if kind == "file" else 0,
                              e.get("mtime_ns", 0) if kind == "file" else 0, e.get("mode", 0), e.get("target"))
        return out

    # ------------------------------------------------------------------ VFS -> guest
    async def sync_in(self, client: AgentClient, report: Callable[[str], None]) -> None:
        current = self.scan_vfs()
        await self._ensure_root(client)
        for rel in sorted(self.vfs_base.keys() - current.keys(), reverse=True):
            if rel in self.guest_base:
                try:
                    await client.remove(f"{ROOT}/{rel}", recursive=True)
                except AgentError:
                    pass
                for key in [k for k in self.guest_base if k == rel or k.startswith(rel + "/")]:
                    del self.guest_base[key]
        for rel in sorted(current):
            entry = current[rel]
            if self.vfs_base.get(rel) == entry and rel in self.guest_base:
                continue
            path = f"{ROOT}/{rel}"
            if entry[0] in ("unreadable", "other"):
                continue
            kind, size, mtime, mode, target = entry
            old = self.guest_base.get(rel)
            try:
                if old is not None and old[0] != kind:
                    await client.remove(path, recursive=True)
                if kind == "dir":
                    await client.mkdir(path, parents=True, mode=mode or 0o755)
                    self.guest_base[rel] = ("dir", 0, 0, mode, None)
                elif kind == "file":
                    data = self.fs.read_bytes(path)
                    mtime_ns = int(round(mtime * 1e9))
                    await client.write_file(path, data, mode=mode or 0o644, mtime_ns=mtime_ns, parents=True)
                    self.guest_base[rel] = ("file", len(data), mtime_ns, mode, None)
                elif kind == "symlink":
                    await self._symlink(client, target, path)
                    self.guest_base[rel] = ("symlink", 0, 0, 0o777, target)
            except (AgentError, FSError) as e:
                report(f"vm: sync to VM: {path}: {e.strerror or e}")
        self.vfs_base = current

    async def _ensure_root(self, client: AgentClient) -> None:
        if self.root_listed:  # it was there after the last command: spare a round trip
            return
        try:
            await client.mkdir(ROOT, parents=True)
        except AgentError:
            pass

    @staticmethod
    async def _symlink(client: AgentClient, target: str, path: str) -> None:
        execution = await client.exec(["ln", "-sfn", "--", target, path], cwd="/")
        async for _ in execution.events():
            pass

    # ------------------------------------------------------------------ guest -> VFS
    async def sync_out(self, client: AgentClient, report: Callable[[str], None]) -> None:
        guest = await self.scan_guest(client)
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
                report(f"vm: sync: {path}: not copied back: permission denied in the sandbox")
                continue
            if changed_in_vfs(rel) and current.get(rel) is not None:
                report(f"vm: sync: {path} changed both in the VM and in the sandbox; kept the sandbox version")
                keep_old_vfs.add(rel)
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
                        raise FSError(28, path)
                    data = await client.read_file(path, limit=max(room, 0))
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
                    report(f"vm: sync: {path}: special file not copied back")
            except FSError as e:
                what = "quota of the sandbox filesystem exceeded" if e.errno == 28 else e.strerror
                report(f"vm: sync: {path}: not copied back: {what}")
            except AgentError as e:
                if e.errno == 27:  # EFBIG from the size limit: the quota again
                    report(f"vm: sync: {path}: not copied back: quota of the sandbox filesystem exceeded")
                elif e.errno != 2:  # ENOENT: removed in the guest meanwhile
                    report(f"vm: sync: {path}: not copied back: {e.strerror}")
        for rel in sorted(self.guest_base.keys() - guest.keys(), reverse=True):
            path = f"{ROOT}/{rel}"
            if rel not in current:
                continue
            if changed_in_vfs(rel):
                report(f"vm: sync: {path} was deleted in the VM but changed in the sandbox; kept it")
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
                report(f"vm: sync: {path}: not deleted: {e.strerror}")
        self.guest_base = guest
        new_vfs = self.scan_vfs()
        for rel in keep_old_vfs:  # a snapshot no scan can equal: the sandbox version goes in next time
            new_vfs[rel] = ("stale",)
        self.vfs_base = new_vfs
