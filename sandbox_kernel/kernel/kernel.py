"""SandboxKernel: the Jupyter protocol layer over one Sandbox per kernel process.

Cells go to ``Sandbox.run`` (shell by default, ``%%js``, ``%%vm``); output is relayed as
coalesced ``stream`` messages while the cell runs; interrupts (SIGINT or ``interrupt_request``)
set the run's CancelToken and, if the engine does not stop within a grace period, cancel the
cell's task. Every request gets a reply.
"""
from __future__ import annotations

import asyncio
import codecs
import fnmatch
import importlib.util
import inspect
import re
import signal
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import zmq
from ipykernel._version import kernel_protocol_version
from ipykernel.comm import Comm, CommManager
from ipykernel.kernelbase import Kernel

from .. import __version__
from . import magics
from .comm import register_vfs_comm
from ..commands import registry
from ..limits import format_size
from ..engine import CancelToken, ErrorInfo, RunResult, Streams
from ..policy import Policy
from ..sandbox import ENGINE_FACTORIES, EngineUnavailable, Sandbox
from .sanitize import passive_bundle, safe_display_id

#: Seconds an engine gets to stop by itself after an interrupt or time-out before the kernel
#: cancels the cell's task.
STOP_GRACE = 2.0
#: Output is held at most this long, and a stream gets at most one message per interval.
FLUSH_INTERVAL = 0.05
#: How often a pending input_request is polled for its reply.
INPUT_POLL = 0.02

SUBSHELLS_REFUSED = ("kernel subshells are not supported: the sandbox runs one cell at a time "
                     "(requests for them get an error reply)")
README = Path(__file__).resolve().parents[2] / "README.md"


class StreamRelay:
    """Turns thread-safe byte writes to stdout/stderr into coalesced ``stream`` messages.

    A write after a quiet period is sent at once; otherwise output is gathered and sent by a
    background thread at most every FLUSH_INTERVAL (so a flood of lines makes ~20 messages a
    second, not one per line). Output is sent in the order written: a switch between stdout
    and stderr starts a new segment, and the segments of one flush go out in order."""

    def __init__(self, send: Callable[[str, str], None], interval: float = FLUSH_INTERVAL) -> None:
        self._send = send
        self._interval = interval
        self._cond = threading.Condition()
        self._segments: list[tuple[str, bytearray]] = []
        self._decoders = {name: codecs.getincrementaldecoder("utf-8")("replace")
                          for name in ("stdout", "stderr")}
        self._last_flush = 0.0
        self._closed = False
        self._thread = threading.Thread(target=self._flush_loop, name="sandbox-stream-relay", daemon=True)
        self._thread.start()

    def sink(self, name: str) -> "RelaySink":
        return RelaySink(self, name)

    def write(self, name: str, data: bytes) -> None:
        if not data:
            return
        with self._cond:
            if self._segments and self._segments[-1][0] == name:
                self._segments[-1][1].extend(data)
            else:
                self._segments.append((name, bytearray(data)))
            if time.monotonic() - self._last_flush >= self._interval:
                self._flush_locked(final=False)
            else:
                self._cond.notify()

    def flush(self) -> None:
        with self._cond:
            self._flush_locked(final=False)

    def close(self) -> None:
        """Send everything (including a dangling partial UTF-8 sequence) and stop the thread."""
        with self._cond:
            self._flush_locked(final=True)
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=1)

    def _flush_locked(self, final: bool) -> None:
        segments, self._segments = self._segments, []
        self._last_flush = time.monotonic()
        for name, data in segments:
            text = self._decoders[name].decode(bytes(data))
            if text:
                self._send(name, text)
        if final:
            for name, decoder in self._decoders.items():
                text = decoder.decode(b"", final=True)
                if text:
                    self._send(name, text)

    def _flush_loop(self) -> None:
        with self._cond:
            while not self._closed:
                if not self._segments:
                    self._cond.wait()
                    continue
                delay = self._last_flush + self._interval - time.monotonic()
                if delay > 0:
                    self._cond.wait(delay)
                    continue
                try:
                    self._flush_locked(final=False)
                except Exception:  # a failed send must not kill the relay
                    pass


