"""grep: print lines that match patterns (GNU grep 3.8 behaviour over the VFS)."""
from __future__ import annotations

import re
import stat as stat_mod
from collections import deque
from typing import Any

from ..vfs import FSError
from ..wildcard import excluded, fnmatch
from ._lib.lineblocks import LineTooLong, TextCodec, line_blocks
from ._lib.posix_regex import (Bounds, PosixRegex, RegexError, RegexStopped, compile_posix, compile_python,
    translate_lines)
from .options import UsageError, getopt
from .registry import CommandContext, command

GREP_HELP = """\
Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;
                            ACTION is 'read' or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       use markers to highlight the matching strings;
                            WHEN is 'always', 'never', or 'auto'
  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2."""

_LONG = {
    "extended-regexp": "E", "fixed-strings": "F", "basic-regexp": "G", "perl-regexp": "P",
    "regexp=": "e", "file=": "f", "ignore-case": "i", "no-ignore-case": None,
    "word-regexp": "w", "line-regexp": "x", "null-data": "z", "no-messages": "s",
    "invert-match": "v", "version": "V", "max-count=": "m", "byte-offset": "b",
    "line-number": "n", "no-line-number": None, "line-buffered": None, "with-filename": "H",
    "no-filename": "h", "label=": None, "only-matching": "o", "quiet": "q", "silent": "q",
    "binary-files=": None, "text": "a", "directories=": "d", "devices=": "D", "recursive": "r",
    "dereference-recursive": "R", "include=": None, "exclude=": None, "exclude-from=": None,
    "exclude-dir=": None, "files-without-match": "L", "files-with-matches": "l",
    "count": "c", "initial-tab": "T", "null": "Z", "before-context=": "B",
    "after-context=": "A", "context=": "C", "group-separator=": None,
    "no-group-separator": None, "color==": None, "colour==": None, "binary": "U",
}

# GNU's default GREP_COLORS
_C_MATCH = "\x1b[01;31m\x1b[K"
_C_FILE = "\x1b[35m\x1b[K"
_C_LINENO = "\x1b[32m\x1b[K"
_C_SEP = "\x1b[36m\x1b[K"
_C_END = "\x1b[m\x1b[K"


class _Options:
    def __init__(self) -> None:
        self.mode = "G"
        self.patterns: list[str] = []
        self.pattern_given = False
        self.ignore_case = False
        self.word = False
        self.line = False
        self.null_data = False
        self.no_messages = False
        self.invert = False
        self.max_count: int | None = None
        self.byte_offset = False
        self.line_number = False
        self.with_filename: bool | None = None
        self.label = "(standard input)"
        self.only_matching = False
        self.quiet = False
        self.binary_files = "binary"
        self.directories = "read"
        self.deref = False
        self.includes: list[str] = []
        self.excludes: list[str] = []
        self.exclude_dirs: list[str] = []
        self.list_files: str | None = None  # "l" or "L"
        self.count = False
        self.initial_tab = False
        self.null_after_name = False
        self.before = 0
        self.after = 0
        self.group_separator: str | None = "--"
        self.color = False


def _context_number(value: str) -> int:
    try:
        n = int(value)
        if n < 0:
            raise ValueError
        return n
    except ValueError:
        raise _Fatal(f"{value}: invalid context length argument") from None


def _split_digit_context(args: list[str]) -> tuple[list[str], int | None]:
    """GNU's ``-NUM`` (context) options, which getopt cannot express."""
    rest: list[str] = []
    context = None
    takes_value = False  # the previous argument was an option that takes this one
    for i, a in enumerate(args):
        if takes_value:
            rest.append(a)
            takes_value = False
            continue
        if a == "--":
            rest.extend(args[i:])
            break
        m = re.fullmatch(r"-([0-9]+)", a)
        if m:
            context = int(m.group(1))
            continue
        rest.append(a)
        takes_value = bool(re.fullmatch(r"-[a-zA-Z]*[efmABCdD]", a)) or a in _LONG_WITH_VALUE
    return rest, context


_LONG_WITH_VALUE = {"--regexp", "--file", "--max-count", "--label", "--binary-files", "--directories",
                    "--devices", "--include", "--exclude", "--exclude-from", "--exclude-dir",
                    "--before-context", "--after-context", "--context", "--group-separator"}


