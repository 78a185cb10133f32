"""The Sandbox terminal's line editor: the line being typed, its cursor, and readline's emacs
editing keys; every edit returns the terminal output that shows it.

The line is drawn as the terminal shows it: wrapped at the terminal's width and across the
newlines a pasted or recalled command holds, so a redraw goes back up to the prompt's first row
(``row``: where the cursor is below it). Control characters show as ``^X``, a tab as spaces,
wide characters take two columns; nothing typed reaches the terminal as a raw control.

Keys (readline's names): Left/Right, Ctrl-B/F (backward/forward-char); Home/End, Ctrl-A/E;
Ctrl-Left/Right, Alt-B/F (backward/forward-word: words of letters and digits); Backspace,
Ctrl-H, Delete; Ctrl-U (unix-line-discard), Ctrl-K (kill-line), Ctrl-W (unix-word-rubout:
back to whitespace), Alt-Backspace (backward-kill-word), Alt-D, Ctrl-Delete (kill-word),
Ctrl-Y (yank the last kill; kills in a row gather into one), Ctrl-T (transpose-chars),
Alt-U/L/C (upcase/downcase/capitalize-word). What the session decides (Enter, Tab, history,
Ctrl-R, Ctrl-C/D/L) is in terminal.py.
"""
from __future__ import annotations

import re
import unicodedata

#: a line longer than this is cut (what a paste of a whole file into the prompt gets)
MAX_LINE = 64 * 1024
#: a zero-width escape sequence in a prompt: CSI, OSC (ended by BEL or ST), or ESC + one char
PROMPT_ESCAPE = re.compile(r"\x1b\[[0-9;?:<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^\[\]]")
TAB_WIDTH = 8

LEFT = ("\x1b[D", "\x1bOD", "\x02")
RIGHT = ("\x1b[C", "\x1bOC", "\x06")
HOME = ("\x01", "\x1b[H", "\x1bOH", "\x1b[1~", "\x1b[7~")
END = ("\x05", "\x1b[F", "\x1bOF", "\x1b[4~", "\x1b[8~")
WORD_LEFT = ("\x1bb", "\x1bB", "\x1b[1;5D", "\x1b[1;3D", "\x1b[5D", "\x1b\x1b[D", "\x1bOd")
WORD_RIGHT = ("\x1bf", "\x1bF", "\x1b[1;5C", "\x1b[1;3C", "\x1b[5C", "\x1b\x1b[C", "\x1bOc")
BACKSPACE = ("\x7f", "\b")
DELETE = "\x1b[3~"
KILL_WORD = ("\x1bd", "\x1bD", "\x1b[3;5~", "\x1b[3;3~")
BACKWARD_KILL_WORD = ("\x1b\x7f", "\x1b\b")


def cell(ch: str, col: int) -> tuple[str, int]:
    """How one character of the line shows at column ``col``: (text, columns)."""
    if " " <= ch < "\x7f":
        return ch, 1
    o = ord(ch)
    if ch == "\t":
        width = TAB_WIDTH - col % TAB_WIDTH
        return " " * width, width
    if o < 0x20 or o == 0x7f:
        return "^" + chr(o ^ 0x40), 2
    if 0x80 <= o < 0xa0:
        return f"\\{o:o}", 4
    if 0xd800 <= o < 0xe000:  # a lone surrogate (it came from JSON): not sendable as it is
        return "\ufffd", 1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return ch, 0
    return ch, 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def shown(text: str) -> tuple[str, int]:
    """``text`` as it shows on one row (control characters as ``^X``...), and its columns."""
    parts, col = [], 0
    for ch in text:
        part, width = cell(ch, col)
        parts.append(part)
        col += width
    return "".join(parts), col


def simple(chars: str) -> bool:
    """Characters that show as themselves, one column each (typing them needs no redraw)."""
    return chars.isprintable() and (chars.isascii() or all(cell(c, 0)[1] == 1 for c in chars))


def is_word(ch: str) -> bool:
    return ch.isalnum()