@dataclass
class RelaySink:
    """One named stream of a StreamRelay, as the ``OutputSink`` engines write to."""

    relay: StreamRelay
    name: str

    def write(self, data: bytes) -> None:
        self.relay.write(self.name, data)


class DisplayHook:
    """``Streams.display`` for one cell: display_data / update_display_data messages, and
    ``clear(wait)`` for clear_output. Pending stream output is sent first to keep the order.
    Bundles come from sandbox code: unless the admin allows active output they are made
    passive first (``sanitize``), and what had to be dropped is said on stderr."""

    def __init__(self, publish: Callable[[str, dict], None], relay: StreamRelay,
                 active_output: bool = False) -> None:
        self._publish = publish
        self._relay = relay
        self._active = active_output

    def __call__(self, data: dict, metadata: dict | None = None, display_id: str | None = None,
                 update: bool = False) -> None:
        data, metadata = safe_output(data, metadata, self._active, self._relay.sink("stderr"))
        if not data:
            return
        self._relay.flush()
        content: dict[str, Any] = {"data": data, "metadata": metadata}
        if display_id is not None:
            content["transient"] = {"display_id": safe_display_id(display_id)}
        self._publish("update_display_data" if update else "display_data", content)

    def clear(self, wait: bool = False) -> None:
        self._relay.flush()
        self._publish("clear_output", {"wait": bool(wait)})


