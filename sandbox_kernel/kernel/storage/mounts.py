"""Host directories in the sandbox, set by the admin (``--mount HOST_DIR:SANDBOX_DIR[:ro|rw]``),
never by a cell.

``ro`` copies the tree in at start (files read-only in the sandbox); ``rw`` also writes changed
files back after each cell, after changes made between cells (``host_files``) and at shutdown:
atomically (temp file, fsync, rename), never following a symlink on the host (every step is
relative to an opened directory with ``O_NOFOLLOW``), deleting on the host only what the sandbox
had from there (or wrote there) and the user deleted, and only when the host copy is still the
one the sandbox saw. Symlinks made in the sandbox are not written back (they could point host
tools anywhere). Everything copied in counts against the VFS quota. Targets live under
/workspace, the tree every engine sees (the shell, JS and, through the workspace sync, %%vm).
"""
from __future__ import annotations

import os
import secrets
import stat as st
from pathlib import Path

from ...limits import format_size
from ...policy import MountError, MountSpec
from ...vfs import VFS, File, FSError, USER_GID, USER_UID
from ...vfs.changes import ChangeTracker

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
CHUNK = 1 << 20
#: too-large files named in the mount notice (the rest are counted)
MAX_NAMED = 5


class HostMount:
    """One mount of one kernel: copy in at start, write back (rw) after cells."""

    def __init__(self, spec: MountSpec, fs: VFS, cwd: str | None = None) -> None:
        self.spec = spec
        self.fs = fs
        self.host = Path(os.path.realpath(os.path.join(cwd or os.getcwd(), spec.host)))
        #: relative path -> (size, mtime_ns) of what the host had when the sandbox last saw it
        self.known: dict[str, tuple[int, int]] = {}
        self.tracker: ChangeTracker | None = None
        #: sandbox path -> the write-back failure last told for it: retried after every cell,
        #: told once (again only when the reason changes)
        self.failed: dict[str, str] = {}
        #: host files too large for the VFS quota, left out of the copy (relative paths): never
        #: replaced or deleted on the host by write-back, since the sandbox never saw them
        self.left_out: set[str] = set()

    # ------------------------------------------------------------------ start
    def copy_in(self) -> str:
        """Copy the host tree into the VFS; returns a one-line summary (problems included)."""
        try:
            top = os.open(self.host, _DIR_FLAGS)
        except OSError as e:
            raise MountError(f"--mount {self.spec.text}: {self.host}: {e.strerror}") from None
        files = size = 0
        skipped: list[str] = []
        too_large: list[tuple[str, int]] = []
        todo = [(top, "")]
        try:
            with self.fs.privileged():
                self.fs.mkdir(self.spec.target, parents=True, exist_ok=True)
                while todo:
                    dfd, rel = todo.pop()
                    try:
                        with os.scandir(dfd) as entries:
                            items = sorted(entries, key=lambda e: e.name)
                        for entry in items:
                            sub = f"{rel}/{entry.name}" if rel else entry.name
                            info = entry.stat(follow_symlinks=False)
                            vpath = f"{self.spec.target}/{sub}"
                            if st.S_ISDIR(info.st_mode):
                                self.fs.mkdir(vpath, exist_ok=True)
                                self.known[sub] = (0, info.st_mtime_ns)
                                todo.append((os.open(entry.name, _DIR_FLAGS, dir_fd=dfd), sub))
                            elif st.S_ISREG(info.st_mode):
                                room = self.fs.max_bytes - self.fs.bytes_used
                                if info.st_size > room:
                                    # what fits is mounted; this one is named in the notice
                                    too_large.append((sub, info.st_size))
                                    continue
                                data = _read_file(dfd, entry.name)
                                self.fs.write_bytes(vpath, data)
                                self.fs.chmod(vpath, info.st_mode & 0o777)  # keeps the exec bits
                                self.fs.utime(vpath, info.st_mtime)
                                self.known[sub] = (len(data), info.st_mtime_ns)
                                files += 1
                                size += len(data)
                            elif st.S_ISLNK(info.st_mode):
                                self.fs.symlink(os.readlink(entry.name, dir_fd=dfd), vpath)
                            else:
                                skipped.append(sub)
                    finally:
                        os.close(dfd)
                self._set_modes()
        except (FSError, MountError, OSError) as e:
            for dfd, _ in todo:
                os.close(dfd)
            self._discard()
            if isinstance(e, FSError):
                why = str(e.strerror) + (
                    f" (vfs_bytes={format_size(self.fs.max_bytes)}B)" if e.code == "ENOSPC" else ""
                )
            else:
                why = str(e) if isinstance(e, MountError) else f"{e.filename or self.host}: {e.strerror}"
            raise MountError(f"--mount {self.spec.text}: {why}; not mounted") from None
        self.fs.mount_points.add(self.spec.target)
        if self.spec.writable:
            self.tracker = ChangeTracker(self.fs, (self.spec.target,))
        mode = "read-write" if self.spec.writable else "read-only"
        note = f"{self.spec.target}: {files} files ({format_size(size)}B) from {self.host}, {mode}"
        if skipped:
            note += f"; {len(skipped)} special files skipped"
        if too_large:
            self.left_out = {sub for sub, _ in too_large}
            named = ", ".join(f"{sub} ({format_size(n)}B)" for sub, n in too_large[:MAX_NAMED])
            more = f" and {len(too_large) - MAX_NAMED} more" if len(too_large) > MAX_NAMED else ""
            note += (f"; NOT MOUNTED, too large for the VFS quota (vfs_bytes={format_size(self.fs.max_bytes)}B): "
                     f"{len(too_large)} files, {named}{more} (an admin's --limit/--max-limit vfs_bytes=... "
                     f"makes room; they stay untouched on the host)")
        return note

    def _discard(self) -> None:
        """A copy-in that failed half way leaves nothing behind (and writes nothing back)."""
        self.known.clear()
        self.fs.mount_points.discard(self.spec.target)
        with self.fs.privileged():
            try:
                self.fs.remove_tree(self.spec.target)
            except FSError:
                pass

    def _set_modes(self) -> None:
        """ro: the tree is root's and read-only; rw: the user's."""
        uid = USER_UID if self.spec.writable else 0
        paths = [self.spec.target] + [f"{self.spec.target}/{rel}" for rel in self.known]
        for path in paths:
            node = self.fs.resolve(path, follow=False).node
            if node is None:
                continue
            executable = bool(node.mode & 0o111) or not isinstance(node, File)
            if self.spec.writable:
                mode = 0o755 if executable else 0o644
            else:
                mode = 0o555 if executable else 0o444
            self.fs.chmod(path, mode, follow=False)
            self.fs.chown(path, uid, USER_GID if uid else 0, follow=False)

    # ------------------------------------------------------------------ after each cell
    def write_back(self) -> list[str]:
        """Write what changed in the sandbox to the host (rw); returns notices."""
        if self.tracker is None or not self.tracker.pending:
            return []
        gone, present = self.tracker.changes()
        notes: list[str] = []
        for path in gone:
            self.failed.pop(path, None)
            rel = path[len(self.spec.target) + 1:]
            if rel:
                notes += self._delete(rel)
        for path, stat in present:
            rel = path[len(self.spec.target) + 1:]
            if not rel:
                continue
            if rel in self.left_out and not st.S_ISDIR(stat.st_mode):
                why = f"{path}: not written: {self.host}/{rel} was too large to mount and is kept as it is"
                if self.failed.get(path) != why:
                    notes.append(why)
                    self.failed[path] = why
                continue
            try:
                if st.S_ISDIR(stat.st_mode):
                    self._in_parent(rel, lambda dfd, name: _mkdir_at(dfd, name))
                    self.known.setdefault(rel, (0, 0))
                elif st.S_ISREG(stat.st_mode):
                    with self.fs.privileged():
                        node = self.fs.resolve(path, follow=False).node
                    data = bytes(node.data) if isinstance(node, File) else b""
                    mode = 0o755 if stat.st_mode & 0o100 else 0o644
                    self.known[rel] = self._in_parent(rel, lambda dfd, name: _replace_at(dfd, name, data, mode))
                elif st.S_ISLNK(stat.st_mode):
                    notes.append(f"{path}: a symlink, not written to the host")
                self.failed.pop(path, None)
            except OSError as e:
                self.tracker.mark(path)
                why = f"{path}: not written to {self.host}/{rel}: {e.strerror or e}"
                if self.failed.get(path) != why:
                    notes.append(why)
                    self.failed[path] = why
        return [f"[sandbox: mount {n}]" for n in notes]

    def _delete(self, rel: str) -> list[str]:
        """Delete ``rel`` (and what we know below it) on the host, if the host still has what
        the sandbox saw."""
        below = sorted((k for k in self.known if k == rel or k.startswith(rel + "/")), reverse=True)
        notes = []
        for key in below:
            seen = self.known[key]

            def remove(dfd: int, name: str) -> tuple[int, int]:
                info = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                if st.S_ISDIR(info.st_mode):
                    os.rmdir(name, dir_fd=dfd)
                elif (info.st_size, info.st_mtime_ns) == seen:
                    os.unlink(name, dir_fd=dfd)
                else:
                    raise OSError(0, "changed on the host since the sandbox read it: kept")
                return (0, 0)
            try:
                self._in_parent(key, remove)
                del self.known[key]
            except FileNotFoundError:
                del self.known[key]
            except OSError as e:
                notes.append(f"{self.spec.target}/{key}: deleted in the sandbox, {e.strerror or e}")
        return notes

    def _in_parent(self, rel: str, action):
        """``action(dir_fd, name)`` in the host directory holding ``rel``, reached from the
        mount's top without following symlinks (missing directories are made)."""
        parts = rel.split("/")
        dfd = os.open(self.host, _DIR_FLAGS)
        try:
            for part in parts[:-1]:
                _mkdir_at(dfd, part)
                nxt = os.open(part, _DIR_FLAGS, dir_fd=dfd)
                os.close(dfd)
                dfd = nxt
            return action(dfd, parts[-1])
        finally:
            os.close(dfd)

    def close(self) -> list[str]:
        notes = self.write_back()
        if self.tracker is not None:
            self.tracker.close()
        return notes


def _read_file(dfd: int, name: str) -> bytes:
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dfd)
    try:
        chunks = []
        while chunk := os.read(fd, CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _mkdir_at(dfd: int, name: str) -> tuple[int, int]:
    try:
        os.mkdir(name, 0o755, dir_fd=dfd)
    except FileExistsError:
        pass
    return (0, 0)


def _replace_at(dfd: int, name: str, data: bytes, mode: int) -> tuple[int, int]:
    """Write ``name`` atomically in directory ``dfd``: a new temp file, fsync, rename over."""
    tmp = f".sandbox-{secrets.token_hex(8)}"  # short: a 255-byte name leaves no room for a suffix
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dfd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp, dir_fd=dfd)
        raise
    os.close(fd)
    try:
        os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
    except OSError:
        os.unlink(tmp, dir_fd=dfd)
        raise
    os.fsync(dfd)  # the rename itself survives a crash
    info = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    return (info.st_size, info.st_mtime_ns)

