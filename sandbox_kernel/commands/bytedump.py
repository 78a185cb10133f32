"""Byte dumps: od (GNU coreutils), xxd (vim's, including -r), hexdump (util-linux)."""
from __future__ import annotations

import math
import re
import struct

from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.sizes import parse_size
from .options import UsageError, getopt
from .registry import CommandContext, command

class _ConcatInput:
    """Reads the named files one after another, like od and hexdump do; ``quoting`` is how
    the command shows a name it cannot open (od: GNU's quotef, hexdump: as given)."""

    def __init__(self, ctx: CommandContext, files: list[str], quoting: str = "shell-escape") -> None:
        self.ctx = ctx
        self.quoting = quoting
        self.files = list(files) or ["-"]
        self.current = None
        self.failed = False
        self.buf = b""

    async def _next_stream(self) -> bool:
        while self.files:
            name = self.files.pop(0)
            try:
                self.current = self.ctx.open_input(name)
                return True
            except FSError as e:
                await self.ctx.error(f"{quote(name, self.quoting, colon=True)}: {e.strerror}")
                self.failed = True
        self.current = None
        return False

    async def read(self, n: int) -> bytes:
        while len(self.buf) < n:
            if self.current is None and not await self._next_stream():
                break
            try:
                chunk = await self.current.read_some()
            except FSError as e:
                await self.ctx.error(f"{e.filename}: {e.strerror}")
                self.failed = True
                chunk = b""
            if not chunk:
                self.current = None
                continue
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    async def skip(self, n: int) -> int:
        skipped = 0
        while skipped < n:
            chunk = await self.read(min(65536, n - skipped))
            if not chunk:
                break
            skipped += len(chunk)
        return skipped


class _Blocks:
    """od/hexdump's reading loop: blocks of ``width`` bytes up to ``limit`` in all; with
    ``squeeze``, a run of full blocks equal to the one before shows as one ``*`` line."""

    def __init__(self, source: _ConcatInput, offset: int, width: int, limit: int | None,
                 squeeze: bool) -> None:
        self.source = source
        self.offset = offset  # where the next block starts; the end address once done
        self.width = width
        self.limit = limit
        self.squeeze = squeeze

    async def each(self, ctx: CommandContext):
        """Yield (offset, block) for each block to print."""
        remaining = self.limit
        prev = None
        starred = False
        while True:
            want = self.width if remaining is None else min(self.width, remaining)
            block = await self.source.read(want) if want else b""
            if not block:
                break
            if remaining is not None:
                remaining -= len(block)
            if self.squeeze and block == prev and len(block) == self.width:
                if not starred:
                    await ctx.out("*\n")
                    starred = True
                self.offset += len(block)
                continue
            starred = False
            prev = block
            yield self.offset, block
            self.offset += len(block)
            await ctx.checkpoint()


# ============================================================================ od

OD_HELP = """Usage: od [OPTION]... [FILE]...
Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -S BYTES, --strings[=BYTES]  output strings of at least BYTES graphic chars;
                                3 is implied when BYTES is not specified
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified

Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units

TYPE is made up of one or more of these specifications:
  a          named character, ignoring high-order bit
  c          printable character or backslash escape
  d[SIZE]    signed decimal, SIZE bytes per integer
  f[SIZE]    floating point, SIZE bytes per float
  o[SIZE]    octal, SIZE bytes per integer
  u[SIZE]    unsigned decimal, SIZE bytes per integer
  x[SIZE]    hexadecimal, SIZE bytes per integer

SIZE is a number.  For TYPE in [doux], SIZE may also be C for sizeof(char),
S for sizeof(short), I for sizeof(int) or L for sizeof(long).  For TYPE in f,
SIZE may also be F for sizeof(float), D for sizeof(double), or L for
sizeof(long double).

Adding a z suffix to any type displays printable characters at the end of
each output line.
"""

_NAMED = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff",
          "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em",
          "sub", "esc", "fs", "gs", "rs", "us", "sp"]
_C_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}
_INT_WIDTH = {("o", 1): 3, ("o", 2): 6, ("o", 4): 11, ("o", 8): 22,
              ("x", 1): 2, ("x", 2): 4, ("x", 4): 8, ("x", 8): 16,
              ("u", 1): 3, ("u", 2): 5, ("u", 4): 10, ("u", 8): 20,
              ("d", 1): 4, ("d", 2): 6, ("d", 4): 11, ("d", 8): 20}