@dataclass
class CellOutcome:
    result: RunResult
    payload: list[dict] = field(default_factory=list)


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

    #: The admin's policy, set by ``kernelapp.kernel_main`` from the kernel's argv.
    policy = Policy()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sandbox = Sandbox(policy=self.policy)
        self.cell_history: list[tuple[int, str, str]] = []  # (line, input, output text)
        self.history_session = 1
        #: The running cell's token, for interrupts from other threads (None when idle).
        self._running: CancelToken | None = None
        self._signal_watch: socket.socket | None = None
        # The base Kernel has no comm manager (IPythonKernel adds one); wire ours so that
        # comm targets (the VFS comm, widgets) work.
        self.comm_manager = CommManager(parent=self, kernel=self)
        for msg_type in ("comm_open", "comm_msg", "comm_close"):
            self.shell_handlers[msg_type] = getattr(self.comm_manager, msg_type)
        register_vfs_comm(self.comm_manager, lambda: self.sandbox.fs)
        try:
            import comm as comm_package
            comm_package.create_comm = lambda *args, **kw: Comm(*args, **kw)
            comm_package.get_comm_manager = lambda: self.comm_manager
        except ImportError:
            pass

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
        links = []
        if README.exists():
            links.append({"text": "sandbox_kernel README", "url": README.as_uri()})
        links.append({"text": "Jupyter messaging", "url": "https://jupyter-client.readthedocs.io/en/stable/messaging.html"})
        return links

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

    # ------------------------------------------------------------------ subshells: refused
    async def create_subshell_request(self, socket_, ident, parent) -> None:
        self._refuse_subshells(socket_, ident, parent, "create_subshell_reply")

    async def delete_subshell_request(self, socket_, ident, parent) -> None:
        self._refuse_subshells(socket_, ident, parent, "delete_subshell_reply")

    async def list_subshell_request(self, socket_, ident, parent) -> None:
        self.session.send(socket_, "list_subshell_reply", {"status": "ok", "subshell_id": []},
                          parent, ident)

    def _refuse_subshells(self, socket_, ident, parent, reply_type: str) -> None:
        self.session.send(socket_, reply_type, {
            "status": "error", "ename": "SubshellsNotSupported", "evalue": SUBSHELLS_REFUSED,
            "traceback": [f"SubshellsNotSupported: {SUBSHELLS_REFUSED}"]}, parent, ident)

    # ------------------------------------------------------------------ interrupts
    def start(self) -> None:
        super().start()
        self._install_sigint()

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
        self.session.send(stream, "interrupt_reply", {"status": "ok"}, parent, ident=ident)

    # ------------------------------------------------------------------ execution
    async def do_execute(self, code, silent, store_history=True, user_expressions=None,
                         allow_stdin=False, *, cell_meta=None, cell_id=None):
        parent = self.get_parent("shell")
        ident = self._get_shell_context_var(self._shell_parent_ident)

        def publish(msg_type: str, content: dict) -> None:
            if not silent:
                self.session.send(self.iopub_socket, msg_type, content, parent=parent,
                                  ident=self._topic(msg_type))

        relay = StreamRelay(lambda name, text: publish("stream", {"name": name, "text": text}))
        cancel = CancelToken()
        active = self.sandbox.policy.active_output
        streams = Streams(relay.sink("stdout"), relay.sink("stderr"), cancel,
                          self._make_input(relay, ident, parent, cancel) if allow_stdin else None,
                          DisplayHook(publish, relay, active))
        self._running = cancel
        try:
            try:
                outcome = await self._supervise(self._run_cell(code, streams), cancel)
            except Exception as e:  # a kernel bug must still produce a reply
                self.log.exception("cell failed")
                outcome = CellOutcome(RunResult(1, ErrorInfo("InternalError", f"{type(e).__name__}: {e}")))
            finally:
                self._running = None
            value: dict = {}
            if outcome.result.value:
                value, _ = safe_output(outcome.result.value, {}, active, relay.sink("stderr"))
        finally:
            relay.close()

        result = outcome.result
        output_text = ""
        if value:
            output_text = str(value.get("text/plain", ""))
            publish("execute_result", {"execution_count": self.execution_count,
                                       "data": value, "metadata": {}})
        if store_history:
            self.cell_history.append((self.execution_count, code, output_text))
        reply: dict[str, Any] = {"execution_count": self.execution_count}
        if result.error is not None:
            error = result.error
            traceback = list(error.traceback) or [f"{error.ename}: {error.evalue}"]
            content = {"ename": error.ename, "evalue": str(error.evalue), "traceback": traceback}
            publish("error", content)
            reply.update(status="error", **content)
        else:
            reply.update(status="ok", payload=outcome.payload,
                         user_expressions=unsupported_expressions(user_expressions))
        return reply

    async def _supervise(self, coro, cancel: CancelToken) -> CellOutcome:
        """Await the cell; once it is cancelled (interrupt or time-out) give the engine
        STOP_GRACE seconds to stop, then cancel its task. Always returns an outcome."""
        task = asyncio.ensure_future(coro)
        limits = self.sandbox.limits
        started = time.monotonic()
        cancelled_at: float | None = None
        while True:
            done, _ = await asyncio.wait({task}, timeout=0.1)
            if done:
                break
            now = time.monotonic()
            if not cancel.is_set() and now - started > limits.wall_time + STOP_GRACE:
                cancel.set("timeout")  # backstop if the engine's own timer could not fire
            if cancel.is_set():
                if cancelled_at is None:
                    cancelled_at = now
                elif now - cancelled_at > STOP_GRACE:
                    task.cancel()
                    done, _ = await asyncio.wait({task}, timeout=STOP_GRACE)
                    if not done:
                        self.log.error("engine did not stop after cancellation")
                        return CellOutcome(cancelled_result(cancel, limits, stuck=True))
                    break
        try:
            return task.result()
        except asyncio.CancelledError:
            return CellOutcome(cancelled_result(cancel, limits))

    async def _run_cell(self, code: str, streams: Streams) -> CellOutcome:
        try:
            cell = magics.parse_cell(code)
        except magics.MagicError as e:
            return CellOutcome(usage_error(str(e)))
        outcome = CellOutcome(RunResult())
        for name, args in cell.line_magics:
            if streams.cancel.is_set():
                return CellOutcome(cancelled_result(streams.cancel, self.sandbox.limits))
            try:
                await self._line_magic(name, args, streams, outcome)
            except magics.MagicError as e:
                return CellOutcome(usage_error(f"%{name}: {e}"))
            except OSError as e:  # VFS errors of %save / %load
                where = f"{e.filename}: " if getattr(e, "filename", None) else ""
                return CellOutcome(usage_error(f"%{name}: {where}{e.strerror or e}", "FileError"))
        if cell.has_code:
            value = outcome.result.value
            outcome.result = await self.sandbox.run(cell.engine, cell.body, streams, self.sandbox.limits, cell.args)
            outcome.result.value = outcome.result.value or value
        return outcome

    async def _line_magic(self, name: str, args: str, streams: Streams, outcome: CellOutcome) -> None:
        sandbox = self.sandbox
        if name == "limits":
            changed = magics.set_limits(sandbox.limits, magics.split_args(args))
            if changed:
                shown = dict(line.split(None, 1) for line in sandbox.limits.describe().splitlines())
                streams.stdout.write("".join(f"{n} = {shown[n]}\n" for n in changed).encode())
            else:
                outcome.result.value = magics.limits_bundle(sandbox.limits)
        elif name in ("save", "load"):
            argv = magics.split_args(args)
            if len(argv) != 1:
                raise magics.MagicError(f"usage: %{name} PATH.tar")
            cwd = self._cwd()
            if name == "save":
                count = magics.save_snapshot(sandbox.fs, argv[0], cwd)
                streams.stdout.write(f"saved {count} entries to {argv[0]}\n".encode())
            else:
                count = magics.load_snapshot(sandbox.fs, argv[0], cwd)
                streams.stdout.write(f"restored {count} entries from {argv[0]}\n".encode())
        elif name == "help":
            argv = magics.split_args(args)
            if len(argv) != 1:
                raise magics.MagicError("usage: %help NAME")
            text = self._help_text(argv[0])
            if text is None:
                raise magics.MagicError(f"no help for '{argv[0]}'")
            outcome.payload.append({"source": "page", "data": {"text/plain": text}, "start": 0})
        elif name in ("js", "vm"):
            try:
                engine = sandbox.engine(name)
            except EngineUnavailable as e:
                raise magics.MagicError(str(e)) from None
            handler = getattr(engine, "magic", None)
            if handler is None:
                raise magics.MagicError(f"the {name} engine has no line magics")
            try:  # engines report bad magic arguments as ValueError (they can't import ours)
                text = handler(args)
                if inspect.isawaitable(text):
                    text = await text
            except ValueError as e:
                raise magics.MagicError(str(e)) from None
            if text:
                streams.stdout.write((str(text).rstrip("\n") + "\n").encode())

    def _make_input(self, relay: StreamRelay, ident, parent, cancel: CancelToken):
        """``Streams.input`` over the stdin channel, polled without blocking the event loop
        (ipykernel's own ``raw_input`` blocks the thread until the frontend answers)."""

        async def read_input(prompt: str, password: bool = False) -> str | None:
            relay.flush()
            while self.stdin_socket.poll(0):  # drop stale replies
                self.stdin_socket.recv_multipart()
            self.session.send(self.stdin_socket, "input_request",
                              {"prompt": prompt, "password": bool(password)}, parent, ident=ident)
            while not cancel.is_set():
                if self.stdin_socket.poll(0):
                    _, reply = self.session.recv(self.stdin_socket, mode=zmq.NOBLOCK)
                    if reply is None:
                        continue
                    value = reply.get("content", {}).get("value", "")
                    return None if value == "\x04" else str(value)
                await asyncio.sleep(INPUT_POLL)
            return None

        return read_input

    # ------------------------------------------------------------------ shell helpers
    def _shell(self):
        try:
            return self.sandbox.engine("sh")
        except EngineUnavailable:
            return None

    def _cwd(self) -> str:
        shell = self._shell()
        try:
            return shell.cwd() if shell is not None else "/workspace"
        except Exception:
            return "/workspace"

    def _help_text(self, name: str) -> str | None:
        if name.startswith("%"):
            key = name.lstrip("%")
            if key in magics.LINE_MAGICS:
                return magics.LINE_MAGICS[key]
            if key in magics.CELL_MAGICS:
                return f"%%{key}: the rest of the cell runs in the {magics.CELL_MAGICS[key]} engine"
            return None
        shell = self._shell()
        text = shell.builtin_help(name) if shell is not None else None
        if text:
            return text
        spec = registry.lookup(name)
        if spec is not None and spec.help:
            return spec.help
        return None

    # ------------------------------------------------------------------ completion etc.
    async def do_complete(self, code, cursor_pos):
        try:
            start, matches = self._completions(code, cursor_pos)
        except Exception:
            self.log.exception("completion failed")
            start, matches = cursor_pos, []
        return {"status": "ok", "matches": matches, "cursor_start": start,
                "cursor_end": cursor_pos, "metadata": {}}

    def _completions(self, code: str, cursor: int) -> tuple[int, list[str]]:
        cursor = max(0, min(cursor, len(code)))
        start = cursor
        while start > 0 and code[start - 1] not in WORD_BREAKS:
            start -= 1
        token = code[start:cursor]
        shell = self._shell()
        var = re.search(r"\$(\{?)([A-Za-z_][A-Za-z0-9_]*)?$", token)
        if var:
            names = shell.variable_names() if shell is not None else []
            brace, prefix = var.group(1), var.group(2) or ""
            found = sorted({n for n in names if n.startswith(prefix)})
            return start + var.start(), [f"${brace}{n}{'}' if brace else ''}" for n in found]
        before = code[:start]
        if token.startswith("%") and not before.strip():
            names = ["%%" + n for n in magics.CELL_MAGICS] + ["%" + n for n in magics.LINE_MAGICS]
            return start, [n for n in names if n.startswith(token)]
        if at_command_position(before):
            if "/" in token:
                return start, self._complete_path(token, executables=True)
            return start, sorted(n for n in self._command_names(shell) if n.startswith(token))
        if token.startswith("-"):
            name, _, value = token.partition("=")
            if _:
                return start + len(name) + 1, self._complete_path(value)
            command = current_command(before)
            return start, sorted(o for o in self._option_names(command) if o.startswith(token))
        return start, self._complete_path(token, dirs_only=current_command(before) in ("cd", "pushd", "rmdir"))

    def _command_names(self, shell) -> set[str]:
        """Builtins, keywords, functions, aliases and commands (only commands without a shell)."""
        return set(shell.completion_names()) if shell is not None else set(registry.names())

    def _option_names(self, command: str | None) -> set[str]:
        if not command:
            return set()
        text = self._help_text(command) or ""
        options: set[str] = set()
        for line in text.splitlines():
            if re.match(r"\s*-", line) or re.match(r"\s*\S.*,\s+--", line):
                options.update(m.group(1) for m in OPTION_RE.finditer(line))
        return options

    def _complete_path(self, token: str, executables: bool = False, dirs_only: bool = False) -> list[str]:
        fs = self.sandbox.fs
        cwd = self._cwd()
        head, slash, base = token.rpartition("/")
        directory = (head or "/") if slash else "."
        if directory == "~" or directory.startswith("~/"):
            directory = "/home/user" + directory[1:]
        try:
            names = fs.listdir(directory, cwd=cwd)
        except OSError:
            return []
        matches = []
        for name in names:
            if not name.startswith(base) or (name.startswith(".") and not base.startswith(".")):
                continue
            full = f"{directory}/{name}"
            is_dir = fs.is_dir(full, cwd=cwd)
            if not is_dir and (dirs_only or executables and not fs.access(full, 1, cwd=cwd)):
                continue
            matches.append(head + slash + escape_word(name) + ("/" if is_dir else ""))
        return matches

    async def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        try:
            text = self._inspect(code, cursor_pos)
        except Exception:
            self.log.exception("inspection failed")
            text = None
        if text is None:
            return {"status": "ok", "found": False, "data": {}, "metadata": {}}
        return {"status": "ok", "found": True, "data": {"text/plain": text}, "metadata": {}}

    def _inspect(self, code: str, cursor: int) -> str | None:
        cursor = max(0, min(cursor, len(code)))
        start, end = cursor, cursor
        while start > 0 and code[start - 1] not in WORD_BREAKS:
            start -= 1
        while end < len(code) and code[end] not in WORD_BREAKS:
            end += 1
        word = code[start:end]
        if not word:
            return None
        shell = self._shell()
        var = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9?#@*$!-])\}?", word)
        if var:
            if shell is None:
                return None
            value = shell.get_variable(var.group(1))
            return None if value is None else f"{var.group(1)}={format_value(value)}"
        return self._help_text(word)

    async def do_is_complete(self, code):
        try:
            cell = magics.parse_cell(code)
        except magics.MagicError:
            return {"status": "invalid"}
        if not cell.has_code:
            return {"status": "complete"}
        try:
            engine = self.sandbox.engine(cell.engine)
        except EngineUnavailable:
            return {"status": "unknown"}
        check = getattr(engine, "is_complete", None)
        if check is None:
            return {"status": "unknown"}
        try:
            status, indent = check(cell.body)
        except Exception:
            self.log.exception("is_complete failed")
            return {"status": "unknown"}
        reply = {"status": status}
        if status == "incomplete":
            reply["indent"] = indent or ""
        return reply

    async def do_history(self, hist_access_type, output, raw, session=None, start=None,
                         stop=None, n=None, pattern=None, unique=False):
        entries = self.cell_history
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
            entries = [e for e in entries if fnmatch.fnmatchcase(e[1], glob)]
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
        try:
            await self.sandbox.shutdown()
        except Exception:
            self.log.exception("sandbox shutdown failed")
        return {"status": "ok", "restart": restart}


