"""The ``sandbox.terminal`` comm: an interactive shell for a terminal emulator (xterm.js in the
JupyterLab extension), documented in docs/comm-protocol.md.

The terminal sends keys as they are typed; the line discipline is here: a prompt, line editing
(cursor keys, Home/End, Backspace, Delete, Ctrl-A/E/U/K), history (Up/Down), Ctrl-C (drops the
line, or interrupts the running command), Ctrl-D (end of input; on an empty prompt it ends the
session). A submitted line runs in a shell of its own (``Sandbox.new_engine("sh")``: the
notebook's files, not its variables) through ``Sandbox.run``, so a command has the notebook's
limits (wall time, output) and never disturbs a running cell. ``TerminalSession`` is
transport-free; ``register_terminal_comm`` binds it to an ipykernel CommManager.

With ``"shell": "vm"`` in the open data the comm is a ``VmTerminalSession`` instead: a login
shell on a pseudo-terminal in the notebook's VM (``open_terminal`` of the VM engine, known
here only as ``engine.Terminal``): keys pass through raw, the guest's line discipline edits.
"""
from __future__ import annotations

import asyncio
import codecs
import re
from collections import deque
from typing import Any, Callable

from ..engine import CancelToken, Streams, Terminal, TerminalError
from ..memory import give_back
from ..sandbox import EngineUnavailable, Sandbox

TARGET_NAME = "sandbox.terminal"
PROTOCOL_VERSION = 2
SHELLS = ("sh", "vm")
HISTORY_LINES = 1000
#: a line longer than this is cut (what a paste of a whole file into the prompt gets)
MAX_LINE = 64 * 1024
#: keys waiting while a command runs (typeahead) beyond this are dropped
MAX_TYPEAHEAD = 64 * 1024
HOME = "/home/user"
#: one key: an escape sequence (CSI with parameters, SS3, or ESC + char) or one character
KEY = re.compile(r"\x1b\[[0-9;?]*[@-~]|\x1bO.|\x1b.|[\s\S]", re.S)
#: an escape sequence that may still be arriving (the rest comes in the next message)
PARTIAL_ESCAPE = re.compile(r"\x1b(\[[0-9;?]*|O)?\Z")
EXIT_LINE = re.compile(r"\s*(exit|logout)(\s+[0-9]+)?\s*\Z")
#: guest output goes out at most OUTPUT_CHUNK characters per OUTPUT_TICK seconds; beyond
#: MAX_PENDING_OUTPUT waiting (a `yes` in the VM) it is dropped, with a notice
OUTPUT_TICK = 0.01
OUTPUT_CHUNK = 64 * 1024
MAX_PENDING_OUTPUT = 1 << 20
PROGRESS_TICK = 1.0


class LineEditor:
    """The line being typed and its cursor; every edit returns the terminal output that shows it."""

    def __init__(self, prompt: str = "", echo: bool = True) -> None:
        self.prompt = prompt
        self.echo = echo
        self.text = ""
        self.cursor = 0

    def redraw(self) -> str:
        if not self.echo:
            return ""
        back = len(self.text) - self.cursor
        return "\r" + self.prompt + self.text + "\x1b[K" + (f"\x1b[{back}D" if back else "")

    def insert(self, chars: str) -> str:
        chars = chars[:MAX_LINE - len(self.text)]
        self.text = self.text[:self.cursor] + chars + self.text[self.cursor:]
        self.cursor += len(chars)
        if self.echo and self.cursor == len(self.text):
            return chars  # typing at the end: no redraw
        return self.redraw()

    def replace(self, text: str) -> str:
        self.text, self.cursor = text[:MAX_LINE], min(len(text), MAX_LINE)
        return self.redraw()

    def key(self, key: str) -> str:
        """Apply an editing key; '' when the key is not an editing key or changes nothing."""
        text, at = self.text, self.cursor
        if key in ("\x7f", "\b") and at:
            self.text, self.cursor = text[:at - 1] + text[at:], at - 1
        elif key == "\x1b[3~" and at < len(text):
            self.text = text[:at] + text[at + 1:]
        elif key == "\x1b[D" and at:
            self.cursor -= 1
        elif key == "\x1b[C" and at < len(text):
            self.cursor += 1
        elif key in ("\x01", "\x1b[H", "\x1bOH", "\x1b[1~"):
            self.cursor = 0
        elif key in ("\x05", "\x1b[F", "\x1bOF", "\x1b[4~"):
            self.cursor = len(text)
        elif key == "\x15":
            self.text, self.cursor = text[at:], 0
        elif key == "\x0b":
            self.text = text[:at]
        else:
            return ""
        return self.redraw()


