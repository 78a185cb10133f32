"""Which paths under some roots changed since the last look: the VFS's change events, kept as a
set. Host mounts and the persistent workspace write back only these, so an unchanged
workspace costs nothing after a cell."""
from __future__ import annotations

from typing import Iterator

from ..paths import under
from .errors import FSError
from .fs import VFS, Stat


class ChangeTracker:
    """Collects created/modified/deleted paths under ``roots`` (minus ``excluded``) from the
    VFS's listeners. A rename shows as the old path deleted and the new one created, a new
    directory may arrive with content: ``changes`` expands both."""

    def __init__(self, fs: VFS, roots: tuple[str, ...], excluded: tuple[str, ...] = ()) -> None:
        self.fs = fs
        self.roots = roots
        self.excluded = excluded
        self._dirty: set[str] = set()
        fs.listeners.append(self._on_change)

    def _on_change(self, path: str, kind: str) -> None:
        if any(under(path, r) for r in self.roots) and not any(under(path, e) for e in self.excluded):
            self._dirty.add(path)

    @property
    def pending(self) -> bool:
        return bool(self._dirty)

    def mark(self, path: str) -> None:
        """Treat ``path`` as changed (e.g. a write-back that failed and must be retried)."""
        self._on_change(path, "modified")

    def changes(self) -> tuple[list[str], list[tuple[str, Stat]]]:
        """(gone, present) since the last call: paths that no longer exist, and every existing
        path (with its lstat) that changed, whole subtrees for directories, parents first."""
        dirty, self._dirty = self._dirty, set()
        gone: list[str] = []
        present: dict[str, Stat] = {}
        with self.fs.privileged():
            for path in sorted(dirty):
                try:
                    st = self.fs.lstat(path)
                except FSError:
                    gone.append(path)
                    continue
                present[path] = st
                if st.type == "dir":
                    for sub, sub_st in self.walk(path):
                        present[sub] = sub_st
        return gone, sorted(present.items())

    def walk(self, top: str) -> Iterator[tuple[str, Stat]]:
        """Every entry below directory ``top`` (not ``top``), depth first, without recursion
        (call it inside ``fs.privileged()`` to see what the user may not read)."""
        todo = [top]
        while todo:
            folder = todo.pop()
            try:
                entries = self.fs.scandir(folder)
            except FSError:
                continue
            for name, st in entries:
                path = folder.rstrip("/") + "/" + name
                if any(under(path, e) for e in self.excluded):
                    continue
                yield path, st
                if st.type == "dir":
                    todo.append(path)

    def close(self) -> None:
        if self._on_change in self.fs.listeners:
            self.fs.listeners.remove(self._on_change)