_SIZE_LETTERS = {"C": 1, "S": 2, "I": 4, "L": 8}
_FLOAT_LETTERS = {"F": 4, "D": 8, "L": 8}


class _Spec:
    def __init__(self, kind: str, size: int, show_chars: bool) -> None:
        self.kind = kind
        self.size = size
        self.show_chars = show_chars
        if kind in ("a", "c"):
            self.width = 3
        elif kind == "f":
            self.width = 15 if size == 4 else 24
        else:
            self.width = _INT_WIDTH[(kind, size)]
        self.pad = 0

    def values(self, block: bytes) -> list[str]:
        k, size = self.kind, self.size
        if k == "a":
            return [_NAMED[b & 0x7F] if (b & 0x7F) <= 32 else ("del" if (b & 0x7F) == 127 else chr(b & 0x7F))
                    for b in block]
        if k == "c":
            out = []
            for b in block:
                if b in _C_ESCAPES:
                    out.append(_C_ESCAPES[b])
                elif 32 <= b < 127:
                    out.append(chr(b))
                else:
                    out.append(f"{b:03o}")
            return out
        count = (len(block) + size - 1) // size
        padded = block + b"\0" * (count * size - len(block))
        if k == "f":
            fmt = "<" + ("f" if size == 4 else "d") * count
            return [_float_text(v, size) for v in struct.unpack(fmt, padded)]
        letter = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
        if k == "d":
            letter = letter.lower()
        nums = struct.unpack("<" + letter * count, padded)
        if k == "o":
            return [f"{n:0{self.width}o}" for n in nums]
        if k == "x":
            return [f"{n:0{self.width}x}" for n in nums]
        return [str(n) for n in nums]


def _float_text(value: float, size: int) -> str:
    if value != value:
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    # like gnulib's ftoastr: the shortest precision from DIG up that reads back exactly
    tiny = 0 < abs(value) < (2.2250738585072014e-308 if size == 8 else 1.1754943508222875e-38)
    if size == 8:
        for precision in range(1 if tiny else 15, 18):
            text = f"{value:.{precision}g}"
            if float(text) == value:
                return text
        return f"{value:.17g}"
    for precision in range(1 if tiny else 6, 10):
        text = f"{value:.{precision}g}"
        if struct.unpack("<f", struct.pack("<f", float(text)))[0] == value:
            return text
    return f"{value:.9g}"


def _type_size(text: str, i: int, default: int, letters: dict[str, int]) -> tuple[int, int]:
    """The size after a -t type letter (a size letter, a byte count or nothing), and where it ends."""
    if i < len(text) and text[i] in letters:
        return letters[text[i]], i + 1
    m = re.match(r"[0-9]+", text[i:])
    if m:
        return int(m.group()), i + len(m.group())
    return default, i


def _parse_type(text: str) -> list[_Spec] | None:
    specs = []
    i = 0
    while i < len(text):
        kind = text[i]
        i += 1
        if kind in "ac":
            size = 1
        elif kind in "doux":
            size, i = _type_size(text, i, 4, _SIZE_LETTERS)
            if size not in (1, 2, 4, 8):
                return None
        elif kind == "f":
            size, i = _type_size(text, i, 8, _FLOAT_LETTERS)
            if size not in (4, 8):
                return None
        else:
            return None
        show = False
        if i < len(text) and text[i] == "z":
            show = True
            i += 1
        specs.append(_Spec(kind, size, show))
    return specs


