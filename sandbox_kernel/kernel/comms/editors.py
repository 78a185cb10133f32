"""Editors in the frontend for `nano FILE` / `edit FILE`: a frontend whose ``sandbox.vfs`` comm
opens with ``{"editor": true}`` (the JupyterLab panel) is an editor host. The kernel pushes
``{"event": "edit", "edit": ID, "path"}``; the host answers with the ``edited`` request, state
``opened`` once the editor shows the file, then ``closed`` when its tab is closed (or ``failed``
with a message). See docs/comm-protocol.md.
"""
from __future__ import annotations

import asyncio
import itertools
from typing import Awaitable, Callable

#: seconds a host has to show the file before the next (older) host is asked
OPEN_TIMEOUT = 20.0
#: files open in editors at once, across all commands (the notebook's and the terminals'):
#: each is a browser tab and a wait here
MAX_OPEN = 32

Send = Callable[[dict], None]


class EditorHosts:
    """The editor hosts of one kernel (newest last) and the edits waiting on them.
    ``Sandbox.editors`` for the commands: ``await edit(path)`` -> None or an error message."""

    def __init__(self, open_timeout: float = OPEN_TIMEOUT, max_open: int = MAX_OPEN) -> None:
        self.open_timeout = open_timeout
        self.max_open = max_open
        self.hosts: list[Send] = []
        #: edit id -> (host, opened, closed): futures the host's `edited` requests settle
        self.waiting: dict[str, tuple[Send, asyncio.Future, asyncio.Future]] = {}
        self._ids = itertools.count(1)

    def attach(self, send: Send) -> None:
        self.hosts.append(send)

    def detach(self, send: Send) -> None:
        if send in self.hosts:
            self.hosts.remove(send)
        for edit_id, (host, _, _) in list(self.waiting.items()):
            if host == send:
                self.report(edit_id, "failed", "the Sandbox files panel closed its connection to the kernel")

    def available(self) -> bool:
        return bool(self.hosts)

    async def edit(self, path: str, on_open: Callable[[], Awaitable[None]] | None = None) -> str | None:
        """Open ``path`` in the newest host that answers and wait until its editor is closed
        (``on_open`` is awaited once the editor shows the file). None when it was; else why it
        could not be opened."""
        if len(self.waiting) >= self.max_open:
            return (f"{len(self.waiting)} files are open in editors already, the most at once; "
                    "close some editor tabs first")
        problem = "no editor is attached to this kernel"
        for send in reversed(list(self.hosts)):
            edit_id = str(next(self._ids))
            loop = asyncio.get_running_loop()
            opened, closed = loop.create_future(), loop.create_future()
            self.waiting[edit_id] = (send, opened, closed)
            try:
                try:
                    send({"event": "edit", "edit": edit_id, "path": path})
                except Exception as e:  # a closed comm: try the next host
                    problem = f"the editor could not be reached ({type(e).__name__})"
                    continue
                try:
                    failure = await asyncio.wait_for(asyncio.shield(opened), self.open_timeout)
                except asyncio.TimeoutError:
                    problem = (f"the Sandbox files panel did not open the file within {self.open_timeout:g} s "
                               "(is its JupyterLab tab still open?)")
                    continue
                if failure is not None:
                    return failure
                if on_open is not None:
                    await on_open()
                return await closed
            finally:
                self.waiting.pop(edit_id, None)
        return problem

    def report(self, edit_id: str, state: str, message: str = "") -> bool:
        """A host's ``edited`` request; False when no edit waits under ``edit_id``."""
        futures = self.waiting.get(edit_id)
        if futures is None:
            return False
        _, opened, closed = futures
        if state == "failed":
            settle(opened, message or "the editor could not open the file")
            settle(closed, message or "the editor could not open the file")
        elif state == "opened":
            settle(opened, None)
        else:
            settle(opened, None)
            settle(closed, None)
        return True


def settle(future: asyncio.Future, value) -> None:
    """Set ``future``'s result on its own loop (the request may arrive on another thread)."""
    def set_result() -> None:
        if not future.done():
            future.set_result(value)
    loop = future.get_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        set_result()
    else:
        loop.call_soon_threadsafe(set_result)
