"""A login shell in the VM on a pseudo-terminal: the kernel's "Sandbox VM terminal".

``VmEngine.open_terminal`` starts the VM when needed, syncs ``/workspace`` in and runs
``bash -l`` as the guest's user in ``/workspace`` on a pty, with the notebook's process and
memory limits and the VM's network. Keys go to the pty as typed (the guest's line discipline
edits the line and turns Ctrl-C into SIGINT); output goes to ``on_output`` as it arrives.
While the shell runs, ``/workspace`` is synced both ways every SYNC_INTERVAL seconds (out,
then in: a path changed on both sides keeps the sandbox's version, as for cells) and once
more when it ends. ``close`` hangs the shell up (SIGHUP to every process of it), then kills
what is left; as for a cell, the agent ends the command's whole cgroup when the shell ends.
"""
from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Callable

from . import protocol as P
from .client import AgentError, AgentGone, Execution
from .guestinput import ExecRequest

#: the shell, and what it needs of a terminal that the cells' environment lacks
TERMINAL_ARGV = ["/bin/bash", "-l"]
TERMINAL_ENV = {"TERM": "xterm-256color",
                "PS1": r"\[\e[1;32m\]\u@\h\[\e[0m\]:\[\e[1;34m\]\w\[\e[0m\]\$ "}
SYNC_INTERVAL = 2.0       # seconds between two-way syncs while the shell runs
HANGUP_GRACE = 2.0        # seconds between SIGHUP and SIGKILL at close
KILL_WAIT = 5.0           # seconds the agent has to report the end of a killed shell
MAX_PENDING_INPUT = 1 << 20  # bytes of keys queued for a guest that does not read (more are dropped)
MAX_SIZE = 1000           # rows and columns the agent accepts


def clamp_size(value: int) -> int:
    return max(1, min(MAX_SIZE, int(value)))


class VmTerminal:
    """One shell on a pty in the VM (the ``engine.Terminal`` protocol). ``engine`` is the
    VmEngine: its sync and its handling of a VM lost mid-command."""

    def __init__(self, engine, machine, on_output: Callable[[bytes], None],
                 progress: Callable[[str], None]) -> None:
        self.engine = engine
        self.machine = machine
        self.on_output = on_output
        self.progress = progress
        self.execution: Execution | None = None
        self.input: asyncio.Queue[bytes] = asyncio.Queue()
        self.pending_input = 0
        self.status: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.stop_syncing = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.closing = False

    async def start(self, request: ExecRequest, rows: int, cols: int) -> None:
        client = self.machine.client
        self.execution = await client.exec(request.argv, cwd=request.cwd, env=request.env, stdin=self.next_input,
                                           pty=(clamp_size(rows), clamp_size(cols)), pids_max=request.pids_max,
                                           memory_max=request.memory_max, user=P.GUEST_USER)
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self.pump()), loop.create_task(self.sync_periodically())]

    # ----------------------------------------------------------------- keys and size
    async def next_input(self) -> bytes:
        data = await self.input.get()
        self.pending_input -= len(data)
        return data

    def write(self, data: bytes) -> None:
        if data and not self.status.done() and self.pending_input + len(data) <= MAX_PENDING_INPUT:
            self.pending_input += len(data)
            self.input.put_nowait(bytes(data))

    async def resize(self, rows: int, cols: int) -> None:
        if self.execution is not None and not self.status.done():
            with contextlib.suppress(AgentGone, P.ProtocolError):
                await self.execution.resize(clamp_size(rows), clamp_size(cols))

    # ----------------------------------------------------------------- running
    async def pump(self) -> None:
        execution = self.execution
        assert execution is not None
        status = 1
        try:
            async for _, data in execution.events():
                self.on_output(data)
            assert execution.exit is not None
            status = execution.exit.status
        except AgentError as e:
            self.progress(f"vm: {e.strerror}")
            status = 127 if e.errno == 2 else 126
        except (AgentGone, P.MalformedReply) as e:
            await self.engine.machine_lost(self.machine, e, self.progress)
        finally:
            self.stop_syncing.set()
            if len(self.tasks) > 1:
                with contextlib.suppress(asyncio.CancelledError):
                    await self.tasks[1]
            try:
                await self.engine.sync_workspace(self.machine, self.progress, into_guest=False)
            finally:
                if not self.status.done():
                    self.status.set_result(status)

    async def sync_periodically(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.stop_syncing.wait(), SYNC_INTERVAL)
            if self.stop_syncing.is_set():
                return
            await self.engine.sync_workspace(self.machine, self.progress, into_guest=False)
            await self.engine.sync_workspace(self.machine, self.progress, into_guest=True)

    async def wait(self) -> int:
        return await asyncio.shield(self.status)

    async def close(self) -> None:
        """End the shell and everything it started (SIGHUP, then SIGKILL), sync out, wait."""
        if self.execution is None and not self.status.done():  # never started
            self.status.set_result(1)
        if self.closing or self.execution is None:
            await self.wait()
            return
        self.closing = True
        for signum, grace in ((signal.SIGHUP, HANGUP_GRACE), (signal.SIGKILL, KILL_WAIT)):
            if self.status.done():
                break
            await self.execution.signal(signum, whole_command=True)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self.status), grace)
        if not self.status.done():  # the agent never reported the end: the guest is hung
            await self.engine.machine_lost(self.machine, AgentGone("the VM stopped answering"), self.progress)
            for task in self.tasks:
                task.cancel()
            if not self.status.done():
                self.status.set_result(137)
        await self.wait()