@command("od", help=OD_HELP)
async def od(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "A:j:N:t:vw::abcdfilosxBDeFHhILOXS:", {
        "address-radix=": "A", "skip-bytes=": "j", "read-bytes=": "N", "format=": "t",
        "output-duplicates": "v", "width==": "w", "traditional": None, "endian=": None,
        "strings==": "S"}, status=1)
    radix = "o"
    skip = 0
    limit = None
    min_string = None
    specs: list[_Spec] = []
    duplicates = False
    width = 16
    traditional = {"a": "a", "b": "o1", "c": "c", "d": "u2", "f": "fF", "i": "dI", "l": "dL",
                   "o": "o2", "s": "d2", "x": "x2",
                   # GNU's undocumented older letters (BusyBox's od has them too)
                   "B": "o2", "D": "u4", "e": "fD", "F": "fD", "H": "x4", "h": "x2", "I": "dL",
                   "L": "dL", "O": "o4", "X": "x4"}
    for o, v in opts:
        if o == "A":
            if v not in ("d", "o", "x", "n"):
                await ctx.error(
                    f"invalid output address radix {quote(v, 'locale')}; it must be one character from [doxn]"
                )
                return 1
            radix = v
        elif o == "j":
            skip = parse_size(v, c_syntax=True)
            if skip is None:
                await ctx.error(f"invalid --skip-bytes argument {quote(v, 'locale')}")
                return 1
        elif o == "N":
            limit = parse_size(v, c_syntax=True)
            if limit is None:
                await ctx.error(f"invalid --read-bytes argument {quote(v, 'locale')}")
                return 1
        elif o == "t":
            parsed = _parse_type(v)
            if parsed is None:
                await ctx.error(f"invalid type string {quote(v, 'locale')}")
                return 1
            specs += parsed
        elif o == "v":
            duplicates = True
        elif o == "w":
            if v is None:
                width = 32
            else:
                parsed_width = parse_size(v, c_syntax=True)
                if not parsed_width:
                    await ctx.error(f"invalid --width argument {quote(v, 'locale')}")
                    return 1
                width = parsed_width
        elif o in traditional:
            specs += _parse_type(traditional[o])
        elif o == "S":
            min_string = 3 if v is None else parse_size(v, c_syntax=True)
            if min_string is None:
                await ctx.error(f"invalid --strings argument {quote(v, 'locale')}")
                return 1
    if min_string is not None:
        return await _od_strings(ctx, files, skip, limit, radix, min_string)
    if not specs:
        specs = _parse_type("o2")
    lcm = 1
    for s in specs:
        lcm = lcm * s.size // _gcd(lcm, s.size)
    if width % lcm:
        await ctx.error(f"invalid --width argument {quote(width, 'locale')}")
        return 1
    per_block = max((width // s.size) * (s.width + 1) for s in specs)
    for s in specs:
        s.pad = per_block - (width // s.size) * s.width
    source = _ConcatInput(ctx, files)
    skipped = await source.skip(skip)
    if skipped < skip:
        await ctx.error("cannot skip past end of combined input")
        return 1
    blocks = _Blocks(source, skip, width, limit, not duplicates)
    address_width = {"o": 7, "d": 7, "x": 6, "n": 0}[radix]

    def address(n: int) -> str:
        if radix == "n":
            return ""
        return f"{n:0{address_width}{'o' if radix == 'o' else 'd' if radix == 'd' else 'x'}}"

    async for offset, block in blocks.each(ctx):
        lines = []
        for n, s in enumerate(specs):
            values = s.values(block)
            fields_per_block = width // s.size
            text = _spread(values, s.width, s.pad, fields_per_block)
            if s.show_chars:
                used = len(text)
                full = per_block
                text += " " * (full - used) + "  >" + "".join(
                    chr(b) if 32 <= b < 127 else "." for b in block) + "<"
            prefix = address(offset) if n == 0 else " " * len(address(offset))
            lines.append(prefix + text)
        await ctx.out("\n".join(lines) + "\n")
    offset = blocks.offset
    if radix != "n" and not (source.failed and offset == skip):
        await ctx.out(address(offset) + "\n")
    return 1 if source.failed else 0


async def _od_strings(ctx, files, skip, limit, radix, minimum) -> int:
    """od -S: NUL-terminated runs of at least ``minimum`` printable characters."""
    source = _ConcatInput(ctx, files)
    offset = await source.skip(skip)
    remaining = limit
    run = bytearray()
    start = offset
    fmt = {"o": "{:07o} ", "d": "{:07d} ", "x": "{:06x} ", "n": ""}[radix]
    while remaining is None or remaining > 0:
        chunk = await source.read(65536 if remaining is None else min(65536, remaining))
        if not chunk:
            break
        if remaining is not None:
            remaining -= len(chunk)
        for byte in chunk:
            if 32 <= byte < 127:
                if not run:
                    start = offset
                run.append(byte)
            else:
                if byte == 0 and len(run) >= minimum:
                    await ctx.out(fmt.format(start) + run.decode("ascii") + "\n")
                run.clear()
            offset += 1
        await ctx.checkpoint()
    return 1 if source.failed else 0


def _spread(values: list[str], width: int, pad: int, fields: int) -> str:
    """GNU od's placement: the block's padding is shared out among its fields."""
    parts = []
    pad_remaining = pad
    i = fields
    for value in values:
        next_pad = pad * (i - 1) // fields
        adjusted = pad_remaining - next_pad + width
        parts.append(value.rjust(adjusted))
        pad_remaining = next_pad
        i -= 1
    return "".join(parts)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


# ============================================================================ xxd (below), hexdump -e

#: util-linux's own definitions of the fixed displays, used when they mix with -e.
_KIND_FORMATS = {
    "b": ['"%07.7_Ax\n"', '"%07.7_ax " 16/1 "%03o " "\n"'],
    "c": ['"%07.7_Ax\n"', '"%07.7_ax " 16/1 "%3_c " "\n"'],
    "C": ['"%08.8_Ax\n"', '"%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x "', '"  |" 16/1 "%_p" "|\n"'],
    "d": ['"%07.7_Ax\n"', '"%07.7_ax " 8/2 "  %05u " "\n"'],
    "o": ['"%07.7_Ax\n"', '"%07.7_ax " 8/2 " %06o " "\n"'],
    "x": ['"%07.7_Ax\n"', '"%07.7_ax " 8/2 "   %04x " "\n"'],
}

_UNIT = re.compile(r'\s*([0-9]+)?\s*(?:/\s*([0-9]+))?\s*"((?:[^"\\]|\\.)*)"')
_CONV = re.compile(r"%([-+ #0]*)([0-9]*)(?:\.([0-9]+))?(_a[dox]|_A[dox]|_c|_p|_u|[diouxXeEfgGcs%])")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "a": "\a", "b": "\b", "f": "\f",
            "r": "\r", "v": "\v", "0": "\0"}
_DEFAULT_SIZE = {"d": 4, "i": 4, "o": 4, "u": 4, "x": 4, "X": 4, "e": 8, "E": 8, "f": 8, "g": 8,
                 "G": 8, "c": 1, "_c": 1, "_p": 1, "_u": 1}


class _FormatUnit:
    """``[iterations][/bytes] "text"`` of a hexdump format string."""

    def __init__(self, reps: int | None, bcount: int | None, text: str) -> None:
        self.explicit_reps = reps is not None
        self.reps = reps or 1
        self.items: list = []  # literal str, or (flags, width, precision, conv, size)
        pos = 0
        consumers = 0
        for m in _CONV.finditer(text):
            if m.start() > pos:
                self.items.append(text[pos:m.start()])
            flags, width, precision, conv = m.groups()
            pos = m.end()
            if conv == "%":
                self.items.append("%")
                continue
            if conv == "s":
                if bcount is None and precision is None:
                    raise ValueError("%s requires a precision or a byte count")
                size = bcount or int(precision)
            elif conv.startswith(("_a", "_A")):
                size = 0
            else:
                size = bcount or _DEFAULT_SIZE[conv]
                if conv in ("e", "E", "f", "g", "G") and size not in (4, 8) or \
                        conv in "diouxX" and size not in (1, 2, 4, 8):
                    raise ValueError(f"bad byte count for conversion character {conv}")
            if size:
                consumers += 1
            self.items.append((flags, width, precision, conv, size))
        if pos < len(text):
            self.items.append(text[pos:])
        if bcount is not None and consumers > 1:
            raise ValueError("byte count with multiple conversion characters")
        self.size = sum(item[4] for item in self.items if isinstance(item, tuple))
        self.deferred = any(isinstance(i, tuple) and i[3].startswith("_A") for i in self.items)
        # the trailing whitespace that the last repetition leaves out
        tail = self.items[-1] if self.items and isinstance(self.items[-1], str) else ""
        self.trailing_space = len(tail) - len(tail.rstrip())


def _parse_hexdump_format(text: str) -> list[_FormatUnit]:
    units = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        m = _UNIT.match(text, pos)
        if not m:
            raise ValueError(f"bad format {{{text}}}")
        raw = m.group(3)
        literal = re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(1)), raw)
        units.append(_FormatUnit(int(m.group(1)) if m.group(1) else None,
                                 int(m.group(2)) if m.group(2) else None, literal))
        pos = m.end()
    return units


