"""The persistent workspace: the user trees saved to an SQLite database after every cell (and
after changes made between cells: ``host_files``), and restored when the kernel starts again
(an admin's opt-in: ``--persist``).

Only what changed since the last save is written (the VFS's change events), in one
transaction: a kill -9 in the middle leaves the previous state. One database per notebook
(``JPY_SESSION_NAME``, the notebook path JupyterLab gives a kernel) under the data dir; a lock
file keeps a second kernel of the same notebook from writing it too. An unreadable store is
moved aside with a clear message and the kernel starts with an empty workspace.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import sqlite3
import stat as st
import time
from pathlib import Path

from ..limits import format_size
from ..vfs import VFS, File, FSError, Symlink
from ..paths import under
from ..vfs.changes import ChangeTracker

#: the trees a workspace holds (/tmp is temporary, as after a reboot)
ROOTS = ("/workspace", "/home/user")
SCHEMA = 1
_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    path TEXT PRIMARY KEY, kind TEXT NOT NULL, mode INTEGER NOT NULL, uid INTEGER NOT NULL,
    gid INTEGER NOT NULL, mtime REAL NOT NULL, data BLOB, target TEXT
);
"""


class StoreError(Exception):
    """The store cannot be used (the message says why and what happened instead)."""


def data_root() -> Path:
    base = os.environ.get("SANDBOX_KERNEL_DATA")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "sandbox-kernel"


def store_path(notebook: str | None, folder: Path | None = None) -> Path:
    """``workspaces/<notebook name>-<hash of its path>.sqlite`` (``default`` without a notebook)."""
    folder = folder or data_root() / "workspaces"
    if not notebook:
        return folder / "default.sqlite"
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(notebook).stem)[:40] or "notebook"
    return folder / f"{stem}-{hashlib.sha256(notebook.encode()).hexdigest()[:12]}.sqlite"


