"""SandboxKernel: the Jupyter protocol hooks over one Sandbox per kernel process.

``do_execute`` hands the cell to ``cells.CellRunner`` (magics, then the engine, supervised) with
output relayed by ``relay.StreamRelay``; completion and inspection go to the cell's engine (its
optional ``complete``/``inspect``), magic names are the kernel's;
interrupts (SIGINT or ``interrupt_request``) set the running cell's CancelToken. Every request
gets a reply.
"""
from __future__ import annotations

import asyncio
from collections import deque
import importlib.util
import os
import signal
import socket
import sys
import threading
from typing import Any

import zmq
from ipykernel._version import kernel_protocol_version
from ipykernel.comm import Comm, CommManager
from ipykernel.kernelbase import Kernel

from .. import __version__
from ..engine import CancelToken, ErrorInfo, RunResult, Streams
from ..limits import format_size
from ..policy import POLICY_ENV, Policy, argv_from_environment
from ..policy import from_argv as policy_from_argv
from ..sandbox import ENGINE_FACTORIES, EngineUnavailable, Sandbox
from ..wildcard import fnmatch
from .comms.editors import EditorHosts
from .comms.terminal import TARGET_NAME as TERMINAL_TARGET
from .comms.terminal import register_terminal_comm
from .comms.vfs import MAX_WRITE, NoticeHosts, register_vfs_comm
from .protocol import magics, message_size
from .protocol.cells import CellOutcome, CellRunner
from .protocol.relay import DisplayHook, StreamRelay, safe_output, terminal_safe
from .storage.host_files import HostFiles, notice_level

#: How often a pending input_request is polled for its reply.
INPUT_POLL = 0.02
#: history_request answers from the last this many cells, each input/output cut to HISTORY_TEXT
#: characters: a long-running kernel keeps bounded memory
HISTORY_CELLS = 10_000
HISTORY_TEXT = 100_000

#: completion and inspection: how long an engine may take to answer (it bounds itself first),
#: and how much of its answer is passed on
ANSWER_WAIT = 5.0
MAX_MATCHES = 1000
MAX_MATCH_TEXT = 1000
MAX_INSPECTION = 20_000

SUBSHELLS_REFUSED = ("kernel subshells are not supported: the sandbox runs one cell at a time "
                     "(requests for them get an error reply)")