_NAMED_LOW = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "lf", "vt", "ff",
              "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em",
              "sub", "esc", "fs", "gs", "rs", "us"]


def _render_conversion(item, data: bytes, address: int, pad: bool) -> bytes:
    flags, width, precision, conv, size = item
    if pad:
        # past the end of input: a blank of the same width (util-linux's bpad)
        spec = "%" + ("-" if "-" in flags else "") + width + "s"
        return (spec % "").encode()
    if conv.startswith(("_a", "_A")):
        spec = "%" + flags + width + ("." + precision if precision else "") + conv[2]
        return (spec % address).encode()
    if conv in ("c", "_c", "_p", "_u"):
        b = data[0]
        if conv == "c":
            return b" " * max(0, int(width or 0) - 1) + bytes([b]) if "-" not in flags else \
                bytes([b]) + b" " * max(0, int(width or 0) - 1)
        if conv == "_p":
            text = chr(b) if 32 <= b < 127 else "."
        elif conv == "_u":
            text = _NAMED_LOW[b] if b < 32 else "del" if b == 127 else chr(b) if b < 127 else f"{b:02x}"
        else:
            text = _C_ESCAPES.get(b) or (chr(b) if 32 <= b < 127 else f"{b:03o}")
        spec = "%" + ("-" if "-" in flags else "") + width + "s"
        return (spec % text).encode()
    if conv == "s":
        text = data[:size].split(b"\0")[0].decode("latin-1")
        spec = "%" + ("-" if "-" in flags else "") + width + "s"
        return (spec % text).encode("latin-1")
    if conv in "eEfgG":
        value = struct.unpack("<f" if size == 4 else "<d", data[:size])[0]
        if value != value:
            # C's printf shows the NaN's sign
            text = ("-" if math.copysign(1.0, value) < 0 else "") + ("NAN" if conv in "EG" else "nan")
            return (("%" + ("-" if "-" in flags else "") + width + "s") % text).encode()
    else:
        letter = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
        value = struct.unpack("<" + (letter.lower() if conv in "di" else letter), data[:size])[0]
    spec = "%" + flags + width + ("." + precision if precision is not None else "") + \
        ("d" if conv == "i" else "d" if conv == "u" else conv)
    return (spec % value).encode()


