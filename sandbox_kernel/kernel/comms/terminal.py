"""The ``sandbox.terminal`` comm: an interactive shell for a terminal emulator (xterm.js in the
JupyterLab extension), documented in docs/comm-protocol.md.

The terminal sends keys as they are typed; the line discipline is here, readline's as a bash
user's fingers expect it: the line editor (``lineedit.LineEditor``: cursor and word motions,
kills and yank), history (Up/Down, Ctrl-R reverse incremental search, Alt-. the last word, ``!!``
and the rest of bash's history expansion), Tab completion from the kernel's completer, a command
of several lines gathered under the ``$PS2`` prompt until the parser says it is complete,
bracketed paste (a paste is inserted whole; Enter runs it), Ctrl-C (drops the line, or interrupts
the running command), Ctrl-D (end of input; on an empty prompt it ends the session). A command
runs in a shell of its own (``Sandbox.new_engine("sh")``: the notebook's files, not its
variables; it starts with the notebook's history) through ``Sandbox.run``, so a command has the
notebook's limits (wall time, output) and never disturbs a running cell. ``TerminalSession`` is
transport-free; ``register_terminal_comm`` binds it to an ipykernel CommManager.

With ``"shell": "vm"`` in the open data the comm is a ``VmTerminalSession`` instead: a login
shell on a pseudo-terminal in the notebook's VM (``open_terminal`` of the VM engine, known
here only as ``engine.Terminal``): keys pass through raw, the guest's line discipline edits.
"""
from __future__ import annotations

import asyncio
import codecs
import os
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ...engine import CancelToken, Streams, Terminal, TerminalError
from ...memory import give_back
from ...sandbox import EngineUnavailable, Sandbox
from ...shell.complete import Completer, completion_suffix, listed_name
from ...shell.histexpand import HistoryError, split_words
from .lineedit import MAX_LINE, LineEditor, shown

__all__ = ["LineEditor", "MAX_LINE", "TerminalSession", "VmTerminalSession", "register_terminal_comm"]

TARGET_NAME = "sandbox.terminal"
PROTOCOL_VERSION = 2
SHELLS = ("sh", "vm")
#: a command of several lines (PS2) holds at most this many lines and characters ...
MAX_COMMAND_LINES = 1000
MAX_COMMAND = MAX_LINE
#: ... and its completeness, checked again at each line, parses at most this many characters
#: in all (a command typed line by line costs the square of its size; a paste is one line)
MAX_COMMAND_PARSE = 1024 * 1024
#: keys waiting while a command runs (typeahead) beyond this are dropped
MAX_TYPEAHEAD = 64 * 1024
#: a $PS2 longer than this is cut
MAX_PROMPT = 1024
#: more completions than this are listed only after "Display all N possibilities? (y or n)"
COMPLETION_QUERY_ITEMS = 100
#: a lone ESC ends a reverse search when no key follows within this time (readline's
#: keyseq-timeout); ESC then a key within it is that key with Alt (ESC b is Alt-B)
ESC_TIMEOUT = 0.5
HOME = "/home/user"
#: one key: an escape sequence (CSI with parameters, SS3, or ESC + char) or one character
KEY = re.compile(r"\x1b\[[0-9;?]*[@-~]|\x1bO.|\x1b\x1b\[[0-9;?]*[@-~]|\x1b.|[\s\S]", re.S)
#: an escape sequence that may still be arriving (the rest comes in the next message)
PARTIAL_ESCAPE = re.compile(r"\x1b(\x1b?\[[0-9;?]*|O|\x1b)?\Z")
EXIT_LINE = re.compile(r"\s*(exit|logout)(\s+[0-9]+)?\s*\Z")
#: bracketed paste (xterm's mode 2004): on while the shell reads a command, as bash sets it
PASTE_ON, PASTE_OFF = "\x1b[?2004h", "\x1b[?2004l"
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
BELL = "\a"
#: guest output goes out at most OUTPUT_CHUNK characters per OUTPUT_TICK seconds; beyond
#: MAX_PENDING_OUTPUT waiting (a `yes` in the VM) it is dropped, with a notice
OUTPUT_TICK = 0.01
OUTPUT_CHUNK = 64 * 1024
MAX_PENDING_OUTPUT = 1 << 20
PROGRESS_TICK = 1.0


def crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def recalled(entry: str) -> str:
    """A history entry as it comes back into the line (a here-document's ends with its newline)."""
    return entry[:-1] if entry.endswith("\n") else entry


@dataclass
class Search:
    """A reverse incremental search (Ctrl-R): what is typed, the entry found and where."""

    prompt: str              # the line's prompt (the search shows its own meanwhile)
    original: str            # the line before the search (Ctrl-G brings it back)
    original_cursor: int
    index: int               # the entry shown (len(history): the original line)
    at: int                  # where the match starts in it
    direction: int = -1      # -1: reverse (Ctrl-R), 1: forward (Ctrl-S)
    query: str = ""
    failed: bool = False
    #: (query, index, at, failed) before each character typed: Backspace goes back
    stack: list[tuple[str, int, int, bool]] = field(default_factory=list)


class TerminalOutput:
    """An OutputSink that sends UTF-8 text to the terminal, newlines as CR LF (any thread)."""

    screen = "terminal"

    def __init__(self, session: "TerminalSession") -> None:
        self.session = session
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def write(self, data: bytes) -> None:
        text = self.decoder.decode(bytes(data))
        if text:
            self.session.output_threadsafe(crlf(text))


class TerminalSession:
    """One terminal: keys in through ``feed``, output out through ``send(message)``."""

    def __init__(self, sandbox: Sandbox, send: Callable[[dict], None], cols: int = 80, rows: int = 24) -> None:
        self.sandbox = sandbox
        self.send = send
        self.cols, self.rows = cols, rows
        self.size_changed = True
        self.shell: Any = None
        self.history_at = 0  # index into the history while browsing with Up/Down; len = the new line
        self.draft = ""
        self.editor = LineEditor()
        self.lines: list[str] = []  # the lines of a command not complete yet (read under PS2)
        self.parsed = 0  # characters parsed to check the command's completeness (MAX_COMMAND_PARSE)
        self.search: Search | None = None
        self.last_search = ""
        self.tabbed = False  # the last key was a Tab that left several matches: the next lists them
        self.asking: list[str] | None = None  # "Display all N possibilities?" waits for y or n
        self.quoted = False  # Ctrl-V: the next key goes in as it is
        self.last_arg: tuple[int, int] | None = None  # Alt-. in a row: (history index, length inserted)
        self.pending = ""  # the start of an escape sequence cut by the transport
        self.tail = ""  # a command's output after its last newline: the next line starts after it
        self.escape_timer: asyncio.TimerHandle | None = None
        self.typeahead: deque[str] = deque()  # lines typed while a command ran (no read waiting)
        #: the keys of the line being typed while a command runs: typed again at the prompt
        #: (a Tab then completes, as readline reads them from the terminal after the command)
        self.ahead = ""
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
        """A command's output (from any thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if asyncio.get_running_loop() is loop:
                self.command_output(text)
                return
        except RuntimeError:
            pass
        loop.call_soon_threadsafe(self.command_output, text)

    def command_output(self, text: str) -> None:
        """A command's output, and what of it is on the cursor's row: the next prompt (or a
        `read`'s line) goes on after it, as in bash, rather than over it."""
        self.output(text)
        tail = text.rsplit("\n", 1)[-1].rsplit("\r", 1)[-1]
        self.tail = tail if ("\n" in text or "\r" in text) else self.tail + tail
        if len(self.tail) > MAX_PROMPT:  # too long to draw again with each key: a row of its own
            self.output("\r\n")
            self.tail = ""

    def prompt_text(self) -> str:
        cwd = self.shell.cwd() if self.shell is not None else "/workspace"
        if cwd == HOME or cwd.startswith(HOME + "/"):
            cwd = "~" + cwd[len(HOME):]
        return f"\x1b[1;32muser@sandbox\x1b[0m:\x1b[1;34m{cwd}\x1b[0m$ "

    def continuation_prompt(self) -> str:
        """``$PS2`` with its escapes (bash's default ``> ``; unset: none)."""
        try:
            prompt = self.shell.prompt("PS2") if self.shell is not None else "> "
        except Exception:  # noqa: BLE001 - a prompt must never break the terminal
            prompt = "> "
        return (prompt or "")[:MAX_PROMPT]

    def at_prompt(self) -> bool:
        """The shell is reading a command (no command runs, no `read` waits)."""
        return self.task is None and self.reading is None and not self.closed

    def history(self) -> list[str]:
        return self.shell.history() if self.shell is not None else []

    def new_editor(self, prompt: str = "", echo: bool = True) -> LineEditor:
        prompt, self.tail = self.tail + prompt, ""  # (drawn again with the line: it is on its row)
        editor = LineEditor(prompt, echo, self.cols)
        editor.killed = self.editor.killed  # Ctrl-Y yanks what was killed on an earlier line
        self.editor = editor
        return editor

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        try:
            self.shell = self.sandbox.new_engine("sh")
        except EngineUnavailable as e:
            self.output(f"sandbox terminal: {e}\r\n")
            self.finish(1)
            return
        try:
            self.shell.set_option("histexpand", True)  # as in an interactive bash: !! and the rest
            notebook = self.sandbox.engines.get("sh")
            if notebook is not None and hasattr(notebook, "history"):
                self.shell.inherit_history(notebook)
        except Exception:  # noqa: BLE001 - another shell engine: no history to share
            pass
        self.show_prompt()

    def show_prompt(self, continued: bool = False) -> None:
        """A new line to edit under PS1, or under PS2 (``continued``: the command goes on)."""
        self.search = None
        self.tabbed = False
        self.asking = None
        self.new_editor(self.continuation_prompt() if continued else self.prompt_text())
        self.history_at = len(self.history())
        self.output(PASTE_ON + self.editor.redraw())

    def resize(self, cols: Any, rows: Any) -> None:
        if isinstance(cols, int) and isinstance(rows, int) and 1 <= cols <= 10_000 and 1 <= rows <= 10_000:
            self.cols, self.rows = cols, rows
            self.editor.cols = cols
            self.size_changed = True

    def finish(self, status: int) -> None:
        """End the session (exit, Ctrl-D, or the client closed): the running command stops."""
        if not self.closed:
            self.output(PASTE_OFF)
            self.send({"type": "exit", "status": status})
            self.close()

    def close(self) -> None:
        """Nothing more goes out; the running command stops, a waiting read gets end of input;
        once no command runs, the shell is let go (``release``)."""
        self.closed = True
        if self.escape_timer is not None:
            self.escape_timer.cancel()
            self.escape_timer = None
        if self.cancel is not None:
            self.cancel.set("interrupt")
        if self.reading is not None and not self.reading.done():
            self.reading.set_result(None)
        if self.task is None:
            self.release()

    def release(self) -> None:
        """Keep nothing of the ended session: the shell (its variables and history count in the
        kernel's one shell_memory_bytes until it is collected), its background jobs, typeahead."""
        shell, self.shell = self.shell, None
        self.typeahead.clear()
        self.ahead = ""
        self.editor = LineEditor()
        self.lines = []
        self.search = None
        self.asking = None
        self.draft = self.pending = self.last_search = ""
        if shell is not None:
            asyncio.ensure_future(self.shutdown(shell))

    @staticmethod
    async def shutdown(shell: Any) -> None:
        await shell.shutdown()  # its background jobs end and let go of it
        del shell  # the last reference: what it held is freed before it is given back
        give_back()

    # ----------------------------------------------------------------- keys
    def feed(self, data: str) -> None:
        if self.escape_timer is not None:
            self.escape_timer.cancel()
            self.escape_timer = None
        data = self.pending + data
        self.pending = ""
        partial = PARTIAL_ESCAPE.search(data)
        if partial and partial.start() > len(data) - 16:
            data, self.pending = data[:partial.start()], data[partial.start():]
        run: list[str] = []  # printable characters are inserted together
        i = 0
        while i < len(data) and not self.closed:
            match = KEY.match(data, i)
            assert match is not None  # KEY matches any character
            key, i = match.group(), match.end()
            if key == PASTE_START:  # the whole paste is in this message (xterm sends it at once)
                end = data.find(PASTE_END, i)
                end = len(data) if end < 0 else end
                self.typed(run)
                self.paste(data[i:end])
                i = end + len(PASTE_END)
            elif key >= " " and key != "\x7f" and not key.startswith("\x1b") and not self.quoted:
                run.append(key)
            else:
                self.typed(run)
                self.key(key)
        self.typed(run)
        if self.pending == "\x1b" and self.search is not None and self.loop is not None and not self.closed:
            self.escape_timer = self.loop.call_later(ESC_TIMEOUT, self.lone_escape)

    def lone_escape(self) -> None:
        """ESC and nothing after it (within ESC_TIMEOUT): the Escape key itself."""
        self.escape_timer = None
        if self.pending == "\x1b" and not self.closed:
            self.pending = ""
            self.key("\x1b")

    def typed(self, run: list[str]) -> None:
        """Printable characters typed (``run`` is emptied)."""
        if not run or self.closed:
            return
        chars = "".join(run)
        run.clear()
        self.typed_ahead(chars)
        if self.asking is not None or self.search is not None:
            for char in chars:
                self.key(char)
            return
        self.tabbed = False
        self.last_arg = None
        self.output(self.editor.insert(chars))

    def paste(self, text: str) -> None:
        """A bracketed paste: at the prompt it goes into the line as it is, newlines too (Enter
        runs it, as in bash 5.1); elsewhere (a `read`, typeahead) it is typed."""
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        text = "".join(c for c in text if c in "\n\t" or (c >= " " and c != "\x7f"))
        if self.search is not None:
            self.end_search()
        self.asking = None
        if self.at_prompt():
            self.output(self.editor.insert(text[:-1] if text.endswith("\n") else text))
            return
        lines = text.split("\n")
        for k, line in enumerate(lines):
            if self.closed:
                return
            self.typed([line])
            if k < len(lines) - 1:
                self.key("\r")

    def typed_ahead(self, keys: str) -> None:
        if self.task is not None and self.reading is None and len(self.ahead) < MAX_TYPEAHEAD:
            self.ahead = "" if keys in ("\r", "\n") else self.ahead + keys

    def key(self, key: str) -> None:
        self.typed_ahead(key)
        if self.quoted:  # Ctrl-V: this key goes in as it is (a tab, a control character)
            self.quoted = False
            self.output(self.editor.insert(key))
            return
        if self.asking is not None:
            self.answer_listing(key)
            return
        if self.search is not None and self.search_key(key):
            return
        prompt = self.at_prompt()
        editor = self.editor
        if key != "\t":
            self.tabbed = False
        if key != "\x1b.":
            self.last_arg = None
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
            elif self.task is None and self.lines:  # end of input inside a command: bash runs it,
                self.output(PASTE_OFF + editor.leave())  # and says what is missing
                command, self.lines = "\n".join(self.lines), []
                self.submit(command)
            elif self.task is None:
                self.output("exit\r\n")
                self.finish(0)
        elif key in ("\x1b[A", "\x1b[B", "\x10", "\x0e") and prompt:
            self.browse_history(-1 if key in ("\x1b[A", "\x10") else 1)
        elif key in ("\x1b<", "\x1b>") and prompt:
            self.browse_history(-len(self.history()) if key == "\x1b<" else len(self.history()))
        elif key == "\x0c" and self.task is None:
            editor.row = 0
            self.output("\x1b[H\x1b[2J" + editor.draw())
        elif key == "\t":
            if prompt:
                self.complete()
            else:
                self.output(editor.insert("\t"))
        elif key in ("\x12", "\x13") and prompt:
            self.start_search(-1 if key == "\x12" else 1)
        elif key == "\x1b." and prompt:
            self.yank_last_arg()
        elif key == "\x16":
            self.quoted = True
        else:
            self.output(editor.key(key))

    def browse_history(self, step: int) -> None:
        entries = self.history()
        self.history_at = min(self.history_at, len(entries))  # `history -c` may have emptied it
        target = max(0, min(self.history_at + step, len(entries)))
        if target == self.history_at:
            self.output(BELL)
            return
        if self.history_at == len(entries):
            self.draft = self.editor.text
        self.history_at = target
        self.output(self.editor.replace(recalled(entries[target]) if target < len(entries) else self.draft))

    def yank_last_arg(self) -> None:
        """Alt-.: the last word of the previous command; again: of the one before, in its place."""
        entries = self.history()
        index, length = self.last_arg if self.last_arg is not None else (len(entries), 0)
        if index <= 0:
            self.output(BELL)
            return
        editor = self.editor
        words = split_words(entries[index - 1])
        word = words[-1] if words else ""
        start = editor.cursor - length  # the word Alt-. put in before goes
        text = editor.text[:start] + word + editor.text[editor.cursor:]
        if len(text) > MAX_LINE:
            self.output(BELL)
            return
        self.output(editor.replace(text, start + len(word)))
        self.last_arg = (index - 1, len(word))

    # ----------------------------------------------------------------- Ctrl-R
    def start_search(self, direction: int) -> None:
        editor = self.editor
        self.history_at = min(self.history_at, len(self.history()))
        self.search = Search(editor.prompt, editor.text, editor.cursor, self.history_at, editor.cursor, direction)
        self.show_search()

    def show_search(self) -> None:
        search = self.search
        if search is None:
            return
        entries = self.history()
        editor = self.editor
        kind = ("failed " if search.failed else "") + ("reverse-" if search.direction < 0 else "")
        editor.prompt = f"({kind}i-search)`{search.query}': "
        text = recalled(entries[search.index]) if search.index < len(entries) else search.original
        self.output(editor.replace(text, search.at))

    def find(self, query: str, index: int, direction: int, at: int | None = None) -> tuple[int, int] | None:
        """The entry from ``index`` on (towards older entries for -1) that holds ``query``,
        and where (the last place in it, for a reverse search; at or before ``at`` in the first)."""
        entries = self.history()
        search = self.search
        while 0 <= index <= len(entries):
            text = entries[index] if index < len(entries) else (search.original if search else "")
            if direction < 0:
                found = text.rfind(query, 0, len(text) if at is None else at + len(query))
            else:
                found = text.find(query, 0 if at is None else at)
            if found >= 0:
                return index, found
            index += direction
            at = None
        return None

    def search_step(self, direction: int) -> None:
        """Ctrl-R (Ctrl-S) again: the next older (newer) match of the same text."""
        search = self.search
        assert search is not None
        if not search.query:
            search.query = self.last_search
        if not search.query:
            self.output(BELL)
            return
        found = self.find(search.query, search.index + direction, direction)
        if found is None:
            search.failed = True
            self.output(BELL)
        else:
            (search.index, search.at), search.failed = found, False
        self.show_search()

    def search_key(self, key: str) -> bool:
        """A key while searching; False when it ends the search and is then a key as usual."""
        search = self.search
        assert search is not None
        if key in ("\x12", "\x13"):
            search.direction = -1 if key == "\x12" else 1
            self.search_step(search.direction)
        elif key in ("\x7f", "\b"):
            if not search.stack:
                self.output(BELL)
                return True
            search.query, search.index, search.at, search.failed = search.stack.pop()
            self.show_search()
        elif key == "\x07":  # Ctrl-G: the search is abandoned, the line is as it was
            self.search = None
            self.editor.prompt = search.prompt
            self.output(BELL + self.editor.replace(search.original, search.original_cursor))
        elif key in ("\x1b", "\n"):  # ESC, Ctrl-J: the search ends, the match is there to edit
            self.end_search()
        elif len(key) == 1 and key >= " " and key != "\x7f" and len(search.query) < MAX_LINE:
            search.stack.append((search.query, search.index, search.at, search.failed))
            search.query += key
            if not search.failed:
                found = self.find(search.query, search.index, search.direction, search.at)
                if found is None:
                    search.failed = True
                    self.output(BELL)
                else:
                    search.index, search.at = found
            self.show_search()
        else:  # any other key (Enter, Ctrl-C, arrows, Ctrl-A/E ...): the search ends, the key acts
            self.end_search()
            return False
        return True

    def end_search(self) -> None:
        """The search ends: the entry found is the line, the cursor where it matched; Up/Down
        go on from that entry."""
        search, self.search = self.search, None
        if search is None:
            return
        if search.query:
            self.last_search = search.query
        entries = self.history()
        self.history_at = min(search.index, len(entries))
        self.editor.prompt = search.prompt
        self.output(self.editor.redraw())

    # ----------------------------------------------------------------- Tab
    def completer(self) -> Completer:
        """The kernel's completer (the notebook's Tab) over this terminal's shell."""
        shell = self.shell
        completer = getattr(shell, "completer", None)
        if completer is not None:
            return completer()
        return Completer(None, self.sandbox.fs, "/workspace", lambda name: None)

    def complete(self) -> None:
        """Tab: readline's complete. One match goes in (a space or "/" after it); several put
        in what they start with, and the next Tab lists them; none rings the bell."""
        editor = self.editor
        line, cursor = editor.text, editor.cursor
        try:
            start, matches = self.completer().complete(line, cursor)
        except Exception:  # noqa: BLE001 - completion must never break the terminal
            start, matches = cursor, []
        matches = sorted(set(matches))
        if not matches:
            self.output(BELL)
            return
        if len(matches) == 1:
            self.tabbed = False
            suffix = completion_suffix(matches[0])
            after = line[cursor:cursor + len(suffix)] == suffix != ""  # already there: go past it
            self.output(self.replace_word(start, matches[0] + ("" if after else suffix), len(suffix) if after else 0))
            return
        prefix = os.path.commonprefix(matches)
        if len(prefix) > cursor - start or prefix != line[start:cursor]:
            self.tabbed = True
            self.output(self.replace_word(start, prefix))
        elif self.tabbed:
            self.list_matches(matches)
        else:
            self.tabbed = True
            self.output(BELL)

    def replace_word(self, start: int, text: str, past: int = 0) -> str:
        """The word from ``start`` to the cursor replaced by ``text``, the cursor after it (and
        ``past`` characters further)."""
        editor = self.editor
        line, cursor = editor.text, editor.cursor
        if len(line) - (cursor - start) + len(text) > MAX_LINE:
            return BELL
        return editor.replace(line[:start] + text + line[cursor:], start + len(text) + past)

    def list_matches(self, matches: list[str]) -> None:
        if len(matches) > COMPLETION_QUERY_ITEMS:
            self.asking = matches
            self.output(self.editor.leave() + f"Display all {len(matches)} possibilities? (y or n)")
            return
        self.output(self.editor.leave() + self.columns(matches) + self.editor.draw())

    def answer_listing(self, key: str) -> None:
        matches, self.asking = self.asking, None
        assert matches is not None
        if key in ("y", "Y", " "):
            self.output("\r\n" + self.columns(matches) + self.editor.draw())
        elif key in ("n", "N", "\x7f", "\x07", "\x03"):
            self.output("\r\n" + self.editor.draw())
        else:
            self.asking = matches
            self.output(BELL)

    def columns(self, matches: list[str]) -> str:
        """The matches in columns as readline lists them (down, then across), each row ended."""
        names = [shown(listed_name(m)) for m in matches]
        width = max(w for _, w in names) + 2
        per_row = max(1, (self.cols + 2) // width)
        rows = -(-len(names) // per_row)
        out = []
        for r in range(rows):
            row = [names[r + c * rows] for c in range(per_row) if r + c * rows < len(names)]
            out.append("".join(text + " " * (width - w) for text, w in row[:-1]) + row[-1][0] + "\r\n")
        return "".join(out)

    # ----------------------------------------------------------------- Enter
    def enter(self) -> None:
        line = self.editor.text
        if self.reading is not None:
            self.output(self.editor.leave())
            self.answer(line)
        elif self.task is not None:
            self.output("\r\n")
            if sum(len(t) for t in self.typeahead) < MAX_TYPEAHEAD:
                self.typeahead.append(line)
            self.new_editor()
        elif not self.closed:
            self.output(PASTE_OFF + self.editor.leave())  # bash turns bracketed paste off as it reads the line
            self.accept(line)

    def accept(self, line: str) -> None:
        """A line typed at the shell's prompt (PS1 or PS2): history-expanded, added to the
        command; a complete command runs, an incomplete one reads on under PS2."""
        try:
            expanded, print_only = self.shell.expand_history(line)
        except HistoryError as e:  # as bash: the message, and the whole command is dropped
            self.output(f"bash: {crlf(e.message)}\r\n")
            self.drop_command()
            return
        except Exception:  # noqa: BLE001 - another shell engine: no history expansion
            expanded, print_only = line, False
        if expanded != line:
            self.output(crlf(expanded) + "\r\n")  # bash shows what it runs
        if print_only:  # !!:p - shown and recorded, not run
            self.shell.add_history(expanded)
            self.drop_command()
            return
        self.lines.extend(expanded.split("\n"))
        command = "\n".join(self.lines)
        if not command.strip():
            self.drop_command()
            return
        self.parsed += len(command)
        if len(self.lines) > MAX_COMMAND_LINES or len(command) > MAX_COMMAND or self.parsed > MAX_COMMAND_PARSE:
            self.output(f"\x1b[1;31msandbox terminal: command too long ({len(self.lines)} lines, {len(command)} "
                        "characters so far): dropped. Paste it whole (a paste goes in at once) or save it in a file "
                        f"and run bash FILE\x1b[0m\r\n")
            self.drop_command()
            return
        try:
            status, _ = self.shell.is_complete(command + "\n")
        except Exception:  # noqa: BLE001 - let the shell say what is wrong with it
            status = "invalid"
        if status == "incomplete":
            self.show_prompt(continued=True)
            return
        self.lines, self.parsed = [], 0
        self.submit(command)

    def drop_command(self) -> None:
        self.lines, self.parsed = [], 0
        self.show_prompt()

    def interrupt(self) -> None:
        if self.task is not None:
            self.output("^C\r\n")
            self.typeahead.clear()
            self.ahead = ""
            if self.cancel is not None:
                self.cancel.set("interrupt")
            if self.reading is not None:
                self.answer(None)
            self.new_editor()
            return
        # at the prompt (PS1 or PS2, searching or not): the line and the command are dropped, $? is 130
        self.search = None
        self.output(self.editor.leave("^C"))
        if self.shell is not None:
            self.shell.set_status(130)
        self.drop_command()

    def answer(self, line: str | None) -> None:
        reading, self.reading = self.reading, None
        self.new_editor()
        if reading is not None and not reading.done():
            reading.set_result(line)

    # ----------------------------------------------------------------- commands
    def submit(self, command: str) -> None:
        self.shell.add_history(command)  # one entry for the command, as the notebook's cells
        if EXIT_LINE.match(command):
            status = command.split()[1:]
            self.finish(int(status[0]) % 256 if status else 0)
            return
        if not command.strip():
            self.show_prompt()
            return
        self.cancel = CancelToken()
        self.new_editor()
        self.task = asyncio.ensure_future(self.run(command, self.cancel))

    async def read_line(self, prompt: str, password: bool = False) -> str | None:
        """``Streams.input`` of a command: the next line typed (typeahead first)."""
        if self.typeahead:
            return self.typeahead.popleft()
        if self.closed:
            return None
        partial, self.ahead = self.editor.text, ""  # typed before the read began: its start
        self.output(crlf(prompt))
        self.output(self.new_editor(prompt, echo=not password).insert(partial))
        self.reading = asyncio.get_running_loop().create_future()
        return await self.reading

    async def run(self, command: str, cancel: CancelToken) -> None:
        out = TerminalOutput(self)
        streams = Streams(out, out, cancel, self.read_line, None)
        try:
            if self.size_changed:  # bash's checkwinsize: the size in COLUMNS and LINES
                self.size_changed = False
                await self.sandbox.run("sh", f"COLUMNS={self.cols} LINES={self.rows}",
                                       Streams(out, out, CancelToken()), engine=self.shell)
            await self.sandbox.run("sh", command, streams, engine=self.shell)
        except Exception as e:  # a bug must not end the terminal
            self.output(f"sandbox terminal: internal error: {type(e).__name__}: {e}\r\n")
        finally:
            self.task = None
            self.cancel = None
            self.reading = None
        if self.closed:
            self.release()
            return
        self.show_prompt()
        self.drain()

    def drain(self) -> None:
        """Lines typed while a command ran go in next, one at a time, as in a terminal; then the
        keys of a line not ended yet."""
        while self.typeahead and self.at_prompt():
            line = self.typeahead.popleft()
            self.output(self.editor.insert(line))
            self.enter()
        if self.ahead and self.at_prompt():
            keys, self.ahead = self.ahead, ""
            self.feed(keys)


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
