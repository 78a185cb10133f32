"""What crosses between the host's files and the sandbox's for one kernel: the admin's mounts
and the persistent workspace. Set up when the kernel starts, synced after every cell and, for
changes made between cells (the files panel and editors through the ``sandbox.vfs`` comm, the
Sandbox terminal), SAVE_DELAY after the first of them; closed at shutdown. Problems become
notices in the next cell's output, never a dead kernel."""
from __future__ import annotations

import asyncio
import logging
import os
from typing import Any, Awaitable, Callable

from ...policy import MountError, Policy
from ...sandbox import Sandbox
from . import workspaces
from .lost_files import LostFiles
from .mounts import HostMount
from .store import WorkspaceStore, store_path, valid_workspace_id, workspaces_dir

#: ``ask(prompt) -> the line the user typed`` (None: no answer)
Ask = Callable[[str], Awaitable[str | None]]

#: seconds between the first change made outside a cell and the save that takes it (and every
#: change made meanwhile): at most one save a second however busy the terminal is
SAVE_DELAY = 1.0


#: words of the notices that report a failure or a loss rather than what was done
WARNING_WORDS = ("could not", "cannot", "failed", "not available", "larger than", "new sandbox", "not kept",
                 "moved to", "left out", "too large")


def notice_level(text: str) -> str:
    """``warning`` for a notice that reports a failure or a loss (a failed save or write-back,
    files not kept, a workspace that cannot be opened), else ``info`` (restored, mounted)."""
    lowered = text.lower()
    return "warning" if any(word in lowered for word in WARNING_WORDS) else "info"