async def _hexdump_formats(ctx, files, program, skip, length, squeeze) -> int:
    sizes = [sum(u.reps * u.size for u in units) for units in program]
    blocksize = max(sizes + [1])
    for units, size in zip(program, sizes):
        # a final unit without an iteration count repeats to fill the block
        if units and size and size < blocksize and not units[-1].explicit_reps and units[-1].size:
            units[-1].reps += (blocksize - size) // units[-1].size
    source = _ConcatInput(ctx, files, "literal")
    blocks = _Blocks(source, await source.skip(skip), blocksize, length, squeeze)
    async for offset, block in blocks.each(ctx):
        end = offset + len(block)
        padded = block + b"\0" * (blocksize - len(block))
        out = []
        for units in program:
            pos = 0
            for unit in units:
                if unit.deferred:
                    continue
                for rep in range(unit.reps):
                    last = rep == unit.reps - 1 and unit.reps > 1
                    for n, item in enumerate(unit.items):
                        if isinstance(item, str):
                            text = item
                            if last and n == len(unit.items) - 1 and unit.trailing_space:
                                text = text[:len(text) - unit.trailing_space]
                            out.append(text.encode("latin-1", "replace"))
                            continue
                        address = offset + pos
                        data = padded[pos:pos + item[4]]
                        out.append(_render_conversion(item, data, address,
                                                      pad=address >= end and item[4] > 0))
                        pos += item[4]
        await ctx.stdout.write(b"".join(out))
    offset = blocks.offset
    # the end address (%_A) is shown once, by the last format string that has one
    tail = []
    ending = [units for units in program if any(u.deferred for u in units)]
    if ending and offset > 0:
        for unit in ending[-1]:
            if unit.deferred:
                for item in unit.items:
                    tail.append(item.encode("latin-1", "replace") if isinstance(item, str)
                                else _render_conversion(item, b"", offset, False))
    await ctx.stdout.write(b"".join(tail))
    return 1 if source.failed else 0


# ============================================================================ xxd

XXD_HELP = """Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -p          output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
"""