class LineEditor:
    """The line being typed and its cursor; every edit returns the terminal output that shows it."""

    def __init__(self, prompt: str = "", echo: bool = True, cols: int = 80) -> None:
        self.prompt = prompt
        self.echo = echo
        self.cols = max(int(cols), 1)
        self.text = ""
        self.cursor = 0
        #: the cursor's row below the prompt's first row, as last drawn
        self.row = 0
        #: the last kill (Ctrl-Y yanks it; the session hands it to the next line's editor)
        self.killed = ""
        #: the last key killed text: the next kill adds to it (readline's kill ring entry)
        self.killing = False

    # ----------------------------------------------------------------- drawing
    def layout(self) -> tuple[str, tuple[int, int], tuple[int, int]]:
        """Prompt and line as the terminal shows them: (output from the prompt's first column,
        the cursor's (row, column), the end's (row, column)). A row filled to the last column
        leaves the terminal's cursor there until the next character: the output then goes on
        to the next row itself, so the end is never in that state."""
        cols = self.cols
        out: list[str] = []
        row = col = 0
        pending = False  # the last column is filled: the next character goes to the next row
        cursor_at = (0, 0)

        def put(shown: str, width: int) -> None:
            nonlocal row, col, pending
            if width == 0:
                out.append(shown)
                return
            if pending or col + width > cols:
                row, col, pending = row + 1, 0, False
            out.append(shown)
            col += width
            if col >= cols:
                col, pending = cols, True

        def newline() -> None:
            nonlocal row, col, pending
            out.append("\r\n" if pending else "\x1b[K\r\n")
            row, col, pending = row + 1, 0, False

        pieces = PROMPT_ESCAPE.split(self.prompt)
        escapes = PROMPT_ESCAPE.findall(self.prompt)
        for k, part in enumerate(pieces):
            for ch in part:
                if ch == "\n":
                    newline()
                elif ch >= " " and ch != "\x7f" and not 0x80 <= ord(ch) < 0xa0:
                    put(*cell(ch, col))
            if k < len(escapes):
                out.append(escapes[k])
        text = self.text if self.echo else ""
        for k, ch in enumerate(text):
            if k == self.cursor:
                cursor_at = (row + 1, 0) if pending else (row, col)
            if ch == "\n":
                newline()
            else:
                put(*cell(ch, col))
        if pending:
            out.append("\r\n")
            row, col = row + 1, 0
        end = (row, col)
        if self.cursor >= len(text):
            cursor_at = end
        return "".join(out), cursor_at, end

    def redraw(self) -> str:
        """Prompt and line drawn again where they are (from the cursor's row, as last drawn)."""
        if not self.echo:
            return ""
        up = f"\x1b[{self.row}A" if self.row else ""
        self.row = 0
        return up + "\r" + self.draw()

    def draw(self) -> str:
        """Prompt and line drawn from the cursor, at the first column of a row of its own."""
        if not self.echo:
            return ""
        shown, (crow, ccol), (erow, ecol) = self.layout()
        self.row = crow
        return shown + "\x1b[J" + self._move((erow, ecol), (crow, ccol))

    @staticmethod
    def _move(source: tuple[int, int], target: tuple[int, int]) -> str:
        (srow, scol), (trow, tcol) = source, target
        if srow == trow:
            if tcol < scol:
                return f"\x1b[{scol - tcol}D"
            return f"\x1b[{tcol - scol}C" if tcol > scol else ""
        vertical = f"\x1b[{srow - trow}A" if srow > trow else f"\x1b[{trow - srow}B"
        return vertical + "\r" + (f"\x1b[{tcol}C" if tcol else "")

    def leave(self, mark: str = "") -> str:
        """Go past the end of the line (``mark`` there: "^C"), on to a new row: the line is done
        with and output may follow."""
        if not self.echo:
            return mark + "\r\n"
        _, cursor_at, end = self.layout()
        self.row = 0
        return self._move(cursor_at, end) + mark + "\r\n"

    # ----------------------------------------------------------------- edits
    def insert(self, chars: str) -> str:
        chars = chars[:MAX_LINE - len(self.text)]
        if not chars:
            return ""
        at_end = self.cursor == len(self.text)
        self.text = self.text[:self.cursor] + chars + self.text[self.cursor:]
        self.cursor += len(chars)
        self.killing = False
        if not self.echo:
            return ""
        if at_end and simple(chars):  # typing at the end: no redraw, unless a row fills up
            _, (row, col), _ = self.layout()
            if col:
                self.row = row
                return chars
        return self.redraw()

    def replace(self, text: str, cursor: int | None = None) -> str:
        self.text = text[:MAX_LINE]
        self.cursor = len(self.text) if cursor is None else max(0, min(cursor, len(self.text)))
        return self.redraw()

    def kill(self, start: int, end: int) -> None:
        """Cut ``text[start:end]`` into the kill text (after or before the last kill, when the
        last key killed too), the cursor at ``start``."""
        piece = self.text[start:end]
        if self.killing:
            self.killed = self.killed + piece if start >= self.cursor else piece + self.killed
        else:
            self.killed = piece
        self.text = self.text[:start] + self.text[end:]
        self.cursor = start

    def word_start(self) -> int:
        """Where backward-word goes: the start of this or the previous word (letters, digits)."""
        at = self.cursor
        while at and not is_word(self.text[at - 1]):
            at -= 1
        while at and is_word(self.text[at - 1]):
            at -= 1
        return at

    def word_end(self) -> int:
        """Where forward-word goes: the end of this or the next word."""
        at, text = self.cursor, self.text
        while at < len(text) and not is_word(text[at]):
            at += 1
        while at < len(text) and is_word(text[at]):
            at += 1
        return at

    def key(self, key: str) -> str:
        """Apply an editing key; '' when the key is not an editing key or changes nothing."""
        text, at = self.text, self.cursor
        killing, self.killing = self.killing, False
        if key in BACKSPACE:
            if not at:
                return ""
            self.text, self.cursor = text[:at - 1] + text[at:], at - 1
        elif key == DELETE:
            if at >= len(text):
                return ""
            self.text = text[:at] + text[at + 1:]
        elif key in LEFT:
            if not at:
                return ""
            self.cursor -= 1
        elif key in RIGHT:
            if at >= len(text):
                return ""
            self.cursor += 1
        elif key in HOME:
            self.cursor = 0
        elif key in END:
            self.cursor = len(text)
        elif key in WORD_LEFT:
            self.cursor = self.word_start()
        elif key in WORD_RIGHT:
            self.cursor = self.word_end()
        elif key in ("\x15", "\x0b", "\x17") or key in KILL_WORD or key in BACKWARD_KILL_WORD:
            self.killing = killing
            if key == "\x15":  # Ctrl-U: unix-line-discard
                start, end = 0, at
            elif key == "\x0b":  # Ctrl-K: kill-line
                start, end = at, len(text)
            elif key == "\x17":  # Ctrl-W: unix-word-rubout, back to whitespace
                start = at
                while start and text[start - 1].isspace():
                    start -= 1
                while start and not text[start - 1].isspace():
                    start -= 1
                end = at
            elif key in KILL_WORD:
                start, end = at, self.word_end()
            else:
                start, end = self.word_start(), at
            if start == end:
                return ""
            self.kill(start, end)
            self.killing = True
        elif key == "\x19":  # Ctrl-Y: yank
            return self.insert(self.killed) if self.killed else ""
        elif key == "\x14":  # Ctrl-T: transpose-chars
            if not at or len(text) < 2:
                return ""
            at = min(at, len(text) - 1)
            self.text = text[:at - 1] + text[at] + text[at - 1] + text[at + 1:]
            self.cursor = at + 1
        elif key in ("\x1bu", "\x1bl", "\x1bc"):  # Alt-U/L/C: upcase/downcase/capitalize-word
            end = self.word_end()
            word = text[at:end]
            word = word.upper() if key == "\x1bu" else word.lower() if key == "\x1bl" else \
                "".join(c.upper() if k == next((j for j, d in enumerate(word) if is_word(d)), -1) else c.lower()
                        for k, c in enumerate(word))
            self.text, self.cursor = text[:at] + word + text[end:], end
        else:
            self.killing = killing
            return ""
        return self.redraw()
