"""What crosses between the host's files and the sandbox's for one kernel: the admin's mounts
and the persistent workspace. Set up when the kernel starts, synced after every cell, closed at
shutdown; problems become notices in the next cell's output, never a dead kernel."""
from __future__ import annotations

import logging
import os

from ..policy import MountError, Policy
from ..sandbox import Sandbox
from .mounts import HostMount
from .store import WorkspaceStore, store_path


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
            self.store = WorkspaceStore(store_path(notebook), fs, excluded, notebook)
            self.pending_notices.append(self.store.open())
        for spec in policy.mounts:
            mount = HostMount(spec, fs)
            try:
                self.pending_notices.append(f"[sandbox: mounted {mount.copy_in()}]")
                self.mounts.append(mount)
            except MountError as e:
                self.pending_notices.append(f"[sandbox: {e}]")

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