@command("xxd", help=XXD_HELP)
async def xxd(ctx: CommandContext) -> int:
    args = [("-ps" if a in ("-plain", "-postscript") else a) for a in ctx.args]
    args = ["-p" if a == "-ps" else a for a in args]
    try:
        opts, operands = getopt(args, "abc:eg:il:n:o:prs:uvC", {"include": "i", "revert": "r",
                                                                 "plain": "p", "version": "v"})
    except UsageError as e:
        await ctx.err(f"xxd: {e.message}\n")
        return 1
    cols = None
    group = None
    length = None
    seek = 0
    name = None
    display_offset = 0
    flags = set()
    for o, v in opts:
        if o == "c":
            cols = parse_size(v, c_syntax=True)
            if cols is None:
                await ctx.err("xxd: invalid number of columns (max. 256).\n")
                return 1
        elif o == "g":
            group = parse_size(v, c_syntax=True)
        elif o == "l":
            length = parse_size(v, c_syntax=True)
        elif o == "s":
            text = v.lstrip("+")
            negative = text.startswith("-")
            value = parse_size(text.lstrip("-"), c_syntax=True)
            if value is None:
                await ctx.err(f"xxd: invalid seek value '{v}'\n")
                return 1
            seek = -value if negative else value
        elif o == "n":
            name = v
        elif o == "o":
            display_offset = parse_size(v, c_syntax=True) or 0
        elif o == "v":
            await ctx.err("xxd 2022-01-14 by Juergen Weigert et al.\n")
            return 0
        else:
            flags.add(o)
    if len(operands) > 2:
        await ctx.err(XXD_HELP)
        return 1
    infile = operands[0] if operands else "-"
    streamable = not ({"r", "i", "a"} & flags) and seek >= 0 and len(operands) < 2
    if streamable:
        return await _xxd_stream(ctx, infile, flags, cols, group, seek, length, display_offset)
    try:
        if infile == "-":
            data = await ctx.stdin.read()
        else:
            data = ctx.fs.read_bytes(infile, cwd=ctx.cwd)
    except FSError as e:
        await ctx.err(f"xxd: {infile}: {e.strerror}\n")
        return 2
    if "r" in flags:
        try:
            out = _xxd_reverse(data, "p" in flags, cols or (30 if "p" in flags else 16), seek)
        except ValueError:
            out = b""
    else:
        if seek < 0:
            seek = max(0, len(data) + seek)
        data = data[seek:]
        if length is not None:
            data = data[:length]
        out = _xxd_render(data, flags, cols, group, seek + display_offset,
                          name if name is not None else (None if infile == "-" else infile), ctx.check)
    if len(operands) == 2:
        try:
            ctx.fs.write_bytes(operands[1], out, cwd=ctx.cwd)
        except FSError as e:
            await ctx.err(f"xxd: {operands[1]}: {e.strerror}\n")
            return 3
    else:
        await ctx.stdout.write(out)
    return 0


async def _xxd_stream(ctx, infile, flags, cols, group, seek, length, display_offset) -> int:
    """Plain and -p dumps, a block of whole lines at a time (``xxd big | head`` stops early)."""
    try:
        inp = ctx.open_input(infile)
    except FSError as e:
        await ctx.err(f"xxd: {infile}: {e.strerror}\n")
        return 2
    cols = cols or (30 if "p" in flags else 6 if "b" in flags else 16)
    block = cols * 256
    try:
        skipped = len(await inp.read(seek)) if seek else 0
        offset = skipped
        remaining = length
        while remaining is None or remaining > 0:
            want = block if remaining is None else min(block, remaining)
            data = await inp.read(want)
            if not data:
                break
            if remaining is not None:
                remaining -= len(data)
            await ctx.stdout.write(_xxd_render(data, flags, cols, group, offset + display_offset, None,
                                               ctx.check))
            offset += len(data)
            await ctx.checkpoint()
    except FSError as e:
        await ctx.err(f"xxd: {infile}: {e.strerror}\n")
        return 2
    return 0