class HostFiles:
    def __init__(self, sandbox: Sandbox, policy: Policy, log: logging.Logger) -> None:
        self.log = log
        self.mounts: list[HostMount] = []
        self.store: WorkspaceStore | None = None
        self.persist = policy.persist
        #: where the stores are (%workspace list)
        self.folder = workspaces_dir()
        #: told once, with the first cell's output
        self.pending_notices: list[str] = []
        #: the notice of the store's opening, dropped when the notebook's own workspace replaces it
        self._store_notice = ""
        #: the notebook's path as the frontend knows it (the `workspace` op's), to follow renames
        self._api_path: str | None = None
        #: a `workspace` op's id that came while a cell ran: matched after it (wanted id, answer)
        self._deferred: tuple[str | None, Callable[[dict], None] | None] | None = None
        fs = sandbox.fs
        if policy.persist:
            notebook = os.environ.get("JPY_SESSION_NAME") or None
            excluded = tuple(spec.target for spec in policy.mounts)
            self.store = WorkspaceStore(store_path(notebook, self.folder), fs, excluded, notebook,
                                        raise_quotas=lambda b, i: _raise_quotas(sandbox, b, i))
            self._store_notice = self.store.open()
            self.pending_notices.append(self._store_notice)
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
        """The cell is over (after its save, or when it ended without one): a `workspace` op
        that came meanwhile is done, and changes that are still unsaved get the delayed save."""
        self._cell_running = False
        if self._deferred is not None:
            wanted, answer = self._deferred
            self._deferred = None
            result = self._identify(wanted)
            if answer is not None:
                try:
                    answer(result)
                except Exception:  # the comm may be gone
                    self.log.warning("sandbox: the workspace decision could not be sent", exc_info=True)
        if self._loop is not None and not self._armed and self._pending():
            self._armed = True
            self._schedule()

    # ------------------------------------------------------------------ the notebook's workspace
    def identify(self, wanted: str | None, api_path: str | None,
                 answer: Callable[[dict], None] | None = None) -> dict[str, Any]:
        """The `workspace` op of the sandbox.vfs comm: the notebook's workspace id (None: it has
        none yet) and its path as the frontend knows it. Returns the reply: ``persist``, and the
        ``workspace`` id the notebook keeps in its metadata, a ``notice`` when something was
        done. While a cell runs the decision waits for its end (``pending``; ``answer`` then
        gets the reply)."""
        if self.store is None:
            return {"persist": False}
        if api_path:  # at once: a move saves nothing (a running cell's changes wait for its end)
            self._follow_path(self.store, api_path)
        wanted = wanted if valid_workspace_id(wanted) else None
        if self._cell_running:
            self._deferred = (wanted, answer)
            return {"persist": True, "workspace": wanted or self.store.workspace, "pending": True}
        return self._identify(wanted)

    def _identify(self, wanted: str | None) -> dict[str, Any]:
        store = self.store
        if store is None:
            return {"persist": False}
        try:
            followed = workspaces.follow_notebook(store, wanted)
        except Exception as e:  # a host I/O bug must not lose the reply
            self.log.exception("the notebook's workspace could not be followed")
            followed = workspaces.Followed(store.workspace, f"[sandbox: the notebook's persistent workspace could "
                                                            f"not be looked up: {e}]")
        if followed.notice:
            if followed.replaced and self._store_notice in self.pending_notices:
                self.pending_notices.remove(self._store_notice)  # not this notebook's workspace after all
            self.pending_notices.append(followed.notice)
        return {"persist": True, "workspace": followed.workspace, "notice": followed.notice}

    def _follow_path(self, store: WorkspaceStore, api_path: str) -> None:
        """The notebook renamed or moved while this kernel runs: its store follows."""
        old, self._api_path = self._api_path, api_path
        if old is None or old == api_path:
            return
        notebook = workspaces.renamed_path(store.notebook, old, api_path)
        notice = store.rekey(notebook) if notebook else None
        if notice:
            self.pending_notices.append(notice)

    async def workspace_magic(self, argv: list[str], ask: Ask | None = None) -> str:
        """``%workspace [list] | attach [--force|--copy] NAME | delete [--force] NAME | help``.
        ``ask(prompt)`` reads the user's answer (the notebook's input request; None: there is
        none): attach and delete of another notebook's workspace go ahead only on "yes"."""
        command = argv[0] if argv else "list"
        flags = {a for a in argv[1:] if a.startswith("--")}
        names = [a for a in argv[1:] if not a.startswith("--")]
        if command in ("help", "-h", "--help"):
            return workspaces.USAGE
        if command == "list" and not names and not flags:
            if not self.persist:
                return f"%workspace: {workspaces.PERSIST_OFF}\n"
            return workspaces.list_text(self.folder, self.store)
        allowed = {"attach": {"--force", "--copy"}, "delete": {"--force"}}.get(command)
        if allowed is None or len(names) != 1 or not flags <= allowed or flags == {"--force", "--copy"}:
            raise workspaces.WorkspaceUsage("usage:\n" + workspaces.USAGE)
        if not self.persist:
            raise workspaces.WorkspaceUsage(workspaces.PERSIST_OFF)
        if command == "attach":
            if self.store is None:
                raise workspaces.WorkspaceUsage("this kernel saves no workspace any more (its store was deleted)")
            plan = workspaces.plan_attach(self.store, names[0], "--force" in flags, "--copy" in flags)
            if plan.done:
                return plan.done
            await _confirm(plan.question, ask)
            if self.store is None:
                raise workspaces.WorkspaceUsage("this kernel saves no workspace any more (its store was deleted)")
            return workspaces.attach(self.store, plan)
        plan = workspaces.plan_delete(self.store, self.folder, names[0], "--force" in flags)
        if plan.question:
            await _confirm(plan.question, ask)
        text, own = workspaces.delete(self.store, plan)
        if own:
            self.store = None
        return text

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


async def _confirm(question: str, ask: Ask | None) -> None:
    """The user's "yes" to ``question``, typed into the notebook (an input request: no cell
    code can answer it); raises WorkspaceUsage (nothing done) otherwise."""
    if ask is None:
        raise workspaces.WorkspaceUsage("this asks for a confirmation typed into the notebook, and this frontend "
                                        "takes no input (nbclient, papermill); run it in JupyterLab; nothing was "
                                        "changed")
    answer = await ask(question)
    if (answer or "").strip().lower() != "yes":
        raise workspaces.WorkspaceUsage("not confirmed; nothing was changed")


def _raise_quotas(sandbox: Sandbox, vfs_bytes: int, vfs_inodes: int) -> None:
    """The VFS quotas raised towards these (a workspace saved under quotas that %limits
    raised), never past the admin's ceilings."""
    limits, ceilings = sandbox.limits, sandbox.policy.ceilings
    trial = limits.replace(vfs_bytes=min(max(limits.vfs_bytes, vfs_bytes), ceilings.vfs_bytes),
                           vfs_inodes=min(max(limits.vfs_inodes, vfs_inodes), ceilings.vfs_inodes))
    sandbox.update_limits(trial, ["vfs_bytes", "vfs_inodes"])