class WorkspaceStore:
    def __init__(self, path: Path, fs: VFS, excluded: tuple[str, ...] = (), notebook: str | None = None) -> None:
        self.path = path
        self.fs = fs
        self.notebook = notebook
        self.excluded = excluded
        self.db: sqlite3.Connection | None = None
        self.tracker: ChangeTracker | None = None
        self._lock_fd: int | None = None

    # ------------------------------------------------------------------ start
    def open(self) -> str:
        """Open (or create) the store and restore it into the VFS; returns the one-line
        notice for the user. Never raises: a bad store is moved aside and said so."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._lock()
        except OSError as e:
            return f"[sandbox: the persistent workspace is not available ({e}); files last as long as the kernel]"
        except StoreError as e:
            return f"[sandbox: {e}; files last as long as the kernel]"
        notice = ""
        try:
            files, size = self._open_and_restore()
        except (sqlite3.DatabaseError, StoreError, ValueError) as e:
            self._close_db()
            moved = self.path.with_name(f"{self.path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(self.path, moved)
            except OSError:
                pass
            for extra in ("-wal", "-shm"):
                Path(str(self.path) + extra).unlink(missing_ok=True)
            self._wipe_trees()
            notice = (f"[sandbox: the saved workspace could not be read ({e}); it was moved to {moved} "
                      "and this kernel starts with an empty workspace]")
            files, size = self._open_and_restore()
        self.tracker = ChangeTracker(self.fs, ROOTS, self.excluded)
        if notice:
            return notice
        where = f" of {self.notebook}" if self.notebook else ""
        if files:
            return f"[sandbox: restored {files} files ({format_size(size)}B) from the persistent workspace{where}]"
        return f"[sandbox: files in /workspace and /home/user are kept across restarts (persistent workspace{where})]"

    def _lock(self) -> None:
        fd = os.open(str(self.path) + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError("another kernel of this notebook holds its persistent workspace") from None
        self._lock_fd = fd

    def _open_and_restore(self) -> tuple[int, int]:
        db = sqlite3.connect(self.path, isolation_level=None)
        self.db = db
        os.chmod(self.path, 0o600)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        check = db.execute("PRAGMA quick_check").fetchone()
        if not check or check[0] != "ok":
            raise StoreError(f"integrity check: {check[0] if check else 'no answer'}")
        db.executescript(_SCHEMA_SQL)
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            if self.notebook:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('notebook', ?)", (self.notebook,))
            return 0, 0
        if row[0] != str(SCHEMA):
            raise StoreError(f"unknown store format {row[0]!r}")
        return self._restore(db)

    def _wipe_trees(self) -> None:
        with self.fs.privileged():
            for root in ROOTS:
                for name in self.fs.listdir(root):
                    path = root + "/" + name
                    if not any(under(path, e) or under(e, path) for e in self.excluded):
                        self.fs.remove_tree(path)

    def _restore(self, db: sqlite3.Connection) -> tuple[int, int]:
        rows = db.execute("SELECT path, kind, mode, uid, gid, mtime, data, target FROM entries ORDER BY path")
        self._wipe_trees()
        files = size = 0
        dir_times: list[tuple[str, float]] = []
        with self.fs.privileged():
            for path, kind, mode, uid, gid, mtime, data, target in rows:
                if not isinstance(path, str) or not any(under(path, r) and path != r for r in ROOTS) \
                        or "/../" in path + "/" or "/./" in path + "/" or "\0" in path:
                    raise StoreError(f"bad path {path!r}")
                if any(under(path, e) for e in self.excluded):
                    continue
                try:
                    if kind == "dir":
                        self.fs.mkdir(path, parents=True, exist_ok=True)
                        dir_times.append((path, mtime))
                    elif kind == "file":
                        self.fs.write_bytes(path, bytes(data or b""))
                        files += 1
                        size += len(data or b"")
                    elif kind == "symlink":
                        self.fs.symlink(str(target), path)
                    else:
                        raise StoreError(f"bad entry kind {kind!r}")
                    if kind != "symlink":
                        self.fs.chmod(path, int(mode) & 0o7777)
                        self.fs.utime(path, float(mtime))
                    self.fs.chown(path, int(uid), int(gid), follow=False)
                except FSError as e:
                    if e.code == "ENOSPC":
                        raise StoreError(f"the saved workspace is larger than this kernel's VFS quota "
                                         f"(vfs_bytes={format_size(self.fs.max_bytes)}B)") from None
                    raise StoreError(f"cannot restore {path}: {e.strerror}") from None
            for path, mtime in reversed(dir_times):  # children set the parents' times: set them last
                self.fs.utime(path, float(mtime))
        return files, size

    # ------------------------------------------------------------------ after each cell
    def save(self) -> str | None:
        """Write what changed since the last save; returns a notice when something went wrong."""
        if self.db is None or self.tracker is None or not self.tracker.pending:
            return None
        gone, present = self.tracker.changes()
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            for path in gone:
                db.execute("DELETE FROM entries WHERE path = ? OR (path > ? AND path < ?)",
                           (path, path + "/", path + "0"))  # '0' follows '/': the subtree
            with self.fs.privileged():
                for path, stat in present:
                    if path in ROOTS:
                        continue  # the roots themselves always exist
                    node = self.fs.resolve(path, follow=False).node
                    if isinstance(node, File):
                        kind, data, target = "file", bytes(node.data), None
                    elif isinstance(node, Symlink):
                        kind, data, target = "symlink", None, node.target
                    elif st.S_ISDIR(stat.st_mode):
                        kind, data, target = "dir", None, None
                    else:
                        continue  # devices and fifos are not kept
                    db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (path, kind, stat.st_mode & 0o7777, stat.st_uid, stat.st_gid, stat.st_mtime,
                                data, target))
            db.execute("COMMIT")
        except (sqlite3.Error, FSError) as e:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            for path in gone:
                self.tracker.mark(path)
            for path, _ in present:
                self.tracker.mark(path)
            return f"[sandbox: the persistent workspace could not be saved ({e}); it is retried after the next cell]"
        return None

    # ------------------------------------------------------------------ shutdown
    def close(self) -> None:
        self.save()
        if self.tracker is not None:
            self.tracker.close()
        self._close_db()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _close_db(self) -> None:
        if self.db is not None:
            try:
                self.db.close()
            except sqlite3.Error:
                pass
            self.db = None