def _xxd_render(data: bytes, flags: set, cols, group, start: int, varname: str | None,
                check=None) -> bytes:
    upper = "u" in flags
    hexfmt = "{:02X}" if upper else "{:02x}"
    if "p" in flags:
        cols = cols or 30
        text = "".join(hexfmt.format(b) for b in data)
        lines = [text[i:i + cols * 2] for i in range(0, len(text), cols * 2)]
        return "".join(line + "\n" for line in lines).encode()
    if "i" in flags:
        cols = cols or 12
        items = [("0X{:02X}" if upper else "0x{:02x}").format(b) for b in data]
        rows = [", ".join(items[i:i + cols]) for i in range(0, len(items), cols)]
        body = ",\n".join("  " + r for r in rows)
        if varname is None:
            return (body + "\n").encode() if body else b""
        ident = re.sub(r"[^0-9A-Za-z]", "_", varname)
        if isdigits(ident[:1]):
            ident = "__" + ident
        if "C" in flags:
            ident = ident.upper()
        text = f"unsigned char {ident}[] = {{\n"
        if body:
            text += body + "\n"
        text += f"}};\nunsigned int {ident}_len = {len(data)};\n"
        return text.encode()
    binary = "b" in flags
    cols = cols or (6 if binary else 16)
    if group is None:
        group = 1 if binary else 2
    digits = 8 if binary else 2
    lines = []
    hex_width = None
    for pos in range(0, len(data), cols):
        if check is not None and pos % (cols * 1024) == 0:
            check()
        chunk = data[pos:pos + cols]
        cells = [(f"{b:08b}" if binary else hexfmt.format(b)) for b in chunk]
        if group <= 0:
            groups = ["".join(cells)]
        else:
            groups = ["".join(cells[i:i + group]) for i in range(0, len(cells), group)]
        if hex_width is None:
            full_groups = 1 if group <= 0 else (cols + group - 1) // group
            hex_width = cols * digits + full_groups
        hex_part = " ".join(groups)
        ascii_part = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        text = f"{start + pos:08x}: {hex_part.ljust(hex_width)} {ascii_part}"
        lines.append((text, len(chunk) == cols and not chunk.strip(b"\0")))
    if "a" not in flags:
        return "".join(text + "\n" for text, _ in lines).encode()
    return _autoskip(lines, len(data) % cols == 0).encode()


def _autoskip(lines: list[tuple[str, bool]], ends_on_full_line: bool) -> str:
    """xxd -a, following vim xxd's rules: in a run of all-zero lines the first is kept and
    the rest become one '*', a run of two shows both, and a final full line is flushed."""
    out = []
    zero_seen = 0
    saved = ""

    def feed(text: str, nz: int) -> None:
        nonlocal zero_seen, saved
        if not nz and zero_seen == 1:
            saved = text
        was = zero_seen
        if not nz:
            zero_seen += 1
        if nz or was == 0:
            if nz:
                if nz < 0:
                    zero_seen -= 1
                if zero_seen == 2:
                    out.append(saved)
                if zero_seen > 2:
                    out.append("*")
            if nz >= 0 or zero_seen > 0:
                out.append(text)
            if nz:
                zero_seen = 0

    for n, (text, zero) in enumerate(lines):
        partial = n == len(lines) - 1 and not ends_on_full_line
        feed(text, 1 if partial or not zero else 0)
    if lines and ends_on_full_line:
        feed(lines[-1][0], -1)
    return "".join(line + "\n" for line in out)



_HEX_VALUE = {c: int(chr(c), 16) for c in b"0123456789abcdefABCDEF"}