async def _parse(ctx: CommandContext) -> tuple[_Options, list[str]]:
    args, digit_context = _split_digit_context(ctx.args)
    opts, operands = getopt(args, "EFGPe:f:iywxzsvVm:bnHhoqaId:D:rRLlcTZB:A:C:U", _LONG)
    o = _Options()
    before = after = None
    context = digit_context
    for key, value in opts:
        if key in ("E", "F", "G", "P"):
            o.mode = key
        elif key == "e":
            o.patterns.extend(value.split("\n"))
            o.pattern_given = True
        elif key == "f":
            try:
                data = await ctx.read_input(value)
            except FSError as e:
                raise _Fatal(f"{value}: {e.strerror}")
            text = data.decode("utf-8", "surrogateescape")
            if text.endswith("\n"):
                text = text[:-1]
            if text or data:
                o.patterns.extend(text.split("\n"))
            o.pattern_given = True
        elif key in ("i", "y"):
            o.ignore_case = True
        elif key == "no-ignore-case":
            o.ignore_case = False
        elif key == "w":
            o.word = True
        elif key == "x":
            o.line = True
        elif key == "z":
            o.null_data = True
        elif key == "s":
            o.no_messages = True
        elif key == "v":
            o.invert = True
        elif key == "V":
            raise _Version()
        elif key == "m":
            try:
                o.max_count = int(value)
            except ValueError:
                raise _Fatal("invalid max count") from None
        elif key == "b":
            o.byte_offset = True
        elif key == "n":
            o.line_number = True
        elif key == "no-line-number":
            o.line_number = False
        elif key == "H":
            o.with_filename = True
        elif key == "h":
            o.with_filename = False
        elif key == "label":
            o.label = value
        elif key == "o":
            o.only_matching = True
        elif key == "q":
            o.quiet = True
        elif key == "binary-files":
            if value not in ("binary", "text", "without-match"):
                raise UsageError("invalid argument '%s' for '--binary-files'" % value)
            o.binary_files = value
        elif key == "a":
            o.binary_files = "text"
        elif key == "I":
            o.binary_files = "without-match"
        elif key == "d":
            if value not in ("read", "recurse", "skip"):
                raise UsageError(f"invalid argument '{value}' for '--directories'")
            o.directories = value
        elif key == "D":
            pass
        elif key == "r":
            o.directories = "recurse"
            o.deref = False
        elif key == "R":
            o.directories = "recurse"
            o.deref = True
        elif key == "include":
            o.includes.append(value)
        elif key == "exclude":
            o.excludes.append(value)
        elif key == "exclude-from":
            try:
                o.excludes.extend(l for l in ctx.read_file(value).decode("utf-8", "surrogateescape").splitlines() if l)
            except FSError as e:
                raise _Fatal(f"{value}: {e.strerror}")
        elif key == "exclude-dir":
            o.exclude_dirs.append(value)
        elif key in ("L", "l"):
            o.list_files = key
        elif key == "c":
            o.count = True
        elif key == "T":
            o.initial_tab = True
        elif key == "Z":
            o.null_after_name = True
        elif key == "B":
            before = _context_number(value)
        elif key == "A":
            after = _context_number(value)
        elif key == "C":
            context = _context_number(value)
        elif key == "group-separator":
            o.group_separator = value
        elif key == "no-group-separator":
            o.group_separator = None
        elif key in ("color", "colour"):
            when = value or "auto"
            if when in ("always", "yes", "force"):
                o.color = True
            elif when in ("never", "no", "none", "auto", "tty", "if-tty"):
                o.color = False
            else:
                raise UsageError(f"invalid argument '{when}' for '--color'\n"
                                 "Valid arguments are:\n  - 'always', 'yes', 'force'\n"
                                 "  - 'never', 'no', 'none'\n  - 'auto', 'tty', 'if-tty'")
    o.before = before if before is not None else (context or 0)
    o.after = after if after is not None else (context or 0)
    if not o.pattern_given:
        if not operands:
            raise UsageError("Usage: grep [OPTION]... PATTERNS [FILE]...", status=2)
        o.patterns = operands.pop(0).split("\n")
    return o, operands


class _Fatal(Exception):
    pass


class _Version(Exception):
    pass


