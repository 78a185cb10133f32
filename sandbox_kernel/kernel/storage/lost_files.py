"""Files a kernel without ``--persist`` leaves behind: at shutdown (a restart, or the notebook
closed) the user's work in /workspace and /home/user is counted and a small record kept for
that notebook; the next kernel of the notebook says in its first cell what was not kept and how
to keep it, so a restart never empties the machine silently. Only for notebooks a frontend
names (``JPY_SESSION_NAME``): a headless run (papermill) is expected to start empty."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from ...limits import format_size
from ...vfs import VFS
from .store import data_root, store_path

#: the trees a user works in (what --persist would keep)
WORK_ROOTS = ("/workspace", "/home/user")
#: records kept at most (the oldest go first): one per notebook not reopened since
MAX_RECORDS = 1000
#: a record is a few numbers: anything larger is not ours
MAX_RECORD_BYTES = 4096


def records_dir() -> Path:
    return data_root() / "lost-files"


class LostFiles:
    """Marks what the sandbox held at start; ``record()`` at shutdown, ``take_notice()`` at start."""

    def __init__(self, fs: VFS, notebook: str, excluded: tuple[str, ...]) -> None:
        self.fs = fs
        self.notebook = notebook
        self.excluded = excluded
        self.path = store_path(notebook, records_dir()).with_suffix(".json")
        # what the layout, the mounts and a restore made: not the user's work
        self.first_ino = fs.inode_mark
        self.started = time.time()

    def work(self) -> tuple[int, int]:
        """(files, bytes) the user made or changed since start, outside the admin's mounts."""
        files = size = 0
        with self.fs.privileged():
            for root in WORK_ROOTS:
                for folder, dirs, names in self.fs.walk(root):
                    dirs[:] = [d for d in dirs if f"{folder}/{d}" not in self.excluded]
                    for name in names:
                        node = self.fs.node(f"{folder}/{name}", follow=False)
                        if node.ino >= self.first_ino or node.mtime > self.started:
                            files += 1
                            size += node.size
        return files, size

    def record(self) -> None:
        """At shutdown: keep the count for this notebook's next kernel (nothing when no work)."""
        files, size = self.work()
        if not files:
            return
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        records = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in records[:max(len(records) - MAX_RECORDS + 1, 0)]:
            old.unlink(missing_ok=True)
        data = json.dumps({"files": files, "bytes": size, "time": time.time()}).encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def take_notice(self) -> str | None:
        """At start: the notice for what the notebook's last kernel did not keep (once)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            raw = os.read(fd, MAX_RECORD_BYTES + 1)
        finally:
            os.close(fd)
            self.path.unlink(missing_ok=True)
        if len(raw) > MAX_RECORD_BYTES:
            return None
        try:
            record = json.loads(raw)
            files, size = int(record["files"]), int(record["bytes"])
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        if files <= 0 or size < 0:
            return None
        counted, verb = (f"{files} file", "was") if files == 1 else (f"{files} files", "were")
        return (f"[sandbox: this is a new sandbox: the {counted} ({format_size(size)}B) the notebook's last "
                f"kernel had in {' and '.join(WORK_ROOTS)} {verb} not kept (this kernel keeps files only "
                "while it runs). Download what you need from the Sandbox files panel before a restart, or ask "
                "your admin for --persist (kept across restarts) or a --mount rw folder.]")
