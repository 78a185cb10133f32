"""sort: GNU sort in the C locale (byte order), with keys, all ordering types and -c/-u/-m/-o.

Ordering is done with key functions only: the lines are sorted once per key, last key first,
after an initial sort by the whole line (GNU's last-resort comparison). Python's sort is
stable, including with ``reverse=True``, so this gives the same order as GNU's multi-key
comparison, with each key reversed on its own.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable

from .. import memory
from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.textio import Fail, run_guarded, std_output_for
from ._lib.versionsort import version_key
from .options import argmatch, getopt
from .registry import CommandContext, command

SORT_HELP = """\
Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Ordering options:
  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    accepted and ignored (everything is in memory)
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  accepted and ignored
      --parallel=N          accepted and ignored
  -u, --unique              output only the first of lines with equal keys
  -z, --zero-terminated     line delimiter is NUL, not newline
      --files0-from=F       read input from the files named by NUL-terminated names in F
      --help                display this help and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  If neither -t nor -b is in
effect, characters in a field are counted from the beginning of the preceding
whitespace.  OPTS is one or more single-letter ordering options [bdfghiMnRrV],
which override global ordering options for that key.  If no key is given, use
the entire line as the key.

The locale is always C: bytes compare by their value."""

_ORDER_FLAGS = "bdfghiMnRrV"
_BLANKS = b" \t\n"
_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NOT_DICT = bytes(c for c in range(256) if not (chr(c).isascii() and (chr(c).isalnum() or c in _BLANKS)))
_NOT_PRINT = bytes(c for c in range(256) if not 0x20 <= c < 0x7F)
_MONTHS = {m.encode(): i for i, m in enumerate(
    "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split(), start=1)}


@dataclass
class Key:
    sword: int = 0            # fields to skip before the key (0-based start field)
    schar: int = 0            # characters to skip within the start field
    eword: int | None = None  # None: to end of line; else 0-based end field
    echar: int = 0            # 0: to the end of the end field
    skip_start_blanks: bool = False
    skip_end_blanks: bool = False
    flags: set[str] = field(default_factory=set)  # ordering letters other than b

    def is_default(self) -> bool:
        return not self.flags and not self.skip_start_blanks and not self.skip_end_blanks


def _parse_keydef(spec: str) -> Key:
    key = Key()

    def number(text: str, pos: int, what: str) -> tuple[int, int]:
        m = re.compile(r"\s*\+?([0-9]+)").match(text, pos)
        if not m:
            raise Fail(f"{what}: invalid count at start of {quote(text[pos:], 'locale')}", 2)
        return int(m.group(1)), m.end()

    def modifiers(text: str, pos: int, end_side: bool) -> int:
        while pos < len(text) and text[pos] in _ORDER_FLAGS:
            c = text[pos]
            if c == "b":
                if end_side:
                    key.skip_end_blanks = True
                else:
                    key.skip_start_blanks = True
            else:
                key.flags.add(c)
            pos += 1
        return pos

    n, pos = number(spec, 0, "invalid number at field start")
    if n == 0:
        raise Fail(f"field number is zero: invalid field specification {quote(spec, 'locale')}", 2)
    key.sword = n - 1
    if pos < len(spec) and spec[pos] == ".":
        n, pos = number(spec, pos + 1, "invalid number after '.'")
        if n == 0:
            raise Fail(f"character offset is zero: invalid field specification {quote(spec, 'locale')}", 2)
        key.schar = n - 1
    pos = modifiers(spec, pos, False)
    if pos < len(spec) and spec[pos] == ",":
        n, pos = number(spec, pos + 1, "invalid number after ','")
        if n == 0:
            raise Fail(f"field number is zero: invalid field specification {quote(spec, 'locale')}", 2)
        key.eword = n - 1
        if pos < len(spec) and spec[pos] == ".":
            key.echar, pos = number(spec, pos + 1, "invalid number after '.'")
        pos = modifiers(spec, pos, True)
    if pos != len(spec):
        raise Fail(f"stray character in field spec: invalid field specification {quote(spec, 'locale')}", 2)
    return key


# ---- extracting a key's text from a line (GNU begfield/limfield) ----



def _make_extractor(key: Key, tab: bytes | None) -> Callable[[bytes], bytes] | None:
    sword, schar, eword, echar = key.sword, key.schar, key.eword, key.echar
    sblank, eblank = key.skip_start_blanks, key.skip_end_blanks

    if tab is not None and schar == 0 and echar == 0 and not sblank and eword is not None:
        if eword == sword:  # -tX -kN,N: exactly field N
            def one_field(line: bytes, n=sword, t=tab) -> bytes:
                parts = line.split(t, n + 1)
                return parts[n] if len(parts) > n else b""
            return one_field
    if key.sword == 0 and schar == 0 and eword is None and not sblank:
        return None  # the whole line

    def skip_blanks(line: bytes, pos: int, lim: int) -> int:
        while pos < lim and line[pos] in _BLANKS:
            pos += 1
        return pos

    if tab is None:
        # end of the k-th blank-led field, in one regex call per position
        field = rb"[ \t\n]*[^ \t\n]+(?![^ \t\n])"  # a whole field: never split a word
        skip_beg = re.compile(rb"(?:%s){%d}" % (field, sword)) if sword else None
        end_field = eword + 1 if eword is not None and echar == 0 else eword
        skip_end = re.compile(rb"(?:%s){%d}" % (field, end_field)) if end_field else None

        def field_end(line: bytes, rx) -> int:
            if rx is None:
                return 0
            m = rx.match(line)
            return m.end() if m else len(line)

        def extract(line: bytes) -> bytes:
            lim = len(line)
            beg = field_end(line, skip_beg)
            if sblank:
                beg = skip_blanks(line, beg, lim)
            beg = min(lim, beg + schar)
            if eword is None:
                end = lim
            elif echar == 0:
                end = field_end(line, skip_end)
            else:
                end = field_end(line, skip_end)
                if eblank:
                    end = skip_blanks(line, end, lim)
                end = min(lim, end + echar)
            return line[beg:end] if end > beg else b""
        return extract

    t = tab[0]

    def tab_positions(line: bytes, count: int) -> list[int]:
        out = []
        pos = line.find(t)
        while pos >= 0 and len(out) < count:
            out.append(pos)
            pos = line.find(t, pos + 1)
        return out

    def extract_tab(line: bytes) -> bytes:
        lim = len(line)
        need = max(sword, (eword + 1) if eword is not None else 0)
        tabs = tab_positions(line, need)
        beg = (tabs[sword - 1] + 1 if sword <= len(tabs) else lim) if sword else 0
        if sblank:
            beg = skip_blanks(line, beg, lim)
        beg = min(lim, beg + schar)
        if eword is None:
            end = lim
        elif echar == 0:
            end = tabs[eword] if eword < len(tabs) else lim
        else:
            end = (tabs[eword - 1] + 1 if eword <= len(tabs) else lim) if eword else 0
            if eblank:
                end = skip_blanks(line, end, lim)
            end = min(lim, end + echar)
        return line[beg:end] if end > beg else b""
    return extract_tab


# ---- ordering values ----

_NUM = re.compile(rb"[ \t\n]*(-?)(\d*)(?:\.(\d*))?")


def numeric_value(text: bytes):
    """GNU -n: optional '-', digits, optional fraction; anything else counts as 0."""
    if isdigits(text):
        return int(text)
    # fast path: a plain integer token (after blanks) followed by whitespace or the end
    stripped = text.lstrip(b" \t\n")
    if isdigits(stripped[:1]) or stripped[:1] == b"-":
        token = stripped.split(None, 1)[0] if stripped else b""
        if isdigits(token):
            return int(token)
        if token[:1] == b"-" and isdigits(token[1:]):
            return -int(token[1:])
    m = _NUM.match(text)
    sign, whole, frac = m.group(1), m.group(2), m.group(3)
    if not whole and not frac:
        return 0
    if frac is None and len(whole) < 18:
        v = int(whole)
        return -v if sign else v
    return Decimal((sign + (whole or b"0") + b"." + (frac or b"0")).decode())


_GNUM = re.compile(
    rb"[ \t\n\r\x0b\x0c]*([+-]?)(?:(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?)"
    rb"|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|([iI][nN][fF](?:[iI][nN][iI][tT][yY])?)|([nN][aA][nN]))")


def general_value(text: bytes) -> tuple:
    """GNU -g (strtold): conversion failures first, then NaNs, then numbers."""
    m = _GNUM.match(text)
    if not m:
        return (0, 0.0)
    sign, hexnum, dec, inf, nan = m.groups()
    if nan:
        # GNU orders NaNs by their bytes: +nan before -nan
        return (1, 1.0 if sign == b"-" else 0.0)
    if inf:
        v = float("inf")
    elif hexnum:
        body = hexnum.decode()
        if "p" not in body.lower():
            body += "p0"
        v = float.fromhex(body)
    else:
        try:
            v = float(dec)
        except ValueError:
            return (0, 0.0)
    return (2, -v if sign == b"-" else v)


_HUMAN = re.compile(rb"[ \t\n]*(-?)(\d*)(?:\.(\d*))?([KMGTPEZYRQk]?)")
_UNIT_ORDER = {b"": 0, b"k": 1, b"K": 1, b"M": 2, b"G": 3, b"T": 4, b"P": 5, b"E": 6,
               b"Z": 7, b"Y": 8, b"R": 9, b"Q": 10}


def human_value(text: bytes) -> tuple:
    m = _HUMAN.match(text)
    sign, whole, frac, unit = m.groups()
    if not whole and not frac:
        return (0, 0)
    value = numeric_value(text[m.start(1):m.end(3) if m.end(3) >= 0 else m.end(2)])
    order = _UNIT_ORDER[unit] if (whole or frac) else 0
    return (-order if sign else order, value)


def month_value(text: bytes) -> int:
    return _MONTHS.get(text.lstrip(_BLANKS)[:3].upper(), 0)


def _transform(flags: set[str]) -> Callable[[bytes], object] | None:
    """The ordering value of a key's text, or None when the text itself is the value."""
    delete = _NOT_DICT if "d" in flags else _NOT_PRINT if "i" in flags else None
    fold = "f" in flags
    if "n" in flags:
        return numeric_value
    if "g" in flags:
        return general_value
    if "h" in flags:
        return human_value
    if "M" in flags:
        return month_value
    if "V" in flags:
        return version_key
    if delete is not None and fold:
        return lambda s: s.translate(_UPPER, delete)
    if delete is not None:
        return lambda s: s.translate(None, delete)
    if fold:
        return lambda s: s.translate(_UPPER)
    return None


