"""Layout filters: fold, expand, unexpand, column, fmt."""
from __future__ import annotations

import re

from .. import memory
from ..chars import isdigits
from ..streams import CHUNK
from ._lib.quoting import quote
from ._lib.textio import BatchWriter, Fail, display_width, each_input, line_batches, run_guarded
from .options import UsageError, getopt
from .registry import CommandContext, command

FOLD_HELP = """\
Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help          display this help and exit"""

# expand and unexpand describe -t LIST alike
_TABS_LIST_HELP = """\
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help       display this help and exit"""

EXPAND_HELP = """\
Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
""" + _TABS_LIST_HELP

UNEXPAND_HELP = """\
Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
""" + _TABS_LIST_HELP

COLUMN_HELP = """\
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -s, --separator <string>         possible table delimiters
 -o, --output-separator <string>  columns separator for table output
                                    (default is two spaces)
 -c, --output-width <width>       width of output in number of characters
 -x, --fillrows                   fill rows before columns
 -R, --table-right <columns>      right align text in these columns
 -N, --table-columns <names>      comma separated columns names
 -e, --table-empty-lines          don't ignore empty lines
 -h, --help                       display this help

Without -c the width is $COLUMNS, or 80."""

FMT_HELP = """\
Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help                display this help and exit"""


async def _filter_lines(ctx: CommandContext, files: list[str], convert) -> int:
    """Write ``convert(line)`` for every line (newline included) of every input: 1 if one failed."""
    out = BatchWriter(ctx)
    status = 0
    async for _name, stream in each_input(ctx, files):
        if stream is None:
            status = 1
            continue
        async for lines in line_batches(stream):
            await out.write_lines([convert(line) for line in lines])
        await out.flush()
    return status


def _legacy_number(args: list[str]) -> tuple[list[str], str | None]:
    """Pull obsolete ``-NUM`` options (fold -20, fmt -60, expand -4) out of args."""
    rest, value = [], None
    for i, a in enumerate(args):
        if a == "--":
            rest.extend(args[i:])
            break
        if re.fullmatch(r"-[0-9]+", a):
            value = a[1:]
        else:
            rest.append(a)
    return rest, value


# ---- fold ----

_FOLD_SEGMENT = re.compile(rb"[\x08\r\t]|[^\x08\r\t]+")


def _fold_line(line: bytes, width: int, spaces: bool, count_bytes: bool, eol: bytes) -> bytes:
    """GNU fold for one line (without its newline): runs of ordinary characters are placed
    in bulk; tab, backspace and carriage return move the column as a terminal would."""
    if not line:
        return b""
    if count_bytes or not re.search(rb"[\x08\r\t]", line):
        if not spaces:
            return eol.join(line[i:i + width] for i in range(0, len(line), width))
        segments = [line]
    else:
        segments = _FOLD_SEGMENT.findall(line)

    def adjust(col: int, c: int) -> int:
        if count_bytes:
            return col + 1
        if c == 8:
            return col - 1 if col > 0 else 0
        if c == 13:
            return 0
        if c == 9:
            return col + 8 - col % 8
        return col + 1

    def width_of(data: bytes | bytearray) -> int:
        col = 0
        for c in data:
            col = adjust(col, c)
        return col

    out = bytearray()
    buf = bytearray()
    col = 0

    def break_line() -> None:
        """The next character does not fit: end the output line (at the last blank with -s)."""
        nonlocal col
        if spaces:
            cut = max(buf.rfind(b" "), buf.rfind(b"\t"))
            if cut >= 0:
                out.extend(buf[:cut + 1])
                out.extend(eol)
                del buf[:cut + 1]
                col = width_of(buf)
                return
        out.extend(buf)
        out.extend(eol)
        buf.clear()
        col = 0

    for seg in segments:
        if len(seg) == 1 and seg[0] in (8, 9, 13) and not count_bytes:
            c = seg[0]
            while True:
                new = adjust(col, c)
                if new <= width or not buf:
                    buf.append(c)
                    col = new
                    break
                break_line()
            continue
        pos = 0
        n = len(seg)
        while pos < n:
            room = width - col
            if n - pos <= room:
                buf.extend(seg[pos:])
                col += n - pos
                break
            if room > 0:
                buf.extend(seg[pos:pos + room])
                col += room
                pos += room
            if not buf:  # a lone character wider than the line still goes out
                buf.append(seg[pos])
                col += 1
                pos += 1
                continue
            break_line()
    out.extend(buf)
    return bytes(out)


