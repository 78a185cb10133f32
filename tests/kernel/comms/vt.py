"""A small VT100 screen for the terminal's unit tests: what xterm.js shows for the kernel's output
(autowrap with the last column's pending wrap, CR, LF, cursor moves, erase in line and display).
Rows are never scrolled away: ``text()`` is every row written so far."""
from __future__ import annotations

import re

CONTROL = re.compile(r"\x1b\[([?0-9;]*)([@-~])|\x1b[^\[]|[\x00-\x1f]|[^\x00-\x1f\x1b]+")


class Screen:
    def __init__(self, cols: int = 80) -> None:
        self.cols = cols
        self.rows: list[list[str]] = [[]]
        self.row = self.col = 0
        self.pending = False  # the last column was written: the next character wraps
        self.bells = 0

    def write(self, data: str) -> None:
        for m in CONTROL.finditer(data):
            token = m.group()
            if m.group(2):
                self.csi(m.group(1), m.group(2))
            elif token == "\r":
                self.col, self.pending = 0, False
            elif token == "\n":
                self.row, self.pending = self.row + 1, False
            elif token == "\b":
                self.col, self.pending = max(0, self.col - 1), False
            elif token == "\a":
                self.bells += 1
            elif token[0] >= " ":
                for ch in token:
                    self.put(ch)

    def line(self, row: int) -> list[str]:
        while len(self.rows) <= row:
            self.rows.append([])
        return self.rows[row]

    def put(self, ch: str) -> None:
        if self.pending:
            self.row, self.col, self.pending = self.row + 1, 0, False
        line = self.line(self.row)
        while len(line) <= self.col:
            line.append(" ")
        line[self.col] = ch
        if self.col == self.cols - 1:
            self.pending = True
        else:
            self.col += 1

    def csi(self, params: str, final: str) -> None:
        if params.startswith("?") or final == "m":
            return
        first = params.split(";")[0]
        n = int(first) if first.isdigit() else (0 if final in "JK" else 1)
        if final == "A":
            self.row = max(0, self.row - n)
        elif final == "B":
            self.row += n
        elif final == "C":
            self.col = min(self.cols - 1, self.col + n)
        elif final == "D":
            self.col = max(0, self.col - n)
        elif final == "K":  # from the cursor (the last column, when a wrap is pending)
            del self.line(self.row)[self.col:]
        elif final == "J":
            if n == 2:
                self.rows, self.row, self.col = [[]], 0, 0
            else:
                del self.line(self.row)[self.col:]
                del self.rows[self.row + 1:]
        elif final == "H":
            self.row = self.col = 0
        self.pending = False

    def text(self) -> str:
        return "\n".join("".join(line) for line in self.rows).rstrip("\n")

    def cursor(self) -> tuple[int, int]:
        return self.row, self.col
