"""The persistent workspace: the user trees saved to an SQLite database after every cell (and
after changes made between cells: ``host_files``), and restored when the kernel starts again
(an admin's opt-in: ``--persist``).

Only what changed since the last save is written (the VFS's change events), in one
transaction: a kill -9 in the middle leaves the previous state. One database per notebook
(``JPY_SESSION_NAME``, the notebook path JupyterLab gives a kernel) under the data dir; a lock
file keeps a second kernel of the same notebook from writing it too. Each store has a workspace
id (its ``meta`` table), which the JupyterLab extension keeps in the notebook's metadata: a
store follows its notebook when it is renamed or moved (``rekey``, ``take_over``; the catalog
of stores is ``workspaces.py``). The VFS quotas that
applied at the last save are kept in the store and applied again at start (within the admin's
ceilings); a workspace that does not fit even those is restored as far as it fits and the
store is left unchanged (not written by that kernel). An unreadable store is moved aside (one
copy) with a clear message and the kernel starts with an empty workspace.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import sqlite3
import stat as st
import time
import unicodedata
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ...limits import format_size
from ...paths import under
from ...vfs import USER_GID, USER_UID, VFS, Dir, File, FSError, Symlink
from ...vfs.changes import ChangeTracker
from ...vfs.fs import MAX_PATH, ROOT_UID, Inode
from ...vfs.tar import clamp_mtime

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


#: what a workspace id looks like (the extension's are UUIDs); anything else is not one
WORKSPACE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: tries (LOCK_RETRY seconds apart) to take a store's lock that is busy: a catalog reader or a
#: kernel moving a store holds it for moments
LOCK_TRIES = 5
LOCK_RETRY = 0.05


class StoreError(Exception):
    """The store cannot be used (the message says why and what happened instead)."""


class StoreBusy(StoreError):
    """Another kernel holds the store's lock."""


def new_workspace_id() -> str:
    return str(uuid.uuid4())