@command("fold", help=FOLD_HELP)
@run_guarded
async def fold(ctx: CommandContext) -> int:
    args, legacy = _legacy_number(ctx.args)
    opts, files = getopt(args, "bsw:", {"bytes": "b", "spaces": "s", "width=": "w"}, status=1)
    width_text = legacy
    spaces = count_bytes = False
    for opt, val in opts:
        if opt == "b":
            count_bytes = True
        elif opt == "s":
            spaces = True
        elif opt == "w":
            width_text = val
    width = 80
    if width_text is not None:
        if not isdigits(width_text) or int(width_text) == 0:
            raise Fail(f"invalid number of columns: {quote(width_text, 'locale')}")
        width = int(width_text)

    def fold_line(line: bytes) -> bytes:
        if line.endswith(b"\n"):
            return _fold_line(line[:-1], width, spaces, count_bytes, b"\n") + b"\n"
        return _fold_line(line, width, spaces, count_bytes, b"\n")

    return await _filter_lines(ctx, files, fold_line)


# ---- expand / unexpand ----

class TabStops:
    def __init__(self, spec_list: list[str], cmd: str) -> None:
        self.size = 0
        self.stops: list[int] = []
        self.extend = 0
        self.increment = 0
        for spec in spec_list:
            for item in re.split(r"[,\s]+", spec.strip()) if spec.strip() else [""]:
                if item == "":
                    continue
                prefix = ""
                if item[0] in "/+":
                    prefix, item = item[0], item[1:]
                if not isdigits(item):
                    raise Fail(f"tab size contains invalid character(s): {quote(item, 'locale')}")
                value = int(item)
                if prefix == "/":
                    self.extend = value
                elif prefix == "+":
                    self.increment = value
                else:
                    if value == 0:
                        raise Fail("tab size cannot be 0")
                    if self.stops and value <= self.stops[-1]:
                        raise Fail("tab sizes must be ascending")
                    self.stops.append(value)
        if self.extend and self.increment:
            raise Fail("'/' specifier is mutually exclusive with '+'")
        if len(self.stops) == 1 and not self.extend and not self.increment:
            self.size = self.stops.pop()
        elif not self.stops and not self.extend and not self.increment:
            self.size = 8
        if self.extend and not self.stops and not self.size:
            self.size, self.extend = self.extend, 0

    def next_stop(self, column: int, index: list[int]) -> tuple[int, bool]:
        """(next tab column after ``column``, whether past the last stop)."""
        if self.size:
            return column + self.size - column % self.size, False
        while index[0] < len(self.stops):
            tab = self.stops[index[0]]
            if column < tab:
                return tab, False
            index[0] += 1
        if self.extend:
            return column + self.extend - column % self.extend, False
        if self.increment:
            last = self.stops[-1] if self.stops else 0
            return last + self.increment * ((column - last) // self.increment + 1), False
        return 0, True


def _expand_line(line: bytes, tabs: TabStops, initial: bool) -> bytes:
    if b"\t" not in line:
        return line
    if tabs.size and not initial and b"\x08" not in line and b"\r" not in line:
        return line.expandtabs(tabs.size)
    out = bytearray()
    column = 0
    index = [0]
    convert = True
    for i, c in enumerate(line):
        if convert:
            if c == 9:
                stop, last = tabs.next_stop(column, index)
                if last:
                    stop = column + 1
                out += b" " * (stop - column)
                column = stop
                continue
            if c == 8:
                column -= 1 if column else 0
                index[0] -= 1 if index[0] else 0
            else:
                column += 1
            if initial and c not in (32, 9):
                out += line[i:]
                return bytes(out)
        out.append(c)
    return bytes(out)


def _legacy_tab_lists(args: list[str]) -> tuple[list[str], list[str]]:
    """Split obsolete ``-N[,N]...`` tab lists (expand -4, unexpand -2,6) from the other args."""
    rest, lists = [], []
    for a in args:
        if re.fullmatch(r"-[0-9][0-9,]*", a):
            lists.append(a[1:])
        else:
            rest.append(a)
    return rest, lists


@command("expand", help=EXPAND_HELP)
@run_guarded
async def expand(ctx: CommandContext) -> int:
    args, legacy = _legacy_tab_lists(ctx.args)
    opts, files = getopt(args, "it:", {"initial": "i", "tabs=": "t"}, status=1)
    specs = legacy + [v for o, v in opts if o == "t"]
    initial = any(o == "i" for o, _ in opts)
    tabs = TabStops(specs, "expand")
    return await _filter_lines(ctx, files, lambda line: _expand_line(line, tabs, initial))


def _unexpand_line(line: bytes, tabs: TabStops, all_blanks: bool) -> bytes:
    """GNU unexpand's state machine for one line (including its newline)."""
    out = bytearray()
    convert = True
    column = 0
    index = [0]
    one_blank_before_tab_stop = False
    prev_blank = True
    pending = bytearray()
    for c in line:
        if convert:
            blank = c in (32, 9)
            if blank:
                next_tab, last = tabs.next_stop(column, index)
                if last:
                    convert = False
                if convert:
                    if c == 9:
                        column = next_tab
                        if pending:
                            pending[0] = 9
                    else:
                        column += 1
                        if not (prev_blank and column == next_tab):
                            if column == next_tab:
                                one_blank_before_tab_stop = True
                            pending.append(c)
                            prev_blank = True
                            continue
                        c = 9
                        if pending:
                            pending[0] = 9
                    del pending[int(one_blank_before_tab_stop):]
            elif c == 8:
                column -= 1 if column else 0
                index[0] -= 1 if index[0] else 0
            else:
                column += 1
            if pending:
                if len(pending) > 1 and one_blank_before_tab_stop:
                    pending[0] = 9
                out += pending
                pending.clear()
                one_blank_before_tab_stop = False
            prev_blank = blank
            convert = convert and (all_blanks or blank)
        out.append(c)
    out += pending
    return bytes(out)


@command("unexpand", help=UNEXPAND_HELP)
@run_guarded
async def unexpand(ctx: CommandContext) -> int:
    args, legacy = _legacy_tab_lists(ctx.args)
    opts, files = getopt(args, "at:", {"all": "a", "first-only": None, "tabs=": "t"}, status=1)
    specs = legacy + [v for o, v in opts if o == "t"]
    all_blanks = any(o == "a" for o, _ in opts) or bool(specs)
    if any(o == "first-only" for o, _ in opts):
        all_blanks = False
    tabs = TabStops(specs, "unexpand")
    return await _filter_lines(ctx, files, lambda line: _unexpand_line(line, tabs, all_blanks))


# ---- column (util-linux) ----

#: What column -t holds per cell beyond its bytes (a bytes object, its row's list slot, its part
#: of the output line), measured with tracemalloc; counted CELL_BLOCK cells at a time.
CELL_COST = 144
CELL_BLOCK = 1 << 14
#: What fmt holds per word while it formats (the word and its layout state), measured.
FMT_WORD_COST = 288

@command("column", help=COLUMN_HELP)
@run_guarded
async def column(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "ts:o:c:xR:N:eLn", {
        "table": "t", "separator=": "s", "output-separator=": "o", "output-width=": "c",
        "fillrows": "x", "table-right=": "R", "table-columns=": "N", "table-empty-lines": "e",
        "keep-empty-lines": "L", "table-noheadings": None, "json": None}, status=1)
    table = fill_rows = keep_empty = False
    seps: bytes | None = None
    out_sep = b"  "
    width_text = ctx.env.get("COLUMNS", "")
    right: set[int] = set()
    names: list[bytes] = []
    for opt, val in opts:
        if opt == "t":
            table = True
        elif opt == "s":
            seps = val.encode("utf-8", "surrogateescape")
        elif opt == "o":
            out_sep = val.encode("utf-8", "surrogateescape")
        elif opt == "c":
            if not isdigits(val):
                raise Fail(f"invalid columns argument: '{val}'")
            width_text = val
        elif opt == "x":
            fill_rows = True
        elif opt == "L":
            keep_empty = True
        elif opt == "R":
            right |= {int(x) for x in val.split(",") if isdigits(x)}
        elif opt == "N":
            names = [n.encode("utf-8", "surrogateescape") for n in val.split(",")]
        elif opt == "json":
            raise UsageError("--json is not supported", 1)
    width = int(width_text) if isdigits(width_text) and int(width_text) > 0 else 80
    lines: list[bytes] = []
    status = 0
    async for name, stream in each_input(ctx, files, "{name}: {err}"):
        if stream is None:
            status = 1
            continue
        data = await stream.read_all(b"\n")  # counts the lines it will keep
        for line in data.split(b"\n") if data else []:
            lines.append(line)
        if data.endswith(b"\n"):
            lines.pop()
    if table:
        rows: list[list[bytes] | None] = [names] if names else []
        cells = 0  # made since they were last counted
        for line in lines:
            if not line.strip(b" \t"):
                if keep_empty:
                    rows.append(None)
                continue
            if seps is None:
                rows.append(line.split())
            else:
                rows.append(re.split(b"[" + re.escape(seps) + b"]", line))
            cells += len(rows[-1])
            if cells >= CELL_BLOCK:
                memory.charge(cells * CELL_COST)
                cells = 0
                ctx.check()
        memory.charge(cells * CELL_COST)
        ncols = max((len(r) for r in rows if r is not None), default=0)
        widths = [0] * ncols
        for r in rows:
            if r is None:
                continue
            for i, cell in enumerate(r):
                widths[i] = max(widths[i], _display_width(cell))
        out = BatchWriter(ctx)
        for r in rows:
            if r is None:
                await out.write(b"\n")
                continue
            cells = r + [b""] * (ncols - len(r))
            parts = []
            for i, cell in enumerate(cells):
                pad = b" " * (widths[i] - _display_width(cell))
                if i + 1 in right:
                    parts.append(pad + cell)
                elif i == ncols - 1:
                    parts.append(cell)
                else:
                    parts.append(cell + pad)
            await out.write(out_sep.join(parts) + b"\n")
        await out.flush()
        return status
    entries = [ln.rstrip(b" \t") for ln in lines]
    entries = [e for e in entries if e]
    if not entries:
        return status
    maxlen = max(_display_width(e) for e in entries)
    maxlen = (maxlen + 8) & ~7
    out = BatchWriter(ctx)
    if maxlen > width:
        for e in entries:
            await out.write(e + b"\n")
        await out.flush()
        return status
    numcols = max(1, width // maxlen)
    if fill_rows:
        row: list[bytes] = []
        chcnt = col = 0
        endcol = maxlen
        for k, e in enumerate(entries):
            row.append(e)
            chcnt += _display_width(e)
            if k == len(entries) - 1:
                break
            col += 1
            if col == numcols:
                row.append(b"\n")
                chcnt = col = 0
                endcol = maxlen
            else:
                while (nxt := (chcnt + 8) & ~7) <= endcol:
                    row.append(b"\t")
                    chcnt = nxt
                endcol += maxlen
        row.append(b"\n")
        await out.write(b"".join(row))
    else:
        numrows = (len(entries) + numcols - 1) // numcols
        for r in range(numrows):
            parts = []
            endcol = maxlen
            chcnt = 0
            base = r
            for _c in range(numcols):
                e = entries[base]
                parts.append(e)
                chcnt += _display_width(e)
                base += numrows
                if base >= len(entries):
                    break
                while (nxt := (chcnt + 8) & ~7) <= endcol:
                    parts.append(b"\t")
                    chcnt = nxt
                endcol += maxlen
            parts.append(b"\n")
            await out.write(b"".join(parts))
    await out.flush()
    return status


def _display_width(b: bytes) -> int:
    if b.isascii():
        return len(b)
    try:
        return display_width(b.decode("utf-8"))
    except UnicodeDecodeError:
        return len(b)


# ---- fmt (GNU's cost-minimising paragraph filler) ----

def _sqr(n: int) -> int:
    return n * n


LINE_COST = _sqr(70)
SENTENCE_BONUS = _sqr(50)
NOBREAK_COST = _sqr(600)
PAREN_BONUS = _sqr(40)
PUNCT_BONUS = _sqr(40)


def _short_cost(n: int) -> int:
    return _sqr(n * 10)


def _ragged_cost(n: int) -> int:
    return _short_cost(n) // 2


def _widow_cost(n: int) -> int:
    return _sqr(200) // (n + 2)


def _orphan_cost(n: int) -> int:
    return _sqr(150) // (n + 2)


class _Word:
    __slots__ = ("text", "length", "space", "paren", "punct", "period", "final",
                 "next_break", "best_cost", "line_length")

    def __init__(self, text: bytes) -> None:
        self.text = text
        self.length = len(text)
        self.space = 1
        self.paren = text[:1] in (b"(", b"[", b"'", b"`", b'"')
        self.punct = bool(text) and chr(text[-1]) in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
        end = len(text) - 1
        while end > 0 and chr(text[end]) in ")]'\"":
            end -= 1
        self.period = bool(text) and chr(text[end]) in ".?!"
        self.final = False
        self.next_break = 0
        self.best_cost = 0
        self.line_length = 0


class _Fmt:
    def __init__(self, width: int, goal: int, uniform: bool, split: bool, crown: bool,
                 tagged: bool, prefix: bytes) -> None:
        self.width = width
        self.goal = goal
        self.uniform = uniform
        self.split = split
        self.crown = crown
        self.tagged = tagged
        self.prefix = prefix
        self.prefix_stripped = prefix.strip(b" \t")
        self.prefix_full = len(prefix.lstrip(b" \t"))  # with its trailing blanks
        self.prefix_lead = len(prefix) - len(prefix.lstrip(b" \t"))
        self.tabs = False
        self.last_other_indent = 0  # GNU keeps the secondary indent across paragraphs
        self.out: list[bytes] = []

    # -- reading
    def _indent(self, text: bytes, start: int = 0) -> tuple[int, int]:
        """(column after the leading blanks from ``start``, index of the first non-blank)."""
        col = 0
        i = start
        while i < len(text) and text[i] in (32, 9):
            if text[i] == 9:
                self.tabs = True
                col = (col // 8 + 1) * 8
            else:
                col += 1
            i += 1
        return col, i

    def _split_prefix(self, line: bytes) -> tuple[int, int, int] | None:
        """(prefix indent, body indent column, body start) when the line carries the prefix."""
        pcol, i = self._indent(line)
        if not self.prefix_stripped:
            return min(self.prefix_lead, pcol), pcol, i
        if not line[i:].startswith(self.prefix_stripped):
            return None
        j = i + len(self.prefix_stripped)
        col = pcol + len(self.prefix_stripped)
        k = j
        while k < len(line) and line[k] in (32, 9):
            col = (col // 8 + 1) * 8 if line[k] == 9 else col + 1
            if line[k] == 9:
                self.tabs = True
            k += 1
        if col < pcol + self.prefix_full and k < len(line):
            return None  # the prefix's trailing blanks are part of it
        return pcol, col, k

    def _words(self, body: bytes, col: int) -> list[_Word]:
        words = []
        for m in re.finditer(rb"([^ \t\n\r\x0b\x0c]+)([ \t\n\r\x0b\x0c]*)", body):
            w = _Word(m.group(1))
            col += w.length
            start = col
            for c in m.group(2):
                col = (col // 8 + 1) * 8 if c == 9 else col + 1
            w.space = col - start
            if 9 in m.group(2):
                self.tabs = True
            at_end = m.end() >= len(body)
            w.final = w.period and (at_end or w.space > 1)
            if at_end or self.uniform:
                w.space = 2 if w.final else 1
            words.append(w)
        return words

    def format(self, lines: list[bytes]) -> bytes:
        i = 0
        n = len(lines)
        while i < n:
            line = lines[i]
            info = self._split_prefix(line)
            if info is not None and info[2] >= len(line) and not self.prefix_stripped:
                self.out.append(b"\n")  # a blank (or all-whitespace) line
                i += 1
                continue
            if info is None or info[2] >= len(line) or info[0] < self.prefix_lead:
                self.out.append(line + b"\n")
                i += 1
                continue
            prefix_indent, first_indent, start = info
            para = [(first_indent, line[start:])]
            i += 1

            def same_para(k: int) -> tuple[int, bytes] | None:
                if k >= n:
                    return None
                inf = self._split_prefix(lines[k])
                if inf is None or inf[0] != prefix_indent or inf[2] >= len(lines[k]):
                    return None
                return inf[1], lines[k][inf[2]:]

            other_indent = first_indent
            if not self.split:
                nxt = same_para(i)
                if self.crown:
                    if nxt is not None:
                        other_indent = nxt[0]
                        while nxt is not None and (len(para) == 1 or nxt[0] == other_indent):
                            para.append(nxt)
                            i += 1
                            nxt = same_para(i)
                elif self.tagged:
                    if nxt is not None and nxt[0] != first_indent:
                        other_indent = nxt[0]
                        while nxt is not None and (len(para) == 1 or nxt[0] == other_indent):
                            para.append(nxt)
                            i += 1
                            nxt = same_para(i)
                    elif self.last_other_indent == first_indent:
                        other_indent = 3 if first_indent == 0 else 0
                    else:
                        other_indent = self.last_other_indent
                else:
                    while nxt is not None and nxt[0] == other_indent:
                        para.append(nxt)
                        i += 1
                        nxt = same_para(i)
            self.last_other_indent = other_indent
            words: list[_Word] = []
            for indent, body in para:
                words.extend(self._words(body, indent))
            if not words:
                continue
            words[-1].period = words[-1].final = True
            self._fill(words, prefix_indent, first_indent, other_indent)
        return b"".join(self.out)

    # -- the optimiser
    def _base_cost(self, words: list[_Word], k: int) -> int:
        cost = LINE_COST
        if k > 0:
            prev = words[k - 1]
            if prev.period:
                cost += -SENTENCE_BONUS if prev.final else NOBREAK_COST
            elif prev.punct:
                cost -= PUNCT_BONUS
            elif k > 1 and words[k - 2].final:
                cost += _widow_cost(prev.length)
        this = words[k]
        if this.paren:
            cost -= PAREN_BONUS
        elif this.final:
            cost += _orphan_cost(this.length)
        return cost

    def _fill(self, words: list[_Word], prefix_indent: int, first_indent: int, other_indent: int) -> None:
        limit = len(words)
        sentinel = _Word(b"")
        sentinel.length = self.width
        sentinel.best_cost = 0
        allw = words + [sentinel]
        for start in range(limit - 1, -1, -1):
            best = None
            length = first_indent if start == 0 else other_indent
            length += allw[start].length
            w = start
            while True:
                w += 1
                if w == limit:
                    line_cost = 0
                else:
                    gap = self.goal - length
                    line_cost = _short_cost(gap)
                    if allw[w].next_break != limit:
                        line_cost += _ragged_cost(length - allw[w].line_length)
                wcost = line_cost + allw[w].best_cost
                if best is None or wcost < best:
                    best = wcost
                    allw[start].next_break = w
                    allw[start].line_length = length
                if w == limit:
                    break
                length += allw[w - 1].space + allw[w].length
                if length >= self.width:
                    break
            allw[start].best_cost = best + self._base_cost(words, start)
        k = 0
        indent = first_indent
        while k < limit:
            end = allw[k].next_break
            self._put_line(words[k:end], prefix_indent, indent)
            indent = other_indent
            k = end

    def _put_space(self, col: int, space: int, parts: list[bytes]) -> int:
        target = col + space
        if self.tabs:
            tab_target = target // 8 * 8
            if col + 1 < tab_target:
                while col < tab_target:
                    parts.append(b"\t")
                    col = (col // 8 + 1) * 8
        if target > col:
            parts.append(b" " * (target - col))
            col = target
        return col

    def _put_line(self, words: list[_Word], prefix_indent: int, indent: int) -> None:
        parts: list[bytes] = []
        col = self._put_space(0, prefix_indent, parts)
        parts.append(self.prefix_stripped)
        col += len(self.prefix_stripped)
        col = self._put_space(col, indent - col, parts)
        for j, w in enumerate(words):
            parts.append(w.text)
            col += w.length
            if j < len(words) - 1:
                col = self._put_space(col, w.space, parts)
        self.out.append(b"".join(parts) + b"\n")


@command("fmt", help=FMT_HELP)
@run_guarded
async def fmt(ctx: CommandContext) -> int:
    args, legacy = _legacy_number(ctx.args)
    opts, files = getopt(args, "cp:stuw:g:", {
        "crown-margin": "c", "prefix=": "p", "split-only": "s", "tagged-paragraph": "t",
        "uniform-spacing": "u", "width=": "w", "goal=": "g"}, status=1)
    width_text, goal_text = legacy, None
    crown = tagged = split = uniform = False
    prefix = b""
    for opt, val in opts:
        if opt == "c":
            crown = True
        elif opt == "t":
            tagged = True
        elif opt == "s":
            split = True
        elif opt == "u":
            uniform = True
        elif opt == "p":
            prefix = val.encode("utf-8", "surrogateescape")
        elif opt == "w":
            width_text = val
        elif opt == "g":
            goal_text = val
    width = 75
    if width_text is not None:
        if not isdigits(width_text) or int(width_text) > 2500:
            raise Fail(f"invalid width: {quote(width_text, 'locale')}")
        width = int(width_text)
    if goal_text is not None:
        if not isdigits(goal_text):
            raise Fail(f"invalid width: {quote(goal_text, 'locale')}")
        goal = int(goal_text)
        if width_text is None:
            width = goal + 10
    else:
        goal = width * (2 * (100 - 7) + 1) // 200
    if goal > width:
        raise Fail(f"invalid width: {quote(str(goal), 'locale')}")
    status = 0
    async for name, stream in each_input(ctx, files, "cannot open {qname} for reading: {err}"):
        if stream is None:
            status = 1
            continue
        data = await stream.read_all(b"\n")  # counts the lines it will keep
        # and the words it will make, counted a block at a time (not in a list of them all)
        memory.charge(FMT_WORD_COST * sum(len(data[i:i + CHUNK].split()) for i in range(0, len(data), CHUNK)))
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        formatter = _Fmt(width, goal, uniform, split, crown, tagged, prefix)
        await ctx.out(formatter.format(lines))
    return status