# ---------------------------------------------------------------------- helpers
WORD_BREAKS = set(" \t\n;|&()<>`'\"")
OPTION_RE = re.compile(r"(?:^|[\s,\[])(--?[A-Za-z0-9?][\w-]*)")
_COMMAND_STARTERS = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time",
                     "exec", "command", "builtin", "xargs", "env", "nohup", "timeout", "nice", "sudo"}


def at_command_position(before: str) -> bool:
    """Whether a word starting after ``before`` is a command name (not an argument)."""
    segment = re.split(r"[;|&(\n`]|\$\(", before)[-1]
    words = segment.split()
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
        words.pop(0)  # VAR=value prefixes
    return not words or words[-1] in _COMMAND_STARTERS and len(words) == 1


def current_command(before: str) -> str | None:
    segment = re.split(r"[;|&(\n`]|\$\(", before)[-1]
    words = [w for w in segment.split() if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", w)]
    return words[0] if words else None


def escape_word(name: str) -> str:
    return re.sub(r"([\s'\"\\$&;|()<>`*?\[\]!{}#~])", r"\\\1", name)


def format_value(value: Any) -> str:
    if isinstance(value, dict):
        return "(" + " ".join(f"[{k}]={v!r}" for k, v in value.items()) + ")"
    if isinstance(value, (list, tuple)):
        return "(" + " ".join(repr(v) for v in value) + ")"
    return repr(value) if isinstance(value, str) and (not value or re.search(r"\s", value)) else str(value)


def safe_output(data: dict, metadata: dict | None, active: bool, notices) -> tuple[dict, dict]:
    """A bundle from sandbox code as it may be sent: passive unless the admin allows active
    output; a notice on ``notices`` names each part that was dropped."""
    if active:
        return data, metadata or {}
    data, metadata, notes = passive_bundle(data, metadata)
    for note in notes:
        notices.write(f"[sandbox: {note} (active output is off in this kernel's policy)]\n".encode())
    return data, metadata


def usage_error(message: str, ename: str = "UsageError") -> RunResult:
    return RunResult(2, ErrorInfo(ename, message, [f"{ename}: {message}"]))


def cancelled_result(cancel: CancelToken, limits, stuck: bool = False) -> RunResult:
    note = " (the engine did not stop; state may be inconsistent)" if stuck else ""
    if cancel.reason == "timeout":
        msg = f"wall time limit of {limits.wall_time:g} s exceeded{note}"
        return RunResult(124, ErrorInfo("Timeout", msg, [f"Timeout: {msg}"]))
    msg = f"interrupted{note}"
    return RunResult(130, ErrorInfo("Interrupted", msg, [f"Interrupted: {msg}"]))


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