class SandboxKernel(Kernel):
    implementation = "sandbox_kernel"
    implementation_version = __version__
    language_info = {
        "name": "bash",
        "version": "5.2",
        "mimetype": "text/x-sh",
        "file_extension": ".sh",
        "pygments_lexer": "bash",
        "codemirror_mode": "shell",
    }

    #: The admin's policy, set by ``app.kernel_main`` from the kernel's argv, or read from
    #: the environment (``policy.POLICY_ENV``) when another launcher made the kernel.
    policy = Policy()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: cells' output relays still open (their background jobs write): closed at shutdown
        self._open_outputs: set[CellOutput] = set()
        if POLICY_ENV in os.environ:  # started by another launcher (Enterprise Gateway's): not read yet
            try:
                self.policy = policy_from_argv(argv_from_environment(os.environ) or [], os.environ)
            except ValueError as e:  # sys.stderr is the IOPub stream by now: the launcher's log is __stderr__
                print(f"sandbox_kernel kernel: {POLICY_ENV}: {e}", file=sys.__stderr__, flush=True)
                raise SystemExit(2) from None
        self.sandbox = Sandbox(self.policy.limits.replace(), policy=self.policy)
        self.cells = CellRunner(self.sandbox, self.log)
        #: the admin's host mounts and the persistent workspace (set up before any cell)
        self.host_files = HostFiles(self.sandbox, self.policy, self.log)
        #: (line, input, output text) of the last HISTORY_CELLS cells, for history_request
        self.cell_history: deque[tuple[int, str, str]] = deque(maxlen=HISTORY_CELLS)
        self.history_session = 1
        #: The running cell's token, for interrupts from other threads (None when idle).
        self._running: CancelToken | None = None
        self._signal_watch: socket.socket | None = None
        # The base Kernel has no comm manager (IPythonKernel adds one); wire ours so that
        # comm targets (the VFS comm, widgets) work.
        self.comm_manager = CommManager(parent=self, kernel=self)
        for msg_type in ("comm_open", "comm_msg", "comm_close"):
            self.shell_handlers[msg_type] = getattr(self.comm_manager, msg_type)
        #: the frontends' editors that `nano FILE` / `edit FILE` open files in
        self.editors = EditorHosts()
        self.sandbox.editors = self.editors
        #: frontends that show the kernel's notices themselves (JupyterLab's notifications)
        self.notices = NoticeHosts()
        register_vfs_comm(self.comm_manager, lambda: self.sandbox.fs, self.editors, self.host_files.identify,
                          notices=self.notices, host_names=self._set_host_names, quota_hint=self._quota_hint)
        self.cells.workspace = self.host_files.workspace_magic
        register_terminal_comm(self.comm_manager, lambda: self.sandbox)
        try:
            import comm as comm_package
            comm_package.create_comm = lambda *args, **kw: Comm(*args, **kw)
            comm_package.get_comm_manager = lambda: self.comm_manager
        except ImportError:
            pass

    @property
    def _session(self):
        """The message session (set by the kernel app before any request arrives)."""
        assert self.session is not None
        return self.session

    # ------------------------------------------------------------------ kernel_info
    @property
    def banner(self) -> str:  # type: ignore[override]
        engines = ", ".join(f"{name} ({'installed' if ok else 'not installed'})"
                            for name, ok in engine_availability().items())
        limits = self.sandbox.limits
        return (f"sandbox_kernel {__version__}: a sandboxed machine per notebook.\n"
                f"Engines: {engines}. Cells run the shell; %%js and %%vm pick the others.\n"
                f"Limits per cell: wall time {limits.wall_time:g} s, stdout {format_size(limits.stdout_bytes)}B, "
                f"stderr {format_size(limits.stderr_bytes)}B (see %limits).\n"
                f"Line magics: {magics.known_line_magics()}. {SUBSHELLS_REFUSED[0].upper()}{SUBSHELLS_REFUSED[1:]}.")

    @property
    def help_links(self) -> list[dict]:  # type: ignore[override]
        # None: the package ships no served docs (a file:// README link is blocked by
        # JupyterLab); help lives in the kernel: `help`, `CMD --help`, `%help NAME`.
        return []

    @property
    def kernel_info(self) -> dict:
        # Built here, not by the base class: it imports debugpy to see whether a debugger
        # could be offered (60 ms on the first kernel_info_request, a third of the start-up).
        # No debugger works for sandbox code; subshells are refused (see SUBSHELLS_REFUSED).
        return {
            "protocol_version": kernel_protocol_version,
            "implementation": self.implementation,
            "implementation_version": self.implementation_version,
            "language_info": self.language_info,
            "banner": self.banner,
            "help_links": self.help_links,
            "supported_features": [],
            "debugger": False,
        }

    # ------------------------------------------------------------------ message sizes
    async def shell_main(self, subshell_id, msg) -> None:
        if not self._refused(msg, self.shell_stream):
            await super().shell_main(subshell_id, msg)

    async def dispatch_control(self, msg) -> None:
        if not self._refused(msg, self.control_stream):
            await super().dispatch_control(msg)

    def _refused(self, frames, stream) -> bool:
        """Refuse a message too large to decode (message_size), before the session decodes it;
        answer it where it can be told where to."""
        if self.session is None:
            return False
        fs = self.sandbox.fs
        refused = message_size.check(frames, max(0, fs.max_bytes - fs.bytes_used) + MAX_WRITE, self.session.auth)
        if refused is None:
            return False
        self.log.warning("sandbox: %s", refused.why)
        header = refused.header
        try:
            if header is not None and header["msg_type"].endswith("_request"):
                self.session.send(stream, header["msg_type"][:-len("_request")] + "_reply", {
                    "status": "error", "ename": "MessageTooLarge", "evalue": refused.why,
                    "traceback": [f"MessageTooLarge: {refused.why}"]}, {"header": header}, refused.idents)
            elif header is not None and header["msg_type"] == "comm_msg" and refused.comm_id is not None:
                comm = self.comm_manager.get_comm(refused.comm_id)
                if comm is not None and comm.target_name == TERMINAL_TARGET:
                    comm.send({"type": "output", "data": f"\r\n\x1b[1;31msandbox terminal: {refused.why}\x1b[0m\r\n"})
                elif comm is not None:
                    comm.send({"event": "error", "error": {"code": "EMSGSIZE", "message": refused.why}})
        except Exception:  # a reply that cannot go out must not end the kernel
            self.log.warning("sandbox: could not answer a refused message", exc_info=True)
        return True

    # ------------------------------------------------------------------ subshells: refused
    async def create_subshell_request(self, socket_, ident, parent) -> None:
        self._refuse_subshells(socket_, ident, parent, "create_subshell_reply")

    async def delete_subshell_request(self, socket_, ident, parent) -> None:
        self._refuse_subshells(socket_, ident, parent, "delete_subshell_reply")

    async def list_subshell_request(self, socket_, ident, parent) -> None:
        self._session.send(socket_, "list_subshell_reply", {"status": "ok", "subshell_id": []},
                          parent, ident)

    def _refuse_subshells(self, socket_, ident, parent, reply_type: str) -> None:
        self._session.send(socket_, reply_type, {
            "status": "error", "ename": "SubshellsNotSupported", "evalue": SUBSHELLS_REFUSED,
            "traceback": [f"SubshellsNotSupported: {SUBSHELLS_REFUSED}"]}, parent, ident)

    # ------------------------------------------------------------------ interrupts
    def start(self) -> None:
        super().start()
        self._install_sigint()
        # changes from the files panel, editors and the terminal are saved between cells too
        self.host_files.attach(self.io_loop.asyncio_loop)

    def _install_sigint(self) -> None:
        """SIGINT interrupts the running cell. A watcher thread reads the signal wake-up fd, so
        the interrupt is delivered even while the main thread runs native code (wasm)."""
        if threading.current_thread() is not threading.main_thread():
            return
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        try:
            previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        except (ValueError, OSError):
            previous = None
        if previous == -1:
            self._signal_watch = writer
            threading.Thread(target=self._watch_signals, args=(reader,), name="sandbox-sigint",
                             daemon=True).start()
            signal.signal(signal.SIGINT, lambda signum, frame: None)
            return
        if previous is not None:  # someone else owns the wake-up fd: leave it to them
            signal.set_wakeup_fd(previous)
        reader.close()
        writer.close()

        def on_sigint(signum, frame) -> None:
            # never take locks in a signal handler: hand over to a thread
            threading.Thread(target=self._interrupt, daemon=True).start()
        signal.signal(signal.SIGINT, on_sigint)

    def pre_handler_hook(self) -> None:
        """The base class installs ``default_int_handler`` around each request; a
        KeyboardInterrupt raised into the event loop would end it. Keep ours."""

    def post_handler_hook(self) -> None:
        pass

    def _watch_signals(self, reader: socket.socket) -> None:
        while True:
            try:
                data = reader.recv(256)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                self._interrupt()

    def _interrupt(self) -> None:
        """Stop the running cell, if any (any thread)."""
        cancel = self._running
        if cancel is not None:
            cancel.set("interrupt")  # also reaches line magics, which run outside Sandbox.run

    async def interrupt_request(self, stream, ident, parent) -> None:
        # interrupt_mode "message": no signal needed, the token is thread-safe
        self._interrupt()
        self._session.send(stream, "interrupt_reply", {"status": "ok"}, parent, ident=ident)

    # ------------------------------------------------------------------ execution
    async def do_execute(self, code, silent, store_history=True, user_expressions=None,
                         allow_stdin=False, *, cell_meta=None, cell_id=None):
        parent = self.get_parent("shell")
        ident = self._get_shell_context_var(self._shell_parent_ident)

        def publish(msg_type: str, content: dict) -> None:
            if not silent:
                self._session.send(self.iopub_socket, msg_type, content, parent=parent,
                                  ident=self._topic(msg_type))

        relay = StreamRelay(lambda name, text: publish("stream", {"name": name, "text": text}))
        output = CellOutput(relay, self._open_outputs)
        cancel = CancelToken()
        active = self.sandbox.policy.active_output
        streams = Streams(relay.sink("stdout"), relay.sink("stderr"), cancel,
                          self._make_input(relay, ident, parent, cancel) if allow_stdin else None,
                          DisplayHook(publish, relay, active), output.keep)
        self._running = cancel
        self.host_files.cell_started()
        try:
            try:
                for notice in self.host_files.take_notices():
                    self._notice(notice, streams)
                outcome = await self.cells.run(code, streams)
            except Exception as e:  # a kernel bug must still produce a reply
                self.log.exception("cell failed")
                outcome = CellOutcome(RunResult(1, ErrorInfo("InternalError", f"{type(e).__name__}: {e}")))
            finally:
                self._running = None
            for notice in self.host_files.after_cell():
                self._notice(notice, streams)
            value: dict = {}
            if outcome.result.value:
                value, _ = safe_output(outcome.result.value, {}, active, relay.sink("stderr"))
        finally:
            self.host_files.cell_finished()
            output.cell_done()

        result = outcome.result
        output_text = ""
        if value:
            output_text = str(value.get("text/plain", ""))
            publish("execute_result", {"execution_count": self.execution_count,
                                       "data": value, "metadata": {}})
        if store_history:
            self.cell_history.append((self.execution_count, code[:HISTORY_TEXT], output_text[:HISTORY_TEXT]))
        reply: dict[str, Any] = {"execution_count": self.execution_count}
        if result.error is not None:
            error = result.error
            traceback = list(error.traceback) or [f"{error.ename}: {error.evalue}"]
            # sandbox text (a JS exception's message): colours stay, other escapes go
            content = {"ename": terminal_safe(str(error.ename)), "evalue": terminal_safe(str(error.evalue)),
                       "traceback": [terminal_safe(str(line)) for line in traceback]}
            publish("error", content)
            reply.update(status="error", **content)
        else:
            reply.update(status="ok", payload=outcome.payload,
                         user_expressions=unsupported_expressions(user_expressions))
        return reply

    def _notice(self, text: str, streams: Streams) -> None:
        """A notice of the kernel's own (workspace restored, mounts, files not kept, a failed
        save): a notification in frontends that show them (JupyterLab's extension; not saved in
        the notebook), else plain output under the cell (display_data, not red stderr), so that
        headless runs (papermill, nbclient) keep it in the executed notebook."""
        if self.notices.send(text, notice_level(text)):
            return
        if streams.display is not None:
            streams.display({"text/plain": text}, {}, None, False)
        else:
            streams.stderr.write((text + "\n").encode())

    def _set_host_names(self, names: frozenset[str]) -> None:
        self.sandbox.host_names = names

    def _quota_hint(self) -> str:
        """How an upload that met the VFS quota can get more room (the comm's ENOSPC replies)."""
        fs, sandbox = self.sandbox.fs, self.sandbox
        quotas = sandbox.limits.replace(vfs_bytes=fs.max_bytes, vfs_inodes=fs.max_inodes)
        size = format_size(fs.max_bytes)
        return (f"the sandbox's files may take {size + ' bytes' if size.isdigit() else size}, limit vfs_bytes; "
                f"{quotas.raise_hint('vfs_bytes', ceilings=sandbox.ceilings)} in a cell, or delete files")

    def _make_input(self, relay: StreamRelay, ident, parent, cancel: CancelToken):
        """``Streams.input`` over the stdin channel, polled without blocking the event loop
        (ipykernel's own ``raw_input`` blocks the thread until the frontend answers)."""

        async def read_input(prompt: str, password: bool = False) -> str | None:
            relay.flush()
            while self.stdin_socket.poll(0):  # drop stale replies
                self.stdin_socket.recv_multipart()
            self._session.send(self.stdin_socket, "input_request",
                              {"prompt": terminal_safe(prompt), "password": bool(password)}, parent, ident=ident)
            while not cancel.is_set():
                if self.stdin_socket.poll(0):
                    _, reply = self._session.recv(self.stdin_socket, mode=zmq.NOBLOCK)
                    if reply is None:
                        continue
                    value = reply.get("content", {}).get("value", "")
                    return None if value == "\x04" else str(value)
                await asyncio.sleep(INPUT_POLL)
            return None

        return read_input

    # ------------------------------------------------------------------ completion etc.
    async def do_complete(self, code, cursor_pos):
        cursor = max(0, min(int(cursor_pos), len(code)))
        try:
            start, matches = await self._complete(code, cursor)
        except Exception:
            self.log.exception("completion failed")
            start, matches = cursor, []
        matches = [m for m in matches if isinstance(m, str) and 0 < len(m) <= MAX_MATCH_TEXT][:MAX_MATCHES]
        return {"status": "ok", "matches": matches, "cursor_start": max(0, min(start, cursor)),
                "cursor_end": cursor, "metadata": {}}

    async def _complete(self, code: str, cursor: int) -> tuple[int, list[str]]:
        word = magics.magic_word(code, cursor)
        if word is not None:
            start, token, first = word
            names = (["%%" + n for n in magics.CELL_MAGICS] if first else []) + ["%" + n for n in magics.LINE_MAGICS]
            return start, [n for n in names if n.startswith(token)]
        routed = self._route(code, cursor)
        if routed is None:
            return cursor, []
        engine, text, position, shift = routed
        complete = getattr(engine, "complete", None)
        if complete is None:
            return cursor, []
        try:
            start, matches = await asyncio.wait_for(complete(text, position), ANSWER_WAIT)
        except asyncio.TimeoutError:
            return cursor, []
        return start + shift, list(matches)

    async def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        try:
            text = await self._inspect(code, max(0, min(int(cursor_pos), len(code))))
        except Exception:
            self.log.exception("inspection failed")
            text = None
        if not isinstance(text, str) or not text:
            return {"status": "ok", "found": False, "data": {}, "metadata": {}}
        text = text if len(text) <= MAX_INSPECTION else text[:MAX_INSPECTION] + "\n…"
        return {"status": "ok", "found": True, "data": {"text/plain": terminal_safe(text)}, "metadata": {}}

    async def _inspect(self, code: str, cursor: int) -> str | None:
        word = magics.magic_word(code, cursor, whole=True)
        if word is not None:
            return self.cells.help_text(word[1])
        routed = self._route(code, cursor)
        if routed is None:
            return None
        engine, text, position, _ = routed
        inspect = getattr(engine, "inspect", None)
        if inspect is None:
            return None
        try:
            return await asyncio.wait_for(inspect(text, position), ANSWER_WAIT)
        except asyncio.TimeoutError:
            return None

    def _route(self, code: str, cursor: int):
        """(engine, text, cursor in it, offset to add back) for a completion or inspection at
        ``cursor`` (``magics.route``); None if no engine can answer."""
        routed = magics.route(code, cursor)
        if routed is None:
            return None
        try:
            return (self.sandbox.engine(routed.engine), *routed[1:])
        except EngineUnavailable:
            return None

    async def do_is_complete(self, code):
        try:
            cell = magics.parse_cell(code)
        except magics.MagicError:
            return {"status": "invalid"}
        cell_magic = code.lstrip().startswith("%%")
        if not cell.has_code:
            # a cell magic line alone announces code on the next lines (jupyter console)
            return {"status": "incomplete", "indent": ""} if cell_magic else {"status": "complete"}
        status, indent = self._engine_is_complete(cell)
        if cell_magic and status in ("complete", "unknown"):
            # as IPython's cell magics: the cell stays open until a blank line (each line of a
            # JS or VM cell is often complete by itself; jupyter console would run the first)
            status = "complete" if not code.split("\n")[-1].strip() else "incomplete"
        reply = {"status": status}
        if status == "incomplete":
            reply["indent"] = indent or ""
        return reply

    def _engine_is_complete(self, cell) -> tuple[str, str]:
        try:
            engine = self.sandbox.engine(cell.engine)
        except EngineUnavailable:
            return "unknown", ""
        check = getattr(engine, "is_complete", None)
        if check is None:
            return "unknown", ""
        try:
            return check(cell.body)
        except Exception:
            self.log.exception("is_complete failed")
            return "unknown", ""

    async def do_history(self, hist_access_type, output, raw, session=None, start=None,
                         stop=None, n=None, pattern=None, unique=False):
        entries: list[tuple[int, str, str]] = list(self.cell_history)
        if hist_access_type == "tail":
            entries = entries[-n:] if n else entries[-10:]
        elif hist_access_type == "range":
            if session not in (None, 0, self.history_session) and not (session and session < 0):
                entries = []
            else:
                lo = start or 1
                entries = [e for e in entries if e[0] >= lo and (stop is None or e[0] < stop)]
        elif hist_access_type == "search":
            glob = pattern or "*"
            entries = [e for e in entries if fnmatch(glob, e[1])]  # the one wildcard matcher: linear time
            if unique:
                seen: dict[str, tuple[int, str, str]] = {}
                for e in entries:
                    seen.pop(e[1], None)
                    seen[e[1]] = e
                entries = list(seen.values())
            if n:
                entries = entries[-n:]
        else:
            entries = []
        history = [(self.history_session, line, (source, out) if output else source)
                   for line, source, out in entries]
        return {"status": "ok", "history": history}

    async def do_shutdown(self, restart):
        self.host_files.close()
        try:
            await self.sandbox.shutdown()
        except Exception:
            self.log.exception("sandbox shutdown failed")
        # no relay thread may still send while ipykernel closes its sockets (libzmq aborts)
        for output in list(self._open_outputs):
            output.close()
        return {"status": "ok", "restart": restart}