def _xxd_reverse_plain(data: bytes) -> bytes:
    """``xxd -r -p``: vim's huntype for the plain style. Blanks and newlines are skipped; a
    byte is two hex digits in a row; a digit after one bad character starts a new pair (the
    digit before it is dropped); three bad characters in a row (before any digit, bad ones are
    skipped) end the line."""
    if re.fullmatch(rb"[0-9a-fA-F \t\r\n]*", data):  # the common case: only digits and blanks
        digits = re.sub(rb"[ \t\r\n]", b"", data)
        return bytes.fromhex(digits[:len(digits) // 2 * 2].decode())
    out = bytearray()
    n1, n2, n3 = -1, 0, 0
    ignore = True
    i, size = 0, len(data)
    while i < size:
        c = data[i]
        i += 1
        if c in b" \t\r\n":
            continue
        n3, n2 = n2, n1
        n1 = _HEX_VALUE.get(c, -1)
        if n1 < 0 and ignore:
            continue
        ignore = False
        if n2 >= 0 and n1 >= 0:
            out.append(n2 << 4 | n1)
            n1 = -1
        elif n1 < 0 and n2 < 0 and n3 < 0:  # garbage: the rest of the line is skipped
            nl = data.find(b"\n", i)
            i = size if nl < 0 else nl + 1
            ignore = True
    return bytes(out)


def _xxd_reverse(data: bytes, plain: bool, cols: int, seek: int) -> bytes:
    if plain:
        return _xxd_reverse_plain(data)
    out = bytearray()
    for raw in data.split(b"\n"):
        line = raw.decode("latin-1")
        m = re.match(r"\s*([0-9a-fA-F]+):?\s?", line)
        if not m:
            continue
        addr = int(m.group(1), 16) + seek
        rest = line[m.end():]
        # the hex area ends at two consecutive spaces (the ascii column follows)
        hex_area = rest.split("  ", 1)[0]
        hex_digits = re.sub(r"[^0-9a-fA-F]", "", hex_area)
        chunk = bytes.fromhex(hex_digits[:len(hex_digits) // 2 * 2])
        if addr > len(out):
            out.extend(b"\0" * (addr - len(out)))
        out[addr:addr + len(chunk)] = chunk
    return bytes(out)


# ============================================================================ hexdump

HEXDUMP_HELP = """Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines
"""


def _hexdump_line(kind: str, block: bytes) -> str:
    if kind == "C":
        cells = [f"{b:02x} " for b in block] + ["   "] * (16 - len(block))
        text = "".join(cells[:8]) + " " + "".join(cells[8:])
        chars = "".join(chr(b) if 32 <= b < 127 else "." for b in block)
        return f"  {text} |{chars}|"
    if kind in ("b", "c"):
        fields = []
        for b in block:
            if kind == "b":
                fields.append(f" {b:03o}")
            elif b in _C_ESCAPES:
                fields.append(f"{_C_ESCAPES[b]:>4}")
            elif 32 <= b < 127:
                fields.append(f"   {chr(b)}")
            else:
                fields.append(f" {b:03o}")
        fields += ["    "] * (16 - len(block))
        return "".join(fields)
    padded = block + b"\0" * (len(block) % 2)
    words = struct.unpack(f"<{len(padded) // 2}H", padded)
    if kind == "default":
        fields = [f" {w:04x}" for w in words] + ["     "] * (8 - len(words))
    elif kind == "x":
        fields = [f"    {w:04x}" for w in words] + ["        "] * (8 - len(words))
    elif kind == "d":
        fields = [f"   {w:05d}" for w in words] + ["        "] * (8 - len(words))
    else:
        fields = [f"  {w:06o}" for w in words] + ["        "] * (8 - len(words))
    return "".join(fields)


@command("hexdump", help=HEXDUMP_HELP)
async def hexdump(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "bcCdoxn:s:ve:f:L::", {
        "one-byte-octal": "b", "one-byte-char": "c", "canonical": "C",
        "two-bytes-decimal": "d", "two-bytes-octal": "o", "two-bytes-hex": "x",
        "length=": "n", "skip=": "s", "no-squeezing": "v", "format=": "e",
        "format-file=": "f"}, status=1)
    kinds = []
    formats: list[str] = []  # every display in option order, as format strings
    length = None
    skip = 0
    squeeze = True
    for o, v in opts:
        if o in "bcCdox":
            kinds.append(o)
            formats += _KIND_FORMATS[o]
        elif o == "n":
            length = parse_size(v, c_syntax=True)
            if length is None:
                await ctx.error(f"invalid length argument: {quote(v, 'locale')}")
                return 1
        elif o == "s":
            skip = parse_size(v, c_syntax=True)
            if skip is None:
                await ctx.error(f"invalid skip argument: {quote(v, 'locale')}")
                return 1
        elif o == "v":
            squeeze = False
        elif o == "e":
            formats.append(v)
            kinds.append("e")
        elif o == "f":
            try:
                text = ctx.fs.read_text(v, cwd=ctx.cwd)
            except FSError as e:
                await ctx.error(f"{v}: {e.strerror}")
                return 1
            formats += [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
            kinds.append("e")
    if "e" in kinds:
        try:
            program = [_parse_hexdump_format(f) for f in formats]
        except ValueError as e:
            await ctx.error(str(e))
            return 1
        return await _hexdump_formats(ctx, files, program, skip, length, squeeze)
    kinds = kinds or ["default"]
    source = _ConcatInput(ctx, files, "literal")
    blocks = _Blocks(source, await source.skip(skip), 16, length, squeeze)
    addr_fmt = "{:08x}" if kinds[-1] == "C" else "{:07x}"
    async for offset, block in blocks.each(ctx):
        lines = []
        for kind in kinds:
            addr = f"{offset:08x}" if kind == "C" else f"{offset:07x}"
            text = _hexdump_line(kind, block)
            lines.append(addr + text)
        await ctx.out("\n".join(lines) + "\n")
    if blocks.offset > 0:
        await ctx.out(addr_fmt.format(blocks.offset) + "\n")
    return 1 if source.failed else 0