def valid_workspace_id(value: object) -> bool:
    return isinstance(value, str) and WORKSPACE_ID.fullmatch(value) is not None


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def lock_store(db: Path, tries: int = LOCK_TRIES) -> int:
    """Take the store's lock (flock on ``<db>.lock``); returns its fd. Raises StoreBusy when
    another process holds it, OSError when it cannot be made. A lock file is unlinked by the
    holder whose store moved away or was deleted: a lock taken on an unlinked file is retried
    on the new one, so two holders never meet."""
    path = lock_path(db)
    for attempt in range(tries):
        fd = os.open(str(path), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            if attempt + 1 < tries:
                time.sleep(LOCK_RETRY)
                continue
            raise StoreBusy("another kernel holds this persistent workspace") from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the holder unlinked it meanwhile: lock the new one
    raise StoreBusy("the persistent workspace's lock kept changing")


def unlock_store(fd: int, db: Path, unlink: bool = False) -> None:
    """Let go of a lock ``lock_store`` took; ``unlink`` (the store moved away or is gone)
    removes the lock file first, while it is still held."""
    if unlink:
        try:
            lock_path(db).unlink()
        except OSError:
            pass
    os.close(fd)


def db_files(db: Path) -> list[Path]:
    """The store's database and SQLite's files beside it."""
    return [db, Path(str(db) + "-wal"), Path(str(db) + "-shm")]


def remove_db(db: Path) -> None:
    """Delete a store's files (its lock's holder only)."""
    for path in db_files(db):
        path.unlink(missing_ok=True)


def move_db(source: Path, target: Path) -> None:
    """Rename a closed store (its lock's holder only, and the target's): checkpointed first,
    so its whole content is in the main file; a WAL left by a crash moves with it."""
    try:
        db = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()
    except sqlite3.Error:
        pass  # moved as it is (WAL and all); the next open says whether it can be read
    remove_db(target)
    os.rename(source, target)
    wal = Path(str(source) + "-wal")
    if wal.exists():
        os.rename(wal, str(target) + "-wal")
    Path(str(source) + "-shm").unlink(missing_ok=True)  # rebuilt from the WAL


#: seconds a look into another store may take (a tampered one may hold a query that never ends)
READ_SECONDS = 2.0


def connect_existing(db: Path, seconds: float = READ_SECONDS) -> sqlite3.Connection:
    """A connection to an existing store (never creates one), whose statements are stopped
    after ``seconds``."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=rw", uri=True, isolation_level=None)
    deadline = time.monotonic() + seconds
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    return conn


def read_meta(db: Path) -> dict[str, str]:
    """The store's meta table (text values only; a tampered store's others are left out)."""
    conn = connect_existing(db)
    try:
        rows = conn.execute("SELECT key, value FROM meta LIMIT 100").fetchall()
    finally:
        conn.close()
    return {k: v[:MAX_PATH] for k, v in rows if isinstance(k, str) and isinstance(v, str)}


def set_aside(db: Path) -> Path:
    """Move a store away from its path's name to a detached one (its lock's holder only;
    ``<notebook>-<id>.detached.sqlite``, kept for ``%workspace attach``); returns where."""
    try:
        meta = read_meta(db)
    except sqlite3.Error:
        meta = {}
    workspace = meta.get("workspace", "")
    if not valid_workspace_id(workspace):
        workspace = new_workspace_id()
    target = detached_path(meta.get("notebook"), workspace, db.parent)
    if target.exists():
        target = detached_path(meta.get("notebook"), new_workspace_id(), db.parent)
    fd = lock_store(target)
    try:
        move_db(db, target)
    finally:
        unlock_store(fd, target)
    return target


def shown(text: object, limit: int = 200) -> str:
    """A name from a store or a path, as shown to the user: control and format characters
    escaped (a tampered store's names are data), at most ``limit`` characters."""
    out = []
    for ch in str(text):
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or ch == "\\":
            out.append("\\\\" if ch == "\\" else f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
                       if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    text = "".join(out)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def data_root() -> Path:
    base = os.environ.get("SANDBOX_KERNEL_DATA")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "sandbox-kernel"


def workspaces_dir() -> Path:
    return data_root() / "workspaces"


def _stem(notebook: str | None) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", Path(notebook or "").stem)[:40] or "notebook"


def store_path(notebook: str | None, folder: Path | None = None) -> Path:
    """``workspaces/<notebook name>-<hash of its path>.sqlite`` (``default`` without a notebook)."""
    folder = folder or workspaces_dir()
    if not notebook:
        return folder / "default.sqlite"
    return folder / f"{_stem(notebook)}-{hashlib.sha256(notebook.encode()).hexdigest()[:12]}.sqlite"


def detached_path(notebook: str | None, workspace: str, folder: Path) -> Path:
    """Where a store set aside from its path goes (``%workspace attach --force``):
    ``<notebook name>-<workspace id>.detached.sqlite``, never a path's name (``-<12 hex>.sqlite``)."""
    assert valid_workspace_id(workspace)
    return folder / f"{_stem(notebook)}-{workspace}.detached.sqlite"


@dataclass
class _Restored:
    files: int = 0
    size: int = 0
    #: rows that could not be restored: a bad path, kind or value, or under a symlink or file
    bad: int = 0
    bad_example: str = ""
    #: files left out because they do not fit within the admin's ceilings
    left_out: int = 0
    left_out_size: int = 0
    #: what the quotas were raised to (the ones that applied when it was saved), if they were
    raised_to: str = ""


class WorkspaceStore:
    def __init__(self, path: Path, fs: VFS, excluded: tuple[str, ...] = (), notebook: str | None = None,
                 raise_quotas: Callable[[int, int], None] | None = None) -> None:
        self.path = path
        self.fs = fs
        self.notebook = notebook
        self.excluded = excluded
        #: ``raise_quotas(vfs_bytes, vfs_inodes)`` raises this kernel's VFS quotas towards these
        #: (never past the admin's ceilings): a workspace saved under a raised quota fits again
        self.raise_quotas = raise_quotas
        self.db: sqlite3.Connection | None = None
        self.tracker: ChangeTracker | None = None
        self._lock_fd: int | None = None
        self._recorded: tuple[int, int] | None = None  # the quotas written to the store last
        #: the workspace id (the store's meta; the notebook's metadata in JupyterLab)
        self.workspace: str | None = None

    # ------------------------------------------------------------------ start
    def open(self) -> str:
        """Open (or create) the store and restore it into the VFS; returns the one-line
        notice for the user. Never raises: an unreadable store is moved aside (one copy: the
        latest replaces an older one) and said so; a readable one is never discarded."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._lock()
        except OSError as e:
            return f"[sandbox: the persistent workspace is not available ({e}); files last as long as the kernel]"
        except StoreError as e:
            return f"[sandbox: {e}; files last as long as the kernel]"
        restored, problem = self._load()
        if problem:
            return problem
        where = f" of {shown(self.notebook)}" if self.notebook else ""
        extra = restored.raised_to
        if restored.bad:
            extra += (f"; {restored.bad} saved entries could not be restored and were skipped "
                      f"(e.g. {restored.bad_example})")
        if restored.files or restored.bad:
            return (f"[sandbox: restored {restored.files} files ({format_size(restored.size)}B) from the persistent "
                    f"workspace{where}{extra}]")
        return f"[sandbox: files in /workspace and /home/user are kept across restarts (persistent workspace{where})]"

    def _load(self) -> tuple[_Restored, str]:
        """Open the store at ``self.path`` (its lock held) and restore it: (what was restored,
        a notice when it is not in use as usual: unreadable, moved aside, read-only)."""
        notice = ""
        try:
            restored = self._open_and_restore()
        except (sqlite3.DatabaseError, StoreError, ValueError) as e:
            self._close_db()
            aside = self.path.with_name(self.path.name + ".unreadable")
            try:
                os.replace(self.path, aside)
            except OSError:
                pass
            for extra in ("-wal", "-shm"):
                Path(str(self.path) + extra).unlink(missing_ok=True)
            self._wipe_trees()
            notice = (f"[sandbox: the saved workspace could not be read ({e}); it was moved to {aside} "
                      "and this kernel starts with an empty workspace]")
            try:
                restored = self._open_and_restore()
            except (sqlite3.Error, StoreError, OSError, ValueError) as e:
                self._close_db()
                return _Restored(), (f"[sandbox: the persistent workspace is not available ({e}); files last as "
                                     "long as the kernel]")
        if restored.left_out:
            self._close_db()  # read-only: a save would overwrite what was left out
            return restored, (
                f"[sandbox: the saved workspace is larger than this kernel may hold (vfs_bytes="
                f"{format_size(self.fs.max_bytes)}B, vfs_inodes={self.fs.max_inodes}, the admin's ceilings): "
                f"restored {restored.files} files ({format_size(restored.size)}B), left out {restored.left_out} "
                f"({format_size(restored.left_out_size)}B); the store at {self.path} is kept unchanged and "
                "nothing is saved to it by this kernel (ask the admin to raise --max-limit vfs_bytes)]")
        self.tracker = ChangeTracker(self.fs, ROOTS, self.excluded)
        return restored, notice

    def _lock(self) -> None:
        try:
            self._lock_fd = lock_store(self.path)
        except StoreBusy:
            raise StoreBusy("another kernel of this notebook holds its persistent workspace") from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None)
        self.db = db
        os.chmod(self.path, 0o600)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db

    def _open_and_restore(self) -> _Restored:
        db = self._connect()
        check = db.execute("PRAGMA quick_check").fetchone()
        if not check or check[0] != "ok":
            raise StoreError(f"integrity check: {check[0] if check else 'no answer'}")
        db.executescript(_SCHEMA_SQL)
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            self._write_identity(db, self.workspace or new_workspace_id())
            return _Restored()
        if row[0] != str(SCHEMA):
            raise StoreError(f"unknown store format {row[0]!r}")
        saved = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('workspace', 'notebook')").fetchall())
        # a store from before workspace ids (or a bad one) gets one; the store is this path's now
        workspace = saved.get("workspace")
        if not isinstance(workspace, str) or not valid_workspace_id(workspace):
            self._write_identity(db, new_workspace_id())
        elif saved.get("notebook") != self.notebook:
            self._write_identity(db, workspace)
        else:
            self.workspace = workspace
        return self._restore(db)

    def _write_identity(self, db: sqlite3.Connection, workspace: str) -> None:
        """Record the workspace id and the notebook path the store belongs to now."""
        db.execute("INSERT OR REPLACE INTO meta VALUES ('workspace', ?)", (workspace,))
        if self.notebook:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('notebook', ?)", (self.notebook,))
        else:
            db.execute("DELETE FROM meta WHERE key = 'notebook'")
        self.workspace = workspace

    def _wipe_trees(self) -> None:
        with self.fs.privileged():
            for root in ROOTS:
                for name in self.fs.listdir(root):
                    path = root + "/" + name
                    if not any(under(path, e) or under(e, path) for e in self.excluded):
                        self.fs.remove_tree(path)

    def _saved_quotas(self, db: sqlite3.Connection) -> tuple[int, int]:
        """The quotas that applied at the last save (0 when not recorded or not a number)."""
        saved = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('vfs_bytes', 'vfs_inodes')").fetchall())

        def number(key: str) -> int:
            value = saved.get(key)
            return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 20 else 0
        self._recorded = (number("vfs_bytes"), number("vfs_inodes"))
        return self._recorded

    def _restore(self, db: sqlite3.Connection) -> _Restored:
        """Restore every row that can be restored, with the directories in hand: nothing is
        resolved through a path, so no symlink (a saved one, or one a rename left) is followed;
        a row that is bad or under a symlink or file is skipped and counted, files that do not
        fit within the admin's ceilings are left out and counted."""
        self._wipe_trees()
        fs = self.fs
        result = _Restored()
        need_bytes, need_rows = db.execute("SELECT TOTAL(LENGTH(data)), COUNT(*) FROM entries").fetchone()
        saved_bytes, saved_inodes = self._saved_quotas(db)
        want = (max(saved_bytes, fs.bytes_used + int(need_bytes)), max(saved_inodes, fs.inodes_used + need_rows))
        if self.raise_quotas is not None and (want[0] > fs.max_bytes or want[1] > fs.max_inodes):
            before = fs.max_bytes
            try:
                self.raise_quotas(*want)
            except ValueError:
                pass  # restored within the quotas as they are: what does not fit is left out, said
            if fs.max_bytes > before:
                result.raised_to = f"; vfs_bytes is {format_size(fs.max_bytes)}B again, as when it was saved"
        rows = db.execute("SELECT rowid, path, kind, mode, uid, gid, mtime, LENGTH(data), target FROM entries "
                          "ORDER BY path")
        dir_times: list[tuple[Dir, str, float]] = []
        with fs.privileged():
            for rowid, path, kind, mode, uid, gid, mtime, length, target in rows:
                try:
                    node = self._restore_row(db, rowid, path, kind, length, target, result)
                    if node is None:
                        continue
                    if not isinstance(mode, int) or not isinstance(uid, int) or not isinstance(gid, int) \
                            or not isinstance(mtime, (int, float)):
                        raise ValueError("bad mode, owner or time")
                    if not isinstance(node, Symlink):
                        fs.chmod_node(node, mode & 0o7777, path)
                    # the user's, or root's (the parents of an admin's mount); nobody else's
                    fs.chown_node(node, uid if uid in (ROOT_UID, USER_UID) else USER_UID,
                                  gid if gid in (ROOT_UID, USER_GID) else USER_GID, path)
                    if isinstance(node, Dir):
                        dir_times.append((node, path, clamp_mtime(mtime)))
                    else:
                        fs.utime_node(node, clamp_mtime(mtime), None, path)
                except (FSError, ValueError, TypeError, OverflowError) as e:
                    if isinstance(e, FSError) and e.code == "ENOSPC":  # vfs_inodes
                        result.left_out += 1
                        continue
                    result.bad += 1
                    result.bad_example = result.bad_example or f"{str(path)[:200]!r}: {e}"
            for node, path, mtime in reversed(dir_times):  # children set the parents' times: set them last
                fs.utime_node(node, mtime, None, path)
        return result

    def _restore_row(self, db: sqlite3.Connection, rowid: int, path: object, kind: object, length: object,
                     target: object, result: _Restored) -> Inode | None:
        """Make one saved entry; returns its node, or None when it is left out (excluded, or
        over the quota: counted in ``result``). Raises ValueError/FSError for a bad row."""
        fs = self.fs
        if not isinstance(path, str) or len(path) > MAX_PATH or "\0" in path:
            raise ValueError("bad path")
        root = next((r for r in ROOTS if path.startswith(r + "/")), "")
        parts = path[len(root) + 1:].split("/")
        if not root or any(p in ("", ".", "..") for p in parts):
            raise ValueError("bad path")
        if any(under(path, e) for e in self.excluded):
            return None  # an admin's mount: never the store's
        if kind != "dir" and any(under(e, path) for e in self.excluded):
            raise ValueError("a file or symlink where an admin's mount goes")
        folder = fs.node(root, follow=False)
        for i, part in enumerate(parts[:-1]):
            child = folder.entries.get(part) if isinstance(folder, Dir) else None
            if child is None and isinstance(folder, Dir):
                child = fs.mkdir_in(folder, part, 0o755, root + "/" + "/".join(parts[:i + 1]))
                fs.chown_node(child, USER_UID, USER_GID)
            if not isinstance(child, Dir):
                raise ValueError("under a symlink or a file")  # never followed
            folder = child
        assert isinstance(folder, Dir)
        name = parts[-1]
        existing = folder.entries.get(name)
        if kind == "dir":
            if isinstance(existing, Dir):
                return existing
            if existing is not None:
                fs.remove_in(folder, name, path)
            return fs.mkdir_in(folder, name, 0o700, path)
        if kind == "symlink":
            if not isinstance(target, str) or "\0" in target or len(target) > MAX_PATH:
                raise ValueError("bad symlink target")
            if existing is not None:
                fs.remove_in(folder, name, path)
            fs.symlink_in(folder, name, target, path)
            return folder.entries[name]
        if kind != "file":
            raise ValueError(f"bad entry kind {str(kind)[:20]!r}")
        size = length if isinstance(length, int) else 0
        if size > fs.max_bytes - fs.bytes_used or fs.inodes_used >= fs.max_inodes:
            result.left_out += 1
            result.left_out_size += size
            return None
        data = db.execute("SELECT data FROM entries WHERE rowid = ?", (rowid,)).fetchone()[0]
        if data is not None and not isinstance(data, bytes):
            raise ValueError("file data is not a blob")
        if existing is not None:
            fs.remove_in(folder, name, path)
        try:
            with fs.create_in(folder, name, 0o600, path) as out:
                out.write(data or b"")
        except FSError as e:
            if e.code != "ENOSPC":
                raise
            if name in folder.entries:
                fs.remove_in(folder, name, path)  # no truncated file: all of it or nothing
            result.left_out += 1
            result.left_out_size += size
            return None
        result.files += 1
        result.size += size
        return out.node

    # ------------------------------------------------------------------ after each cell
    def save(self) -> str | None:
        """Write what changed since the last save; returns a notice when something went wrong."""
        quotas = (self.fs.max_bytes, self.fs.max_inodes)
        if self.db is None or self.tracker is None or (not self.tracker.pending and quotas == self._recorded):
            return None
        gone, present = self.tracker.changes()
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            if quotas != self._recorded:  # applied again at the next start
                db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                               (("vfs_bytes", str(quotas[0])), ("vfs_inodes", str(quotas[1]))))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('saved', ?)", (f"{time.time():.0f}",))
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
                    if kind != "dir":  # what was below a directory now replaced ('mv a b; ln -s /etc a')
                        db.execute("DELETE FROM entries WHERE path > ? AND path < ?", (path + "/", path + "0"))
                    db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (path, kind, stat.st_mode & 0o7777, stat.st_uid, stat.st_gid, stat.st_mtime,
                                data, target))
            db.execute("COMMIT")
            self._recorded = quotas
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

    # ------------------------------------------------------------------ identity
    @property
    def in_use(self) -> bool:
        """Whether this kernel saves to the store (not read-only, not unavailable)."""
        return self.db is not None and self.tracker is not None

    def user_files(self) -> int:
        """Files and links of the user's in this workspace, saved first (directories alone
        are not counted: an admin's mount makes its parents). -1: it cannot be told (the store
        is not in use, or cannot be written)."""
        if not self.in_use or self.save() is not None:
            return -1
        assert self.db is not None
        try:
            return int(self.db.execute("SELECT COUNT(*) FROM entries WHERE kind != 'dir'").fetchone()[0])
        except sqlite3.Error:
            return -1

    def adopt(self, workspace: str) -> None:
        """This store is the workspace ``workspace`` from now on (the notebook's id)."""
        if self.db is None or not valid_workspace_id(workspace):
            raise StoreError("the persistent workspace is not in use")
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('workspace', ?)", (workspace,))
        self.workspace = workspace

    def rekey(self, notebook: str) -> str | None:
        """The notebook was renamed or moved to ``notebook`` while this kernel runs: the store
        takes that path's name (under both locks; a store left there by a notebook gone is set
        aside, detached) and says so in its meta. Returns a notice when it cannot: it stays
        saved under the old name."""
        if not self.in_use or notebook == self.notebook:
            return None
        target = store_path(notebook, self.path.parent)
        old = self.notebook
        try:
            fd = lock_store(target)
        except StoreBusy:
            return (f"[sandbox: the notebook is now {shown(notebook)}, whose persistent workspace another kernel "
                    f"holds; this one's stays saved for {shown(old)}]")
        except OSError as e:
            return (f"[sandbox: the persistent workspace could not follow the rename ({e}); it stays saved for "
                    f"{shown(old)}]")
        self._close_db()  # unsaved changes stay in the tracker: the next save writes them at the new name
        try:
            if target.exists():
                set_aside(target)
            move_db(self.path, target)
        except (OSError, StoreError) as e:
            unlock_store(fd, target)
            self._reconnect()
            return (f"[sandbox: the persistent workspace could not follow the rename ({e}); it stays saved for "
                    f"{shown(old)}]")
        assert self._lock_fd is not None
        unlock_store(self._lock_fd, self.path, unlink=True)
        self._lock_fd, self.path, self.notebook = fd, target, notebook
        self._reconnect()
        if not self.in_use:
            return (f"[sandbox: the persistent workspace moved to {self.path} with the rename but cannot be opened "
                    "there; nothing more is saved by this kernel]")
        return None

    def _reconnect(self) -> None:
        """Open this store's database again (after a move); the identity is written anew."""
        try:
            db = self._connect()
            self._write_identity(db, self.workspace or new_workspace_id())
        except (sqlite3.Error, OSError):
            self._close_db()
            if self.tracker is not None:
                self.tracker.close()
                self.tracker = None

    def take_over(self, source: Path, keep: bool = False) -> tuple[_Restored, str]:
        """Make the store at ``source`` this notebook's (the notebook was renamed or moved while
        no kernel ran, or ``%workspace attach``): under both locks this store is set aside
        (``keep``: as a detached store; else deleted), ``source`` takes its name, is re-keyed
        to this notebook and restored in place of /workspace and /home/user. Returns what
        ``_load`` does. Raises StoreBusy (nothing changed) when another kernel holds
        ``source``, StoreError when the move failed (this store is in use again, its files
        still in the sandbox)."""
        if not self.in_use:
            raise StoreError("this kernel's persistent workspace is not in use")
        fd = lock_store(source)
        problem = self.save()
        if problem:
            unlock_store(fd, source)
            raise StoreError(problem)
        assert self.tracker is not None
        self.tracker.close()
        self.tracker = None
        self._close_db()
        try:
            if keep:
                set_aside(self.path)
            else:
                remove_db(self.path)
            move_db(source, self.path)
        except (OSError, StoreError) as e:
            unlock_store(fd, source)
            restored, problem = self._load()  # the files are still in the sandbox: saved again
            if self.tracker is not None:
                for root in ROOTS:
                    self.tracker.mark(root)
            raise StoreError(f"the workspace could not be moved ({e}){'; ' + problem if problem else ''}") from None
        unlock_store(fd, source, unlink=True)
        self.workspace = None  # the moved store's
        return self._load()

    def copy_from(self, source: Path) -> _Restored:
        """Restore another store's files in place of this workspace's (the notebook is a copy of
        that store's notebook), saved here as this notebook's; ``source`` is read under its
        lock and left as it is. Raises StoreBusy when another kernel holds it, StoreError or
        sqlite3.Error when it cannot be read (this workspace is left empty)."""
        if not self.in_use:
            raise StoreError("this kernel's persistent workspace is not in use")
        fd = lock_store(source)
        assert self.tracker is not None
        self.tracker.close()
        try:
            conn = connect_existing(source, seconds=600)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                if row is None or row[0] != str(SCHEMA):
                    raise StoreError("not a workspace store of this version")
                restored = self._restore(conn)
            finally:
                conn.close()
        finally:
            unlock_store(fd, source)
            self.tracker = ChangeTracker(self.fs, ROOTS, self.excluded)
            for root in ROOTS:  # all of it is new to this store
                self.tracker.mark(root)
        notice = self.save()
        if notice:
            raise StoreError(notice)
        return restored

    def forget(self) -> None:
        """``%workspace delete --force`` of this kernel's own store: deleted; nothing is saved
        any more (the files stay in the sandbox until the kernel ends)."""
        if self.tracker is not None:
            self.tracker.close()
            self.tracker = None
        self._close_db()
        remove_db(self.path)
        if self._lock_fd is not None:
            unlock_store(self._lock_fd, self.path, unlink=True)
            self._lock_fd = None

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