# ---------------------------------------------------------------------- helpers
class CellOutput:
    """A cell's output relay: closed when the cell is done, unless background jobs the cell
    started still write to it (``Streams.keep``); then when the last of them let go. Their
    output goes out with the cell's parent header, so frontends show it under that cell
    (as ipykernel does for a thread's output), also after the cell's reply."""

    def __init__(self, relay: StreamRelay, open_outputs: set) -> None:
        self.relay = relay
        self.holds = 0
        self.done = False
        self.open_outputs = open_outputs
        open_outputs.add(self)

    def keep(self):
        self.holds += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.holds -= 1
                self._close_when_free()
        return release

    def cell_done(self) -> None:
        """The cell replies: what it wrote goes out first."""
        self.done = True
        if self.holds:
            self.relay.flush()
        self._close_when_free()

    def _close_when_free(self) -> None:
        if self.done and not self.holds:
            self.close()

    def close(self) -> None:
        """Send what is pending and stop the relay's thread (once)."""
        if self in self.open_outputs:
            self.open_outputs.discard(self)
            self.relay.close()


def unsupported_expressions(expressions: dict | None) -> dict:
    return {name: {"status": "error", "ename": "NotSupported",
                   "evalue": "user_expressions are not evaluated by this kernel", "traceback": []}
            for name in (expressions or {})}


def engine_availability() -> dict[str, bool]:
    """Engine name -> whether its module is installed (without importing it)."""
    found = {}
    for name, target in ENGINE_FACTORIES.items():
        module = target.partition(":")[0]
        try:
            found[name] = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found[name] = False
    return found
