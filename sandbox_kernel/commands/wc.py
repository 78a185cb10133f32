"""wc: newline, word, character, byte and longest-line counts."""
from __future__ import annotations

import codecs
import re

from ..streams import FileInput
from ..vfs import FileHandle, FSError
from ._lib.quoting import quote
from ..locales import utf8_locale
from ._lib.textio import char_width
from .options import UsageError, getopt
from .registry import CommandContext, command

WC_HELP = """\
Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help             display this help and exit"""

_SPACE = b" \t\n\r\x0b\x0c"
_GRAPH = bytes(range(0x21, 0x7F))
_PLAIN = _SPACE + _GRAPH
_GRAPH_RE = re.compile(rb"[\x21-\x7e]")
_WIDTH_SPECIAL = re.compile(rb"[^\x20-\x7e]")


class _Counts:
    __slots__ = ("lines", "words", "chars", "bytes", "maxlen", "_carry", "_linepos", "_utf8",
                 "_decoder", "_in_word")

    def __init__(self, utf8: bool = False) -> None:
        self.lines = self.words = self.chars = self.bytes = self.maxlen = 0
        self._carry = b""  # unfinished word at the end of the previous chunk
        self._linepos = 0
        self._utf8 = utf8
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape") if utf8 else None
        self._in_word = (False, False)  # (inside a word, that word already counted)

    def feed(self, chunk: bytes, want_words: bool, want_chars: bool, want_len: bool) -> None:
        self.bytes += len(chunk)
        self.lines += chunk.count(b"\n")
        if self._utf8 and (want_chars or want_words or want_len) and not chunk.isascii():
            self._feed_text(self._decoder.decode(chunk), want_words, want_len)
            return
        if self._utf8 and self._in_word != (False, False) and want_words:
            self._feed_text(chunk.decode("ascii"), want_words, want_len)
            return
        self.chars += len(chunk)
        if want_words:
            self._words(chunk)
        if want_len:
            self._widths(chunk)

    def _feed_text(self, text: str, want_words: bool, want_len: bool) -> None:
        """The multibyte path: characters, Unicode blanks, display widths."""
        self.chars += len(text)
        if want_words:
            if self._carry:  # a word begun in the byte-oriented path
                self._in_word = (True, self._carry == b"a")
                self._carry = b""
            inside, counted = self._in_word
            for ch in text:
                if ch.isspace():
                    inside = counted = False
                elif not counted and ch.isprintable():
                    self.words += 1
                    inside = counted = True
                else:
                    inside = True
            self._in_word = (inside, counted)
        if want_len:
            pos, best = self._linepos, self.maxlen
            for ch in text:
                if ch in "\n\r\x0c":
                    best = max(best, pos)
                    pos = 0
                elif ch == "\t":
                    pos += 8 - pos % 8
                else:
                    pos += char_width(ch)
            self._linepos = pos
            self.maxlen = max(best, pos)

    def _words(self, chunk: bytes) -> None:
        data = self._carry + chunk
        tokens = data.split()
        if data and data[-1:] not in (b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c") and tokens:
            last = tokens.pop()
            # only whether it holds a printable character matters for counting
            self._carry = b"a" if _GRAPH_RE.search(last) else b""
        else:
            self._carry = b""
        if data.translate(None, _PLAIN):
            self.words += sum(1 for t in tokens if _GRAPH_RE.search(t))
        else:
            self.words += len(tokens)

    def _widths(self, chunk: bytes) -> None:
        pos = self._linepos
        best = self.maxlen
        start = 0
        for m in _WIDTH_SPECIAL.finditer(chunk):
            pos += m.start() - start
            start = m.end()
            c = m.group()
            if c in (b"\n", b"\r", b"\x0c"):
                best = max(best, pos)
                pos = 0
            elif c == b"\t":
                pos += 8 - pos % 8
        pos += len(chunk) - start
        self._linepos = pos
        self.maxlen = max(best, pos)

    def finish(self) -> None:
        if self._carry:
            self.words += 1
            self._carry = b""
        self._in_word = (False, False)


#: bytes counted between checkpoints when counting a VFS file in place
SPAN = 1 << 22


async def _count_in_place(ctx: CommandContext, stream, counts: _Counts) -> None:
    """Newlines and bytes of a VFS file counted where its bytes lie (no copy out of the file);
    anything else (pipes, devices) is left to the chunked reads."""
    at = stream.in_place() if isinstance(stream, FileInput) else None
    if at is None:
        return
    data, pos = at
    while pos < len(data):
        end = min(len(data), pos + SPAN)
        counts.lines += data.count(b"\n", pos, end)
        counts.bytes += end - pos
        counts.chars += end - pos
        pos = end
        stream.seek(pos)
        await ctx.checkpoint()


@command("wc", help=WC_HELP)
async def wc(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "clLmw", {
        "bytes": "c", "chars": "m", "lines": "l", "max-line-length": "L", "words": "w",
        "files0-from=": None}, status=1)
    want = {o for o, _ in opts if len(o) == 1}
    files0 = [v for o, v in opts if o == "files0-from"]
    if files0:
        if files:
            raise UsageError(f"extra operand {quote(files[0], 'locale')}\nfile operands cannot be "
                             "combined with --files0-from", 1)
        try:
            names = (await ctx.open_input(files0[-1]).read()).split(b"\0")
        except FSError as e:
            await ctx.error(f"cannot open {quote(files0[-1])} for reading: {e.strerror}")
            return 1
        files = [n.decode("utf-8", "surrogateescape") for n in names if n]
    if not want:
        want = {"l", "w", "c"}
    order = [k for k in "lwmcL" if k in want]
    utf8 = utf8_locale(ctx.env)
    operands = files or ["-"]

    # GNU sizes the columns from the regular files' total size (7 when any is not regular)
    sized: list[tuple[str, bool, int]] = []  # name, ok, size-or--1
    for name in operands:
        try:
            if name == "-":
                stdin = ctx.stdin
                if isinstance(stdin, FileInput) and isinstance(stdin.handle, FileHandle):
                    sized.append((name, True, stdin.handle.size))
                else:
                    sized.append((name, True, -1))
            else:
                st = ctx.fs.stat(name, cwd=ctx.cwd)
                sized.append((name, True, st.st_size if st.type == "file" else -1))
        except FSError:
            sized.append((name, False, 0))
    if len(operands) == 1 and len(order) == 1:
        width = 1
    elif not sized[0][1]:
        width = 1
    else:
        total_size = sum(s for _, ok, s in sized if ok and s >= 0)
        width = max(len(str(total_size)), 7 if any(ok and s < 0 for _, ok, s in sized) else 1)

    def row(c: _Counts, label: str | None) -> str:
        values = {"l": c.lines, "w": c.words, "m": c.chars, "c": c.bytes, "L": c.maxlen}
        text = " ".join(str(values[k]).rjust(width) for k in order)
        return text + (f" {label}" if label is not None else "") + "\n"

    total = _Counts()
    status = 0
    done = 0
    for name in operands:
        counts = _Counts(utf8)
        try:
            if name != "-" and ctx.fs.is_dir(name, cwd=ctx.cwd):
                await ctx.error(f"{quote(name, 'shell-escape', colon=True)}: Is a directory")
                status = 1
            else:
                stream = ctx.open_input(name)
                ww, wm, wl = "w" in want, "m" in want, "L" in want
                if not (ww or wl or (wm and utf8)):
                    await _count_in_place(ctx, stream, counts)
                while chunk := await stream.read_some():
                    counts.feed(chunk, ww, wm, wl)
                    await ctx.checkpoint()
                counts.finish()
        except FSError as e:
            await ctx.error(f"{quote(name, 'shell-escape', colon=True)}: {e.strerror}")
            status = 1
            continue
        done += 1
        # like GNU, a name is quoted in the counts only when it holds a newline
        label = quote(name, "shell-escape", colon=True) if "\n" in name else name
        await ctx.out(row(counts, None if not files else label))
        total.lines += counts.lines
        total.words += counts.words
        total.chars += counts.chars
        total.bytes += counts.bytes
        total.maxlen = max(total.maxlen, counts.maxlen)
    if len(operands) > 1:
        await ctx.out(row(total, "total"))
    return status