class TerminalOutput:
    """An OutputSink that sends UTF-8 text to the terminal, newlines as CR LF (any thread)."""

    screen = "terminal"

    def __init__(self, session: "TerminalSession") -> None:
        self.session = session
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def write(self, data: bytes) -> None:
        text = self.decoder.decode(bytes(data))
        if text:
            self.session.output_threadsafe(text.replace("\r\n", "\n").replace("\n", "\r\n"))


class TerminalSession:
    """One terminal: keys in through ``feed``, output out through ``send(message)``."""

    def __init__(self, sandbox: Sandbox, send: Callable[[dict], None], cols: int = 80, rows: int = 24) -> None:
        self.sandbox = sandbox
        self.send = send
        self.cols, self.rows = cols, rows
        self.size_changed = True
        self.shell: Any = None
        self.history: deque[str] = deque(maxlen=HISTORY_LINES)
        self.history_at = 0  # index into history while browsing with Up/Down; len = the new line
        self.draft = ""
        self.editor = LineEditor()
        self.pending = ""  # the start of an escape sequence cut by the transport
        self.typeahead: deque[str] = deque()  # lines typed while a command ran (no read waiting)
        self.task: asyncio.Task | None = None
        self.cancel: CancelToken | None = None
        self.reading: asyncio.Future | None = None  # a command's `read` waiting for a line
        self.closed = False
        self.loop: asyncio.AbstractEventLoop | None = None

    # ----------------------------------------------------------------- output
    def output(self, text: str) -> None:
        if text and not self.closed:
            self.send({"type": "output", "data": text})

    def output_threadsafe(self, text: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if asyncio.get_running_loop() is loop:
                self.output(text)
                return
        except RuntimeError:
            pass
        loop.call_soon_threadsafe(self.output, text)

    def prompt_text(self) -> str:
        cwd = self.shell.cwd() if self.shell is not None else "/workspace"
        if cwd == HOME or cwd.startswith(HOME + "/"):
            cwd = "~" + cwd[len(HOME):]
        return f"\x1b[1;32muser@sandbox\x1b[0m:\x1b[1;34m{cwd}\x1b[0m$ "

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        try:
            self.shell = self.sandbox.new_engine("sh")
        except EngineUnavailable as e:
            self.output(f"sandbox terminal: {e}\r\n")
            self.finish(1)
            return
        self.show_prompt()

    def show_prompt(self) -> None:
        self.editor = LineEditor(self.prompt_text())
        self.history_at = len(self.history)
        self.output(self.editor.redraw())

    def resize(self, cols: Any, rows: Any) -> None:
        if isinstance(cols, int) and isinstance(rows, int) and 1 <= cols <= 10_000 and 1 <= rows <= 10_000:
            self.cols, self.rows = cols, rows
            self.size_changed = True

    def finish(self, status: int) -> None:
        """End the session (exit, Ctrl-D, or the client closed): the running command stops."""
        if not self.closed:
            self.send({"type": "exit", "status": status})
            self.close()

    def close(self) -> None:
        """Nothing more goes out; the running command stops, a waiting read gets end of input;
        once no command runs, the shell is let go (``release``)."""
        self.closed = True
        if self.cancel is not None:
            self.cancel.set("interrupt")
        if self.reading is not None and not self.reading.done():
            self.reading.set_result(None)
        if self.task is None:
            self.release()

    def release(self) -> None:
        """Keep nothing of the ended session: the shell (its variables count in the kernel's one
        shell_memory_bytes until it is collected), its background jobs, history, typeahead."""
        shell, self.shell = self.shell, None
        self.history.clear()
        self.typeahead.clear()
        self.editor = LineEditor()
        self.draft = self.pending = ""
        if shell is not None:
            asyncio.ensure_future(self.shutdown(shell))

    @staticmethod
    async def shutdown(shell: Any) -> None:
        await shell.shutdown()  # its background jobs end and let go of it
        del shell  # the last reference: what it held is freed before it is given back
        give_back()

    # ----------------------------------------------------------------- keys
    def feed(self, data: str) -> None:
        data = self.pending + data
        self.pending = ""
        partial = PARTIAL_ESCAPE.search(data)
        if partial and partial.start() > len(data) - 16:
            data, self.pending = data[:partial.start()], data[partial.start():]
        run = []  # printable characters are inserted together
        for key in KEY.findall(data):
            if self.closed:
                return
            if key >= " " and key != "\x7f" and not key.startswith("\x1b"):
                run.append(key)
                continue
            if run:
                self.output(self.editor.insert("".join(run)))
                run = []
            self.key(key)
        if run and not self.closed:
            self.output(self.editor.insert("".join(run)))

    def key(self, key: str) -> None:
        editor = self.editor
        if key in ("\r", "\n"):
            self.enter()
        elif key == "\x03":
            self.interrupt()
        elif key == "\x04":
            if editor.text:
                self.output(editor.key("\x1b[3~"))
            elif self.reading is not None:
                self.output("\r\n")
                self.answer(None)
            elif self.task is None:
                self.output("exit\r\n")
                self.finish(0)
        elif key in ("\x1b[A", "\x1b[B") and self.task is None:
            self.browse_history(-1 if key == "\x1b[A" else 1)
        elif key == "\x0c" and self.task is None:
            self.output("\x1b[H\x1b[2J" + editor.redraw())
        elif key == "\t":
            self.output(editor.insert("    "[:4 - editor.cursor % 4]))
        else:
            self.output(editor.key(key))

    def browse_history(self, step: int) -> None:
        target = self.history_at + step
        if not 0 <= target <= len(self.history):
            return
        if self.history_at == len(self.history):
            self.draft = self.editor.text
        self.history_at = target
        self.output(self.editor.replace(self.history[target] if target < len(self.history) else self.draft))

    def enter(self) -> None:
        line = self.editor.text
        self.output("\r\n")
        if self.reading is not None:
            self.answer(line)
        elif self.task is not None:
            if sum(len(t) for t in self.typeahead) < MAX_TYPEAHEAD:
                self.typeahead.append(line)
            self.editor = LineEditor()
        else:
            self.submit(line)

    def interrupt(self) -> None:
        self.output("^C\r\n")
        if self.task is not None:
            self.typeahead.clear()
            if self.cancel is not None:
                self.cancel.set("interrupt")
            if self.reading is not None:
                self.answer(None)
            self.editor = LineEditor()
        else:
            self.show_prompt()

    def answer(self, line: str | None) -> None:
        reading, self.reading = self.reading, None
        self.editor = LineEditor()
        if reading is not None and not reading.done():
            reading.set_result(line)

    # ----------------------------------------------------------------- commands
    def submit(self, line: str) -> None:
        if line.strip() and (not self.history or self.history[-1] != line):
            self.history.append(line)
        if EXIT_LINE.match(line):
            status = line.split()[1:]
            self.finish(int(status[0]) % 256 if status else 0)
            return
        if not line.strip():
            self.show_prompt()
            return
        self.cancel = CancelToken()
        self.editor = LineEditor()
        self.task = asyncio.ensure_future(self.run(line, self.cancel))

    async def read_line(self, prompt: str, password: bool = False) -> str | None:
        """``Streams.input`` of a command: the next line typed (typeahead first)."""
        if self.typeahead:
            return self.typeahead.popleft()
        if self.closed:
            return None
        self.editor = LineEditor(prompt, echo=not password)
        self.output(prompt)
        self.reading = asyncio.get_running_loop().create_future()
        return await self.reading

    async def run(self, line: str, cancel: CancelToken) -> None:
        out = TerminalOutput(self)
        streams = Streams(out, out, cancel, self.read_line, None)
        try:
            if self.size_changed:  # bash's checkwinsize: the size in COLUMNS and LINES
                self.size_changed = False
                await self.sandbox.run("sh", f"COLUMNS={self.cols} LINES={self.rows}",
                                       Streams(out, out, CancelToken()), engine=self.shell)
            await self.sandbox.run("sh", line, streams, engine=self.shell)
        except Exception as e:  # a bug must not end the terminal
            self.output(f"sandbox terminal: internal error: {type(e).__name__}: {e}\r\n")
        finally:
            self.task = None
            self.cancel = None
            self.reading = None
        if self.closed:
            self.release()
            return
        waiting = list(self.typeahead)
        self.typeahead.clear()
        self.show_prompt()
        if waiting:  # lines typed meanwhile run next, as in a terminal
            self.typeahead.extend(waiting[1:])
            self.output(self.editor.insert(waiting[0]))
            self.enter()


class VmTerminalSession:
    """A VM terminal: a login shell in the notebook's VM on a pty, keys in raw through ``feed``,
    output out through ``send(message)``. Set-up progress is shown in place while the VM starts."""

    def __init__(self, sandbox: Sandbox, send: Callable[[dict], None], cols: int = 80, rows: int = 24) -> None:
        self.sandbox = sandbox
        self.send = send
        self.cols, self.rows = cols, rows
        self.shell: Terminal | None = None
        self.task: asyncio.Task | None = None    # opens the shell, then waits for its end
        self.closing: asyncio.Task | None = None
        self.typeahead = bytearray()             # keys typed while the VM starts
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.pending: list[str] = []
        self.pending_size = 0
        self.dropped = 0
        self.flush_handle: asyncio.TimerHandle | None = None
        self.progress_line = ""                  # the set-up step shown in place (until the shell runs)
        self.started = 0.0
        self.closed = False

    # ----------------------------------------------------------------- output
    def output(self, text: str) -> None:
        if text and not self.closed:
            self.send({"type": "output", "data": text})

    def guest_output(self, data: bytes) -> None:
        text = self.decoder.decode(bytes(data))
        if not text or self.closed:
            return
        if self.pending_size + len(text) > MAX_PENDING_OUTPUT:
            self.dropped += len(text)
        else:
            self.pending.append(text)
            self.pending_size += len(text)
        if self.flush_handle is None:
            self.flush_handle = asyncio.get_running_loop().call_later(OUTPUT_TICK, self.flush)

    def flush(self, everything: bool = False) -> None:
        if self.flush_handle is not None:
            self.flush_handle.cancel()
            self.flush_handle = None
        text = "".join(self.pending)
        chunk, rest = (text, "") if everything else (text[:OUTPUT_CHUNK], text[OUTPUT_CHUNK:])
        self.pending, self.pending_size = ([rest] if rest else []), len(rest)
        if self.dropped and not rest:
            chunk += (f"\r\n\x1b[2m[sandbox: {self.dropped} characters of output dropped: more than the "
                      "terminal shows]\x1b[0m\r\n")
            self.dropped = 0
        self.output(chunk)
        if rest:
            self.flush_handle = asyncio.get_running_loop().call_later(OUTPUT_TICK, self.flush)

    def progress(self, line: str) -> None:
        """A set-up step (in place of the one shown) or, once the shell runs, a note on its own line."""
        if self.shell is None:
            self.progress_line = line
            self.output(f"\r\x1b[K\x1b[2m{line}\x1b[0m")
        else:
            self.flush(everything=True)
            self.output(f"\r\n\x1b[2m{line}\x1b[0m\r\n")

    async def tick(self) -> None:
        """While a set-up step takes long (a full boot under TCG), show that time passes."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(PROGRESS_TICK)
            if self.progress_line:
                self.output(f"\r\x1b[K\x1b[2m{self.progress_line} ({loop.time() - self.started:.0f} s)\x1b[0m")

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> None:
        self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        self.started = asyncio.get_running_loop().time()
        ticker = asyncio.ensure_future(self.tick())
        try:
            engine = self.sandbox.engine("vm")
            open_terminal = getattr(engine, "open_terminal")
            self.progress("vm: preparing the VM...")
            shell = await open_terminal(self.rows, self.cols, self.guest_output, self.progress)
        except (EngineUnavailable, TerminalError) as e:
            self.output(f"\r\n\x1b[1;31msandbox VM terminal: {e}\x1b[0m\r\n")
            self.finish(1)
            return
        except Exception as e:  # a bug must not end the terminal
            self.output(f"\r\nsandbox VM terminal: internal error: {type(e).__name__}: {e}\r\n")
            self.finish(1)
            return
        finally:
            ticker.cancel()
            self.progress_line = ""
        self.output("\r\n")
        self.shell = shell
        if self.closed:  # the tab closed while the VM started
            await shell.close()
            return
        await shell.resize(self.rows, self.cols)  # the size may have changed meanwhile
        if self.typeahead:
            shell.write(bytes(self.typeahead))
            self.typeahead.clear()
        self.finish(await shell.wait())

    def feed(self, data: str) -> None:
        raw = data.encode("utf-8", "surrogateescape")
        if self.shell is not None:
            self.shell.write(raw)
        elif len(self.typeahead) + len(raw) <= MAX_TYPEAHEAD:
            self.typeahead += raw

    def resize(self, cols: Any, rows: Any) -> None:
        if isinstance(cols, int) and isinstance(rows, int) and 1 <= cols <= 10_000 and 1 <= rows <= 10_000:
            self.cols, self.rows = cols, rows
            if self.shell is not None:
                asyncio.ensure_future(self.shell.resize(rows, cols))

    def finish(self, status: int) -> None:
        if not self.closed:
            self.flush(everything=True)
            self.send({"type": "exit", "status": status})
            self.close()

    def close(self) -> None:
        """Nothing more goes out; the guest shell and all it started end (once it is open)."""
        self.closed = True
        if self.flush_handle is not None:
            self.flush_handle.cancel()
            self.flush_handle = None
        if self.shell is not None and self.closing is None:
            self.closing = asyncio.ensure_future(self.shell.close())


def register_terminal_comm(comm_manager, get_sandbox: Callable[[], Sandbox]) -> None:
    """Register ``sandbox.terminal`` on an ipykernel CommManager. At most the policy's
    ``max_terminals`` are open at once (each is a shell in the kernel's one memory budget);
    a closed one keeps nothing (its handlers and its shell are let go)."""
    sessions: set[TerminalSession | VmTerminalSession] = set()

    def refuse(comm, text: str, status: int) -> None:
        comm.send({"type": "output", "data": f"\x1b[1;31msandbox terminal: {text}\x1b[0m\r\n"})
        comm.send({"type": "exit", "status": status})
        comm.close()

    def on_open(comm, open_msg) -> None:
        content = open_msg.get("content") if isinstance(open_msg, dict) else None
        data = content.get("data") if isinstance(content, dict) else None
        data = data if isinstance(data, dict) else {}
        shell = data.get("shell", "sh")
        if shell not in SHELLS:
            refuse(comm, f"unknown shell {str(shell)[:40]!r} (sh, vm)", 2)
            return
        sandbox = get_sandbox()
        most = sandbox.policy.max_terminals
        if len(sessions) >= most:
            refuse(comm, f"{len(sessions)} terminals are open, the most this kernel allows ({most}; the admin "
                         "sets it with install --max-terminals); close one and open this one again", 1)
            return

        def send(message: dict) -> None:
            comm.send(message)
            if message.get("type") == "exit":  # the shell ended: so does the terminal
                forget(None)
                comm.close()

        kind = VmTerminalSession if shell == "vm" else TerminalSession
        session: TerminalSession | VmTerminalSession = kind(sandbox, send)
        session.resize(data.get("cols"), data.get("rows"))
        sessions.add(session)

        def on_msg(msg) -> None:
            content = msg.get("content") if isinstance(msg, dict) else None
            request = content.get("data") if isinstance(content, dict) else None
            if not isinstance(request, dict):
                return
            kind = request.get("type")
            if kind == "input" and isinstance(request.get("data"), str):
                session.feed(request["data"][:MAX_TYPEAHEAD])
            elif kind == "resize":
                session.resize(request.get("cols"), request.get("rows"))

        def forget(msg) -> None:
            session.close()
            sessions.discard(session)
            comm.on_msg(None)  # the comm's handlers hold the session: let go of both
            comm.on_close(None)

        comm.on_msg(on_msg)
        comm.on_close(forget)
        comm.send({"event": "open", "protocol_version": PROTOCOL_VERSION, "target": TARGET_NAME, "shell": shell})
        session.start()

    comm_manager.register_target(TARGET_NAME, on_open)