class Sorter:
    def __init__(self, keys: list[Key], tab: bytes | None, stable: bool, unique: bool,
                 reverse: bool, salt: bytes) -> None:
        self.keys = keys
        self.last_resort = not (stable or unique)
        self.reverse = reverse
        self.funcs: list[tuple[Callable[[bytes], object], bool]] = []
        for key in keys:
            extract = _make_extractor(key, tab)
            value = _transform(key.flags)
            if "R" in key.flags:
                base = value or (lambda s: s)

                def value(s, base=base, salt=salt):  # equal keys hash alike: grouped, random order
                    return hashlib.md5(salt + repr(base(s)).encode()).digest()
            if extract is None:
                func = value or _whole_line
            elif value is None:
                func = extract
            else:
                func = (lambda line, e=extract, v=value: v(e(line)))
            self.funcs.append((func, "r" in key.flags))

    def sort(self, lines: list[bytes], ctx: CommandContext) -> list[bytes]:
        if self.last_resort or not self.funcs:
            lines.sort(reverse=self.reverse)
        for func, rev in reversed(self.funcs):
            ctx.check()
            lines.sort(key=func, reverse=rev)
        return lines

    def compare(self, a: bytes, b: bytes, last_resort: bool | None = None) -> int:
        for func, rev in self.funcs:
            ka, kb = func(a), func(b)
            if ka != kb:
                c = -1 if ka < kb else 1
                return -c if rev else c
        if (self.last_resort if last_resort is None else last_resort) and a != b:
            c = -1 if a < b else 1
            return -c if self.reverse else c
        return 0