class _Matcher:
    """Decides whether a line matches and finds the matches in it (for -o and --color)."""

    def __init__(self, o: _Options, ascii: bool = False) -> None:
        self.ascii = ascii
        patterns = o.patterns
        self.match_nothing = not patterns
        self.regexes: list[PosixRegex] = []
        if self.match_nothing:
            return
        if o.mode == "F":
            sources = [re.escape(p) for p in patterns]
            self.regexes = [self._compile_python("|".join(f"(?:{s})" for s in sources), o,
                                                 alternation=len(sources) > 1, repetitions=0)]
            return
        if o.mode == "P":
            if len(patterns) > 1:
                raise _Fatal("the -P option only supports a single pattern")
            self.regexes = [self._wrap(compile_posix(patterns[0], python=True, ignore_case=o.ignore_case,
                                                     dotall=False, ascii=ascii), o)]
            return
        extended = o.mode == "E"
        compiled = [compile_posix(p, extended, ignore_case=o.ignore_case, ascii=ascii) for p in patterns]
        if len(compiled) == 1:
            self.regexes = [self._wrap(compiled[0], o)]
        elif any(c.groups for c in compiled):
            # group numbers (back-references) are per pattern: keep them apart
            self.regexes = [self._wrap(c, o) for c in compiled]
        else:
            self.regexes = [self._compile_python("|".join(f"(?:{c.python})" for c in compiled), o,
                                                 alternation=True)]

    def _compile_python(self, src: str, o: _Options, alternation: bool,
                        repetitions: int | None = None) -> PosixRegex:
        src = _Matcher._decorate(src, o)
        flags = (re.I if o.ignore_case else 0) | (re.A if self.ascii else 0)
        return PosixRegex(src, src, flags | re.S, risky=alternation, posix=alternation,
                          repetitions=None if alternation else repetitions)

    @staticmethod
    def _decorate(src: str, o: _Options) -> str:
        if o.line:
            return f"^(?:{src})\\Z"
        if o.word:
            return f"(?<!\\w)(?:{src})(?!\\w)"
        return src

    def _wrap(self, rx: PosixRegex, o: _Options) -> PosixRegex:
        if not (o.line or o.word):
            return rx
        src = self._decorate(rx.python, o)
        flags = (re.I if o.ignore_case else 0) | re.S | (re.A if self.ascii else 0)
        return PosixRegex(rx.pattern, src, flags, rx.risky, posix=rx.risky and o.mode != "P",
                          repetitions=rx.repetitions)

    def bind(self, bounds: Bounds) -> None:
        """Stop every match with the run (its wall time, an interrupt)."""
        for r in self.regexes + [x for x in (self.counter, self.in_lines, self.dense) if x is not None]:
            r.bind(bounds)

    counter: PosixRegex | None = None  # one match per selected line, for counting
    in_lines: PosixRegex | None = None  # the pattern itself, safe over many lines
    dense: PosixRegex | None = None  # whole selected lines after their newline (see select)

    def build_line_selector(self, o: _Options) -> None:
        """Regexes that find all selected lines of a block of text in one call (the fast path
        for plain output, -c, -l, -q)."""
        if self.match_nothing or o.mode == "P":
            return
        sources = []
        risky = alternation = len(o.patterns) > 1
        repetitions: int | None = 0
        for p in o.patterns:
            if o.mode == "F":
                sources.append(re.escape(p))
                continue
            got = translate_lines(p, o.mode == "E")
            if got is None:
                return
            sources.append(got[0])
            risky = risky or got[1]
            alternation = alternation or got[2]
            repetitions = got[3]
        if alternation:
            repetitions = None
        if len(sources) > 1 and any(r.groups for r in self.regexes):
            return
        src = "|".join(f"(?:{x})" for x in sources) if len(sources) > 1 else sources[0]
        if o.line:
            src = f"^(?:{src})$"
        elif o.word:
            src = f"(?<!\\w)(?:{src})(?!\\w)"
        # the matches themselves (-o), leftmost-longest like the per-line regexes
        options = {"ignore_case": o.ignore_case, "multiline": True, "ascii": self.ascii, "risky": risky,
                   "repetitions": repetitions}
        self.in_lines = compile_python(src, posix=alternation, **options)
        # one match per selected line: the first match, then the rest of its line
        # (run it on text whose every line ends with a newline: no match can be empty)
        self.counter = compile_python(f"(?:{src})[^\\n]*\\n", **options)
        # many selected lines: the whole selected lines, each after its '\n' (run on '\n' + text
        # without its last newline). The literal '\n' first lets the search jump from line to
        # line (one attempt a line, where '^' would cost one an offset); only for patterns without
        # repetitions, whose backtracking over the line before the match stays linear.
        if repetitions == 0:
            self.dense = compile_python(f"\\n[^\\n]*(?:{src})[^\\n]*", **options)
        # Plain strings match the same bytes in any locale: the blocks need no decoding. Their
        # regexes cannot backtrack much (a literal after [^\n]*), so plain `re` runs them.
        literal = self._literal_bytes(o)
        if literal is not None:
            self.counter_raw = re.compile(b"(?:" + literal + b")[^\\n]*\\n", re.M)
            self.dense_raw = re.compile(b"\\n[^\\n]*(?:" + literal + b")[^\\n]*", re.M)

    counter_raw: re.Pattern | None = None  # counter, over bytes (plain strings only)
    dense_raw: re.Pattern | None = None  # dense, over bytes

    def _literal_bytes(self, o: _Options) -> bytes | None:
        """The patterns as one bytes regex when each is a plain string (no special character
        of its syntax; ASCII unless the locale is C) and neither -i nor -w asks for more. At
        most 8 and 1000 bytes: a call over a block cannot be stopped, so its work stays small."""
        if o.ignore_case or o.word or len(o.patterns) > 8 or sum(map(len, o.patterns)) > 1000:
            return None
        special = "" if o.mode == "F" else ".[]*^$\\" + ("+?{}()|" if o.mode == "E" else "")
        parts = []
        for p in o.patterns:
            if any(c in special for c in p):
                return None
            try:
                parts.append(re.escape(p.encode("latin-1" if self.ascii else "ascii")))
            except UnicodeEncodeError:
                return None
        src = parts[0] if len(parts) == 1 else b"|".join(b"(?:" + x + b")" for x in parts)
        return b"^(?:" + src + b")$" if o.line else src

    def select(self, text, dense: bool, raw: bool = False) -> tuple[int, Any]:
        """The selected lines of ``text`` (every line ends with a newline; bytes when ``raw``):
        their number and their text. Few selected lines: a search for each (the counter regex,
        which finds the pattern fast) and its line's start by rfind; many (``dense``): one
        regex call."""
        nl = b"\n" if raw else "\n"
        rx = self.dense_raw if raw else self.dense
        if dense and rx is not None:
            found = rx.findall(nl + text[:-1]) if not rx.groups else \
                [m.group(0) for m in rx.finditer(nl + text[:-1])]
            if not found:
                return 0, nl[:0]
            return len(found), nl[:0].join(found)[1:] + nl
        rfind = text.rfind
        counter: Any = self.counter_raw if raw else self.counter
        lines = [text[rfind(nl, 0, m.start()) + 1:m.end()] for m in counter.finditer(text)]
        return len(lines), nl[:0].join(lines)

    def reject(self, text, dense: bool, raw: bool = False):
        """The lines of ``text`` (every line ends with a newline; bytes when ``raw``) that are
        not selected."""
        nl = b"\n" if raw else "\n"
        rx = self.dense_raw if raw else self.dense
        if dense and rx is not None:
            kept = rx.sub(nl[:0], nl + text[:-1])
            return kept[1:] + nl if kept else nl[:0]
        rfind = text.rfind
        pieces = []
        last = 0
        counter: Any = self.counter_raw if raw else self.counter
        for m in counter.finditer(text):
            pieces.append(text[last:rfind(nl, 0, m.start()) + 1])
            last = m.end()
        pieces.append(text[last:])
        return nl[:0].join(pieces)

    def matches(self, text: str) -> bool:
        for r in self.regexes:
            if r.search(text) is not None:
                return True
        return False

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Non-empty matches, leftmost first, non-overlapping (across all patterns)."""
        if len(self.regexes) == 1:
            return [m.span() for m in self.regexes[0].finditer_nonoverlapping(text) if m.end() > m.start()]
        out = []
        pos = 0
        n = len(text)
        while pos <= n:
            best = None
            for r in self.regexes:
                m = r.search(text, pos)
                while m is not None and m.end() == m.start() and m.start() < n:
                    m = r.search(text, m.start() + 1)
                if m is not None and m.end() > m.start():
                    if best is None or m.start() < best[0] or (m.start() == best[0] and m.end() > best[1]):
                        best = m.span()
            if best is None:
                break
            out.append(best)
            pos = best[1]
        return out


async def _lines_of(inp, eol: bytes, check):
    """The lines of ``inp`` (each with its ``eol`` except a last unterminated one), read in
    blocks so endless input without newlines is bounded and interruptible."""
    async for block in line_blocks(inp, eol, check):
        parts = block.split(eol)
        last = parts.pop()
        for part in parts:
            yield part + eol
        if last:
            yield last


def _count(rx: PosixRegex, text: str) -> int:
    if rx.groups:
        return sum(1 for _ in rx.finditer(text))
    return len(rx.findall(text))


class _Grep:
    def __init__(self, ctx: CommandContext, o: _Options, matcher: _Matcher, codec: TextCodec) -> None:
        self.ctx = ctx
        self.codec = codec
        self.o = o
        self.matcher = matcher
        self.eol = b"\0" if o.null_data else b"\n"
        self.selected_any = False
        self.error = False
        self.out: list[bytes] = []
        self.out_size = 0
        self.printed_something = False  # for group separators across files
        self.show_name = False
        self.stop_all = False
        self.active_dirs: set[int] = set()  # directories being searched (loop detection)
        self.fast = matcher.counter is not None and not (
            o.color or o.before or o.after or o.max_count is not None or o.null_data or o.initial_tab
            or (o.invert and (o.line_number or o.byte_offset)))

    async def emit(self, data: bytes) -> None:
        self.out.append(data)
        self.out_size += len(data)
        if self.out_size >= 65536:
            await self.flush()

    async def flush(self) -> None:
        if self.out:
            data = b"".join(self.out)
            self.out.clear()
            self.out_size = 0
            await self.ctx.stdout.write(data)

    async def message(self, text: str) -> None:
        await self.flush()
        await self.ctx.error(text)

    async def file_error(self, name: str, text: str) -> None:
        self.error = True
        if not self.o.no_messages:
            await self.message(f"{name}: {text}")

    # ------------------------------------------------------------------ output pieces
    def prefix(self, name: str, lineno: int, offset: int, sep: str) -> str:
        o = self.o
        parts = []
        color = o.color
        if self.show_name:
            parts.append((_C_FILE + name + _C_END) if color else name)
            parts.append("\0" if o.null_after_name else ((_C_SEP + sep + _C_END) if color else sep))
        if o.line_number:
            parts.append((_C_LINENO + str(lineno) + _C_END) if color else str(lineno))
            parts.append((_C_SEP + sep + _C_END) if color else sep)
        if o.byte_offset:
            parts.append((_C_LINENO + str(offset) + _C_END) if color else str(offset))
            parts.append((_C_SEP + sep + _C_END) if color else sep)
        if o.initial_tab and parts:
            parts.append("\t")
        return "".join(parts)

    async def separator(self) -> None:
        if self.o.group_separator is not None:
            sep = self.o.group_separator
            if self.o.color:
                sep = _C_SEP + sep + _C_END
            await self.emit(self.codec.encode(sep) + b"\n")

    # ------------------------------------------------------------------ one input
    async def search(self, inp, name: str) -> None:
        """Search one input stream; ``name`` is how output names it."""
        o = self.o
        ctx = self.ctx
        matcher = self.matcher
        eol = self.eol
        name = self.codec.arg(name)  # output is text of the locale
        decode = self.codec.decode
        head = await inp.read(32768)
        binary = o.binary_files != "text" and b"\0" in head and not o.null_data
        inp.unread(head)
        if binary and o.binary_files == "without-match":
            return
        count = 0
        lineno = 0
        offset = 0
        max_count = o.max_count
        list_mode = o.list_files
        quiet = o.quiet
        counting = o.count
        invert = o.invert
        plain_output = not (quiet or counting or list_mode)
        suppress_lines = binary  # binary: one message at the first match, no lines
        context = plain_output and (o.before or o.after) and not o.only_matching
        before: deque = deque(maxlen=o.before or 1)
        after_left = 0
        last_printed = -2  # no line of this file printed yet
        match_nothing = matcher.match_nothing
        only = o.only_matching
        color = o.color
        check = ctx.check
        if max_count == 0:
            await self.after_file(name, 0)
            return
        if self.fast:
            await self.search_fast(inp, name, binary)
            return
        if match_nothing:
            matches = None
        elif len(matcher.regexes) == 1 and not only and not color:
            search = matcher.regexes[0].search
            matches = None
        else:
            search = None
            matches = matcher.matches
        lines = _lines_of(inp, eol, check)
        async for raw in lines:
            lineno += 1
            if not (lineno & 1023):
                check()
            if raw.endswith(eol):
                line_bytes = raw[:-1]
            else:
                line_bytes = raw
            if not binary and o.binary_files != "text" and b"\0" in line_bytes and not o.null_data:
                binary = suppress_lines = True
            text = decode(line_bytes)
            if match_nothing:
                hit = False
            elif search is not None:
                hit = search(text) is not None
            else:
                hit = matches(text)
            if hit != invert:
                count += 1
                self.selected_any = True
                if quiet:
                    self.stop_all = True
                    return
                if list_mode:
                    break
                if suppress_lines:
                    if not counting:
                        break
                elif plain_output:
                    if context:
                        first_ctx = lineno - len(before)
                        for i, (b_raw, b_off) in enumerate(before):
                            await self.context_line(name, first_ctx + i, b_off, b_raw, last_printed)
                            last_printed = first_ctx + i
                        before.clear()
                        if self.printed_something and lineno != last_printed + 1:
                            await self.separator()
                    await self.print_selected(name, lineno, offset, text, line_bytes, only, color, invert)
                    last_printed = lineno
                    after_left = o.after
                if max_count is not None and count >= max_count:
                    if not (context and o.after):
                        break
                    # GNU still prints the trailing context of the last selected line
                    offset += len(raw)
                    async for raw2 in lines:
                        if after_left <= 0:
                            break
                        lineno += 1
                        await self.context_line(name, lineno, offset, raw2 if raw2.endswith(eol) else raw2 + eol,
                                                last_printed)
                        last_printed = lineno
                        after_left -= 1
                        offset += len(raw2)
                    break
            elif context:
                if after_left > 0:
                    await self.context_line(name, lineno, offset, line_bytes + eol, last_printed)
                    after_left -= 1
                    last_printed = lineno
                elif o.before:
                    before.append((line_bytes + eol, offset))
            offset += len(raw)
        if binary and count and not (counting or list_mode or quiet):
            await self.flush()
            await self.ctx.error(f"{name}: binary file matches")
        await self.after_file(name, count)

    async def search_fast(self, inp, name: str, binary: bool) -> None:
        """Whole blocks of lines per regex call (everything but context, -m and colours)."""
        o = self.o
        matcher = self.matcher
        counter = matcher.counter
        invert = o.invert
        quiet, counting, list_mode = o.quiet, o.count, o.list_files
        plain = not (quiet or counting or list_mode)
        check_binary = o.binary_files != "text"
        if self.show_name and plain:
            prefix = name + ("\0" if o.null_after_name else ":")
        else:
            prefix = ""
        count = 0
        numbered = plain and not invert and (o.line_number or o.byte_offset or o.only_matching)
        line_base = 0  # lines before the current block
        byte_base = 0  # bytes before the current block
        dense = False  # whether a quarter of the last block's text was selected lines
        raw = matcher.counter_raw is not None and not numbered  # bytes in, bytes out
        if raw:
            counter = matcher.counter_raw
        nl = b"\n" if raw else "\n"
        async for data in line_blocks(inp, check=self.ctx.check):
            if not data.endswith(b"\n"):
                data += b"\n"
            text = data if raw else self.codec.decode(data)
            if check_binary and not binary and b"\0" in data:
                binary = True
            if numbered:
                n = _count(counter, text)
                if n and not binary:
                    # without the last newline: '^' must not match after it
                    out = self.numbered_lines(text[:-1], name, line_base, byte_base,
                                              self.codec.bytes_mode or data.isascii())
                line_base += text.count("\n")
                byte_base += len(data)
            elif invert and not plain:
                n = text.count(nl) - _count(counter, text)
            elif invert:
                out = matcher.reject(text, dense, raw)
                n = out.count(nl)
                dense = (len(text) - len(out)) * 4 > len(text)
            elif plain:
                n, out = matcher.select(text, dense, raw)
                dense = len(out) * 4 > len(text)
            elif list_mode or quiet:
                n = 1 if counter.search(text) is not None else 0
            else:
                n = _count(counter, text)
            if not n:
                continue
            count += n
            self.selected_any = True
            if quiet:
                self.stop_all = True
                return
            if list_mode:
                break
            if not plain or (invert and o.only_matching):
                continue  # -o -v selects lines but prints no part of them
            if binary:
                await self.flush()
                await self.ctx.error(f"{name}: binary file matches")
                return
            self.printed_something = True
            if raw:
                if prefix:
                    head = self.codec.encode(prefix)
                    out = head + out[:-1].replace(b"\n", b"\n" + head) + b"\n"
                await self.emit(out)
                continue
            if prefix and not numbered:
                out = prefix + out[:-1].replace("\n", "\n" + prefix) + "\n"
            await self.emit(self.codec.encode(out))
        await self.after_file(name, count)

    def numbered_lines(self, body: str, name: str, line_base: int, byte_base: int, ascii: bool) -> str:
        """Output for the selected lines (or -o matches) of a block, with -n/-b prefixes."""
        o = self.o
        only = o.only_matching
        # -o: the matches; else one match per line that runs to the line's end
        rx = self.matcher.in_lines if only else self.matcher.counter
        subject = body if only else body + "\n"
        it = rx.finditer(subject)
        if self.show_name:
            head = name + ("\0" if o.null_after_name else ":")
        else:
            head = ""
        numbers, offsets = o.line_number, o.byte_offset
        parts = []
        line_no = line_base + 1
        last = 0
        char_seen = byte_seen = 0
        rfind, count = body.rfind, body.count
        for m in it:
            start, end = m.span()
            if only:
                if end == start:
                    continue
                text_start = start
                text = m.group()
            else:
                text_start = rfind("\n", 0, start) + 1
                text = body[text_start:end - 1]
            if numbers:
                line_no += count("\n", last, text_start)
                last = text_start
            if offsets:
                if ascii:
                    offset = byte_base + text_start
                else:
                    byte_seen += len(self.codec.encode(body[char_seen:text_start]))
                    char_seen = text_start
                    offset = byte_base + byte_seen
                if numbers:
                    parts.append(f"{head}{line_no}:{offset}:{text}\n")
                else:
                    parts.append(f"{head}{offset}:{text}\n")
            elif numbers:
                parts.append(f"{head}{line_no}:{text}\n")
            else:
                parts.append(f"{head}{text}\n")
        return "".join(parts)

    async def context_line(self, name: str, lineno: int, offset: int, data: bytes, last_printed: int) -> None:
        if self.printed_something and lineno != last_printed + 1:
            await self.separator()
        self.printed_something = True
        await self.emit(self.codec.encode(self.prefix(name, lineno, offset, "-")) + data)

    async def print_selected(self, name, lineno, offset, text, line_bytes, only, color, invert) -> None:
        eol = self.eol
        self.printed_something = True
        if only:
            if invert:
                return
            for start, end in self.matcher.spans(text):
                part = text[start:end]
                b_off = offset + len(self.codec.encode(text[:start]))
                piece = (_C_MATCH + part + _C_END) if color else part
                await self.emit(self.codec.encode(self.prefix(name, lineno, b_off, ":") + piece) + eol)
            return
        if color and not invert:
            pieces = []
            pos = 0
            for start, end in self.matcher.spans(text):
                pieces.append(text[pos:start])
                pieces.append(_C_MATCH + text[start:end] + _C_END)
                pos = end
            pieces.append(text[pos:])
            await self.emit(self.codec.encode(self.prefix(name, lineno, offset, ":") + "".join(pieces)) + eol)
            return
        prefix = self.prefix(name, lineno, offset, ":")
        if prefix:
            await self.emit(self.codec.encode(prefix) + line_bytes + eol)
        else:
            await self.emit(line_bytes + eol)

    async def after_file(self, name: str, count: int) -> None:
        o = self.o
        if o.quiet:
            return
        shown = (_C_FILE + name + _C_END) if o.color else name
        if o.count:
            if self.show_name:
                sep = "\0" if o.null_after_name else ((_C_SEP + ":" + _C_END) if o.color else ":")
                await self.emit(self.codec.encode(f"{shown}{sep}{count}\n"))
            else:
                await self.emit(f"{count}\n".encode())
        if (o.list_files == "l" and count) or (o.list_files == "L" and not count):
            end = "\0" if o.null_after_name else "\n"
            await self.emit(self.codec.encode(shown + end))

    # ------------------------------------------------------------------ files and trees
    def _included(self, path: str, command_line: bool) -> bool:
        base = path.rstrip("/").rsplit("/", 1)[-1]
        o = self.o
        for pat in o.excludes:
            if fnmatch(pat, base) or (command_line and excluded(pat, path)):
                return False
        if o.includes:
            return any(fnmatch(pat, base) for pat in o.includes)
        return True

    async def operand(self, path: str, display: str | None = None, command_line: bool = True) -> None:
        ctx = self.ctx
        o = self.o
        name = display if display is not None else path
        if path == "-" and command_line:
            await self.search(ctx.stdin, o.label)
            return
        fs = ctx.fs
        try:
            st = fs.stat(path, cwd=ctx.cwd)
        except FSError as e:
            if not command_line:
                try:
                    fs.lstat(path, cwd=ctx.cwd)
                    return  # dangling symlink met while recursing: GNU skips it silently
                except FSError:
                    pass
            await self.file_error(name, e.strerror)
            return
        if stat_mod.S_ISDIR(st.st_mode):
            if o.directories == "skip":
                return
            if o.directories == "recurse":
                # GNU: a directory met while recursing by its name, an operand as written
                # (`.` too: --exclude-dir='.*' skips `grep -r x .`, not `grep -r x`)
                if command_line:
                    skip = any(excluded(p, path) for p in o.exclude_dirs)
                else:
                    skip = any(fnmatch(p, path.rstrip("/").rsplit("/", 1)[-1]) for p in o.exclude_dirs)
                if skip:
                    return
                await self.recurse(path, name)
                return
            await self.file_error(name, "Is a directory")
            return
        if not self._included(path, command_line):
            return
        if not stat_mod.S_ISREG(st.st_mode) and not command_line:
            return  # devices, fifos met while recursing
        try:
            inp = ctx.open_input(path)
        except FSError as e:
            await self.file_error(name, e.strerror)
            return
        try:
            await self.search(inp, name)
        except FSError as e:
            await self.file_error(name, e.strerror)

    async def recurse(self, path: str, name: str) -> None:
        ctx = self.ctx
        try:
            ino = ctx.fs.stat(path, cwd=ctx.cwd).st_ino
            entries = ctx.fs.scandir(path, cwd=ctx.cwd)
        except FSError as e:
            await self.file_error(name, e.strerror)
            return
        if ino in self.active_dirs:  # -R through a symlink to an enclosing directory
            if not self.o.no_messages:
                await self.message(f"{name}: warning: recursive directory loop")
            return
        self.active_dirs.add(ino)
        try:
            await self._recurse_entries(path, name, entries)
        finally:
            self.active_dirs.discard(ino)

    async def _recurse_entries(self, path: str, name: str, entries) -> None:
        ctx = self.ctx
        for entry, st in entries:
            if self.stop_all:
                return
            await ctx.checkpoint()
            child = path.rstrip("/") + "/" + entry if path != "/" else "/" + entry
            child_name = (name.rstrip("/") + "/" + entry) if name else entry
            if stat_mod.S_ISLNK(st.st_mode) and not self.o.deref:
                continue
            await self.operand(child, child_name, command_line=False)


@command("grep", "egrep", "fgrep", help=GREP_HELP)
async def grep(ctx: CommandContext) -> int:
    try:
        o, operands = await _parse(ctx)
    except _Fatal as e:
        await ctx.error(str(e))
        return 2
    except _Version:
        await ctx.out("grep (GNU grep) 3.8 (sandbox_kernel)\n")
        return 0
    if ctx.name == "egrep" and o.mode == "G":
        o.mode = "E"
    elif ctx.name == "fgrep" and o.mode == "G":
        o.mode = "F"
    codec = TextCodec.for_env(ctx.env)
    o.patterns = [codec.arg(p) for p in o.patterns]
    if o.group_separator is not None:
        o.group_separator = codec.arg(o.group_separator)
    try:
        matcher = _Matcher(o, ascii=codec.bytes_mode)
        matcher.build_line_selector(o)
    except RegexError as e:
        await ctx.error(str(e))
        return 2
    except _Fatal as e:
        await ctx.error(str(e))
        return 2
    matcher.bind(Bounds.of(ctx))
    g = _Grep(ctx, o, matcher, codec)
    recursive = o.directories == "recurse"
    if not operands:
        operands = ["."] if recursive else ["-"]
        implicit_dot = recursive
    else:
        implicit_dot = False
    if o.with_filename is None:
        # GNU names files when there are several, or when it searches a directory tree
        g.show_name = len(operands) > 1 or implicit_dot or (
            recursive and any(op != "-" and ctx.fs.is_dir(op, cwd=ctx.cwd) for op in operands))
    else:
        g.show_name = o.with_filename
    try:
        for path in operands:
            if g.stop_all:
                break
            if implicit_dot:
                await g.recurse(".", "")
            else:
                await g.operand(path)
    except RegexStopped as e:
        await g.flush()
        shown = "', '".join(o.patterns)
        await ctx.error(f"regular expression '{shown}' stopped: {e.describe()}")
        ctx.check()
        return 2
    except LineTooLong:
        await g.flush()
        await ctx.error("memory exhausted")
        return 2
    await g.flush()
    if o.quiet and g.selected_any:
        return 0
    if g.error:
        return 2
    return 0 if g.selected_any else 1
