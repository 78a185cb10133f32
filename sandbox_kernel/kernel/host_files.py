"""What crosses between the host's files and the sandbox's for one kernel: the admin's mounts
and the persistent workspace. Set up when the kernel starts, synced after every cell and, for
changes made between cells (the files panel and editors through the ``sandbox.vfs`` comm, the
Sandbox terminal), SAVE_DELAY after the first of them; closed at shutdown. Problems become
notices in the next cell's output, never a dead kernel."""
from __future__ import annotations

import asyncio
import logging
import os

from ..policy import MountError, Policy
from ..sandbox import Sandbox
from .lost_files import LostFiles
from .mounts import HostMount
from .store import WorkspaceStore, store_path

#: seconds between the first change made outside a cell and the save that takes it (and every
#: change made meanwhile): at most one save a second however busy the terminal is
SAVE_DELAY = 1.0


class HostFiles:
    def __init__(self, sandbox: Sandbox, policy: Policy, log: logging.Logger) -> None:
        self.log = log
        self.mounts: list[HostMount] = []
        self.store: WorkspaceStore | None = None
        #: told once, with the first cell's output
        self.pending_notices: list[str] = []
        fs = sandbox.fs
        if policy.persist:
            notebook = os.environ.get("JPY_SESSION_NAME") or None
            excluded = tuple(spec.target for spec in policy.mounts)
            self.store = WorkspaceStore(store_path(notebook), fs, excluded, notebook,
                                        raise_quotas=lambda b, i: _raise_quotas(sandbox, b, i))
            self.pending_notices.append(self.store.open())
        for spec in policy.mounts:
            mount = HostMount(spec, fs)
            try:
                self.pending_notices.append(f"[sandbox: mounted {mount.copy_in()}]")
                self.mounts.append(mount)
            except MountError as e:
                self.pending_notices.append(f"[sandbox: {e}]")
        #: without --persist, a notebook's next kernel says what this one did not keep
        self.lost: LostFiles | None = None
        notebook = os.environ.get("JPY_SESSION_NAME") or None
        if self.store is None and notebook:
            self.lost = LostFiles(fs, notebook, tuple(spec.target for spec in policy.mounts))
            try:
                notice = self.lost.take_notice()
            except OSError as e:
                notice = None
                log.warning("the last kernel's record of files not kept could not be read: %s", e)
            if notice:
                self.pending_notices.append(notice)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._cell_running = False
        self._armed = False  # a save between cells is scheduled
        self._timer: asyncio.TimerHandle | None = None
        if self.store is not None or any(m.tracker is not None for m in self.mounts):
            fs.listeners.append(self._on_change)  # after the trackers': they have the path by now

    # ------------------------------------------------------------------ between cells
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Changes outside cells are saved on ``loop`` (the kernel's, where cells run)."""
        self._loop = loop

    def _pending(self) -> bool:
        return any(m.tracker is not None and m.tracker.pending for m in self.mounts) or (
            self.store is not None and self.store.tracker is not None and self.store.tracker.pending)

    def _on_change(self, path: str, kind: str) -> None:
        """A VFS listener (any thread: JS writes from its worker): outside a cell, the first
        change schedules a save; a running cell's changes are saved when it ends."""
        if self._cell_running or self._armed or self._loop is None or not self._pending():
            return
        self._armed = True
        try:
            self._loop.call_soon_threadsafe(self._schedule)
        except RuntimeError:  # the loop is closed: the kernel is going away (close() saves)
            self._armed = False

    def _schedule(self) -> None:
        if self._cell_running or self._loop is None:  # a cell saves at its end; closed: saved
            self._armed = False
            return
        self._timer = self._loop.call_later(SAVE_DELAY, self._save_between_cells)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed = False

    def _save_between_cells(self) -> None:
        self._timer = None
        self._armed = False
        if not self._cell_running:  # a cell that started meanwhile saves when it ends
            self.pending_notices += self.after_cell()

    def cell_started(self) -> None:
        """No saves between cells while one runs (its own save follows it)."""
        self._cell_running = True
        self._cancel()

    def cell_finished(self) -> None:
        """The cell is over (after its save, or when it ended without one): changes that are
        still unsaved get the delayed save."""
        self._cell_running = False
        if self._loop is not None and not self._armed and self._pending():
            self._armed = True
            self._schedule()

    def take_notices(self) -> list[str]:
        notices, self.pending_notices = self.pending_notices, []
        return notices

    def after_cell(self) -> list[str]:
        """Write back rw mounts and save the workspace; returns notices for this cell."""
        notices: list[str] = []
        for mount in self.mounts:
            try:
                notices += mount.write_back()
            except Exception as e:  # a host I/O bug must not lose the reply
                self.log.exception("mount write-back failed")
                notices.append(f"[sandbox: mount {mount.spec.target}: write-back failed: {e}]")
        if self.store is not None:
            try:
                notice = self.store.save()
            except Exception as e:
                self.log.exception("workspace save failed")
                notice = f"[sandbox: the persistent workspace could not be saved: {e}]"
            if notice:
                notices.append(notice)
        return notices

    def close(self) -> None:
        self._cancel()
        self._loop = None
        for mount in self.mounts:
            try:
                for note in mount.close():
                    self.log.warning("%s", note)
            except Exception:
                self.log.exception("mount write-back at shutdown failed")
        if self.store is not None:
            try:
                self.store.close()
            except Exception:
                self.log.exception("workspace save at shutdown failed")
        if self.lost is not None:
            try:
                self.lost.record()
            except Exception:
                self.log.exception("the record of files not kept could not be written")


def _raise_quotas(sandbox: Sandbox, vfs_bytes: int, vfs_inodes: int) -> None:
    """The VFS quotas raised towards these (a workspace saved under quotas that %limits
    raised), never past the admin's ceilings."""
    limits, ceilings = sandbox.limits, sandbox.policy.ceilings
    trial = limits.replace(vfs_bytes=min(max(limits.vfs_bytes, vfs_bytes), ceilings.vfs_bytes),
                           vfs_inodes=min(max(limits.vfs_inodes, vfs_inodes), ceilings.vfs_inodes))
    sandbox.update_limits(trial, ["vfs_bytes", "vfs_inodes"])