def _whole_line(line: bytes) -> bytes:
    return line


def _check_compatible(key: Key) -> None:
    f = key.flags
    numeric_kinds = sum(c in f for c in "nghM") + bool({"V", "R", "d", "i"} & f)
    if numeric_kinds > 1 or ("R" in f and "f" in f):
        letters = ("b" if key.skip_start_blanks or key.skip_end_blanks else "") + \
            "".join(c for c in "dfghiMnRrV" if c in f)
        raise Fail(f"options '-{letters}' are incompatible", 2)


@command("sort", help=SORT_HELP)
@run_guarded
async def sort(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "bcCdfghik:mMno:rRsS:t:T:uVz", {
        "ignore-leading-blanks": "b", "check==": "c", "dictionary-order": "d",
        "ignore-case": "f", "general-numeric-sort": "g", "human-numeric-sort": "h",
        "ignore-nonprinting": "i", "key=": "k", "merge": "m", "month-sort": "M",
        "numeric-sort": "n", "output=": "o", "reverse": "r", "random-sort": "R",
        "random-source=": None, "stable": "s", "buffer-size=": "S", "field-separator=": "t",
        "temporary-directory=": "T", "unique": "u", "version-sort": "V",
        "zero-terminated": "z", "sort=": None, "parallel=": None, "files0-from=": None,
        "batch-size=": None, "compress-program=": None}, status=2)
    global_key = Key()
    keys: list[Key] = []
    check = None
    output = None
    stable = unique = merge = False
    tab: bytes | None = None
    sep = b"\n"
    files0 = None
    random_source = None
    sort_words = {"general-numeric": "g", "human-numeric": "h", "month": "M", "numeric": "n",
                  "random": "R", "version": "V"}
    for opt, val in opts:
        if opt in "dfghiMnRrV" and len(opt) == 1:
            global_key.flags.add(opt)
        elif opt == "b":
            global_key.skip_start_blanks = global_key.skip_end_blanks = True
        elif opt == "sort":
            global_key.flags.add(argmatch(val, sort_words, "--sort"))
        elif opt == "c":
            check = argmatch(val, {"quiet": "quiet", "silent": "quiet", "diagnose-first": "diagnose"},
                             "--check") if val is not None else "diagnose"
        elif opt == "C":
            check = "quiet"
        elif opt == "k":
            keys.append(_parse_keydef(val))
        elif opt == "o":
            if output is not None and output != val:
                raise Fail("multiple output files specified", 2)
            output = val
        elif opt == "s":
            stable = True
        elif opt == "m":
            merge = True
        elif opt == "u":
            unique = True
        elif opt == "t":
            raw = val.encode("utf-8", "surrogateescape")
            if raw == b"\\0":
                raw = b"\0"
            if len(raw) != 1:
                raise Fail("empty tab" if not raw else f"multi-character tab {quote(val, 'locale')}", 2)
            if tab is not None and tab != raw:
                raise Fail("incompatible tabs", 2)
            tab = raw
        elif opt == "z":
            sep = b"\0"
        elif opt == "files0-from":
            files0 = val
        elif opt == "random-source":
            random_source = val
    _check_compatible(global_key)
    for key in keys:
        _check_compatible(key)
    reverse = "r" in global_key.flags
    if not keys:
        keys = [Key(skip_start_blanks=global_key.skip_start_blanks,
                    skip_end_blanks=global_key.skip_end_blanks, flags=set(global_key.flags))]
        if keys[0].is_default() or keys[0].flags == {"r"}:
            keys = []
    else:
        for key in keys:
            if key.is_default():
                key.flags = set(global_key.flags)
                key.skip_start_blanks = global_key.skip_start_blanks
                key.skip_end_blanks = global_key.skip_end_blanks
    if files0 is not None:
        if files:
            raise Fail(f"extra operand {quote(files[0], 'locale')}\nfile operands cannot be combined "
                       "with --files0-from\nTry 'sort --help' for more information.", 2)
        try:
            names = (await ctx.open_input(files0).read()).split(b"\0")
        except FSError as e:
            raise Fail(f"open failed: {quote(files0)}: {e.strerror}", 2)
        files = [n.decode("utf-8", "surrogateescape") for n in names if n]
    if check and len(files) > 1:
        raise Fail(f"extra operand {quote(files[1], 'locale')} not allowed with -c", 2)
    if random_source is not None:
        try:
            salt = ctx.read_file(random_source)[:64] if random_source != "-" else b""
        except FSError as e:
            raise Fail(f"{quote(random_source, 'shell-escape', colon=True)}: {e.strerror}", 2)
    else:
        salt = ctx.fs.random_bytes(16)
    sorter = Sorter(keys, tab, stable, unique, reverse, salt)

    lines: list[bytes] = []
    runs: list[list[bytes]] = []  # one per input, for -m
    total = 0  # bytes read: what the sorted output will take
    for name in files or ["-"]:
        try:
            if name != "-" and ctx.fs.is_dir(name, cwd=ctx.cwd):
                raise Fail(f"read failed: {quote(name, 'shell-escape', colon=True)}: Is a directory", 2)
            data = await ctx.open_input(name).read_all(sep)  # counts the lines it will keep
        except FSError as e:
            raise Fail(f"cannot read: {quote(name, 'shell-escape', colon=True)}: {e.strerror}", 2)
        total += len(data)
        if data:
            part = data.split(sep)
            if part[-1] == b"":
                part.pop()
            lines.extend(part)
            runs.append(part)
        await ctx.checkpoint()

    if check:
        label = files[0] if files else "-"
        for i in range(1, len(lines)):
            c = sorter.compare(lines[i - 1], lines[i])
            if c > 0 or (unique and c == 0):
                if check == "diagnose":
                    shown = lines[i].decode("utf-8", "surrogateescape")
                    await ctx.error(f"{label}:{i + 1}: disorder: {shown}")
                return 1
            if i % 4096 == 0:
                await ctx.checkpoint()
        return 0

    if merge and len(runs) > 1:
        import functools
        import heapq
        lines = list(heapq.merge(*runs, key=functools.cmp_to_key(sorter.compare)))
    else:
        if sorter.funcs:
            memory.charge(len(lines) * memory.LINE_COST)  # a key per line
        lines = sorter.sort(lines, ctx)
    runs.clear()
    await ctx.checkpoint()
    if unique and lines:
        kept = [lines[0]]
        if sorter.funcs:
            funcs = [f for f, _ in sorter.funcs]
            prev = tuple(f(lines[0]) for f in funcs)
            for line in lines[1:]:
                cur = tuple(f(line) for f in funcs)
                if cur != prev:
                    kept.append(line)
                    prev = cur
        else:
            prev_line = lines[0]
            for line in lines[1:]:
                if line != prev_line:
                    kept.append(line)
                    prev_line = line
        lines = kept
    memory.need(total + len(lines) * memory.JOIN_PART_COST)  # the output, and join's view of each line
    if lines:
        lines.append(b"")  # the last separator, without a second copy of the output
    data = sep.join(lines)
    del lines  # the output is all that is needed now
    std = std_output_for(ctx, output) if output is not None else None
    if output is not None and output != "-" and std is None:
        try:
            handle = ctx.fs.open(output, "wb", cwd=ctx.cwd)
        except FSError as e:
            raise Fail(f"open failed: {output}: {e.strerror}", 2)
        try:
            handle.write(data)
        except FSError as e:
            raise Fail(f"write failed: {output}: {e.strerror}", 2)
        finally:
            handle.close()
        return 0
    step = 1 << 20
    for start in range(0, len(data), step):
        await (std or ctx.stdout).write(data[start:start + step])
        await ctx.checkpoint()
    return 0
