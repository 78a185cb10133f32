"""Generators: seq, yes, shuf."""
from __future__ import annotations

import itertools
import random
import re
from decimal import Decimal

from .. import memory
from ..chars import isdigits
from ..vfs import FSError
from ._lib.cprintf import LongDouble, format_float, from_ratio
from ._lib.quoting import quote
from ._lib.textio import Fail, run_guarded
from .options import UsageError, getopt
from .registry import CommandContext, command

SEQ_HELP = """\
Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \\n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help     display this help and exit

If FIRST or INCREMENT is omitted, it defaults to 1.  That is, an
omitted INCREMENT defaults to 1 even when LAST is smaller than FIRST.
The sequence of numbers ends when the sum of the current number and
INCREMENT would become greater than LAST.
FIRST, INCREMENT, and LAST are interpreted as floating point values.
INCREMENT is usually positive if FIRST is smaller than LAST, and
INCREMENT is usually negative if FIRST is greater than LAST.
INCREMENT must not be 0; none of FIRST, INCREMENT and LAST may be NaN.
FORMAT must be suitable for printing one argument of type 'double';
it defaults to %.PRECf if FIRST, INCREMENT, and LAST are all fixed point
decimal numbers with maximum precision PREC, and to %g otherwise."""

YES_HELP = """\
Usage: yes [STRING]...
Repeatedly output a line with all specified STRING(s), or 'y'.

      --help     display this help and exit"""

SHUF_HELP = """\
Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE (the same FILE gives the
                              same output)
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit

Without --random-source the order comes from the sandbox's seeded generator."""

_NUMBER = re.compile(r"\s*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?)\s*$", re.I)
_HEX = re.compile(r"\s*([+-]?)0[xX]([0-9a-fA-F]*\.?[0-9a-fA-F]*)(?:[pP]([+-]?[0-9]+))?\s*$")
_FORMAT = re.compile(r"%([-+ #0']*)([0-9]*)(?:\.([0-9]*))?([aAeEfFgG])")


class _Arg:
    """An operand: its exact value, and GNU seq's precision (None: not known, as for a hex
    float: numbers are then written with %g) and width (what -w pads to; 0 for hex)."""

    def __init__(self, text: str) -> None:
        self.text = text
        if re.fullmatch(r"\s*[+-]?nan\s*", text, re.I):
            raise Fail(f"invalid 'not-a-number' argument: {quote(text, 'locale')}\n"
                       "Try 'seq --help' for more information.")
        if _NUMBER.match(text):
            body = text.strip()
            self.value = Decimal(body.replace("infinity", "inf").replace("INFINITY", "inf"))
        else:
            m = _HEX.match(text)
            if not m or m.group(2) in ("", "."):
                raise Fail(f"invalid floating point argument: {quote(text, 'locale')}\n"
                           "Try 'seq --help' for more information.")
            sign, digits, exp = m.groups()
            whole, _, frac = digits.partition(".")
            value = Decimal(int(whole or "0", 16))
            if frac:
                value += Decimal(int(frac, 16)) / (Decimal(16) ** len(frac))
            if exp:
                value *= Decimal(2) ** int(exp)
            self.value = -value if sign == "-" else value
        self.precision, self.width = _precision_and_width(text, self.value.is_finite())


def _precision_and_width(text: str, finite: bool) -> tuple[int | None, int]:
    """GNU seq's scan_arg: the decimals an operand is written with (None when unknown: a hex
    number with a point or an exponent) and the width it takes, from the text as written
    (leading zeros count: -w with 007 pads to 3)."""
    arg = text.lstrip(" \t\n\v\f\r+")
    point = arg.find(".")
    precision: int | None = None
    if point < 0 and "p" not in arg:
        precision = 0
    width = 0
    if "x" not in arg and "X" not in arg and finite:
        width = len(arg)
        fraction_len = 0
        if point >= 0:
            fraction_len = len(re.split("[eE]", arg[point + 1:], maxsplit=1)[0])
            precision = fraction_len
            width += -1 if fraction_len == 0 else int(point == 0 or not arg[point - 1].isdigit())
        e = min((k for k in (arg.find("e"), arg.find("E")) if k >= 0), default=-1)
        if e >= 0:
            m = re.match(r"\s*[+-]?[0-9]+", arg[e + 1:])
            exponent = int(m.group(0)) if m else 0
            precision = (precision or 0) + (-exponent if exponent < 0 else -min(precision or 0, exponent))
            width -= len(arg) - e
            if exponent < 0:
                if point < 0 or e == point + 1:
                    width += 1
                exponent = -exponent
            else:
                if point >= 0 and precision == 0 and fraction_len:
                    width -= 1
                exponent -= min(fraction_len, exponent)
            width += exponent
    return precision, width


def _default_style(first: _Arg, step: _Arg, last: _Arg, equal: bool) -> tuple[int, int] | None:
    """GNU seq's default format: (width, decimals) of %0W.PLf, or None for %Lg."""
    if first.precision is None or step.precision is None or last.precision is None:
        return None
    prec = max(first.precision, step.precision)
    if not equal:
        return 0, prec
    first_width = first.width + (prec - first.precision) + (first.precision == 0 and prec > 0)
    last_width = last.width + (prec - last.precision)
    if last.precision and prec == 0:
        last_width -= 1  # no room for the point
    if last.precision == 0 and prec:
        last_width += 1  # room for the point
    return max(first_width, last_width), prec


def _long_double(v: Decimal) -> LongDouble:
    if v.is_infinite():
        return LongDouble(v < 0, special="inf")
    num, den = v.as_integer_ratio()
    return from_ratio(v.is_signed(), abs(num), den)


def _check_format(fmt: str) -> None:
    i, n, found = 0, len(fmt), 0
    while i < n:
        if fmt[i] == "%":
            if fmt[i + 1:i + 2] == "%":
                i += 2
                continue
            m = _FORMAT.match(fmt, i)
            if not m:
                j = i + 1
                while j < n and fmt[j] in "-+ #0'0123456789.":
                    j += 1
                if j >= n:
                    raise Fail(f"format {quote(fmt, 'locale')} ends in %")
                raise Fail(f"format {quote(fmt, 'locale')} has unknown %{fmt[j]} directive")
            found += 1
            if found > 1:
                raise Fail(f"format {quote(fmt, 'locale')} has too many % directives")
            i = m.end()
            continue
        i += 1
    if not found:
        raise Fail(f"format {quote(fmt, 'locale')} has no % directive")


def _c_format(fmt: str, value: Decimal) -> str:
    """Apply a printf floating format with one directive to value (a long double, as GNU
    seq prints it)."""
    def one(m: re.Match) -> str:
        flags, width, prec, conv = m.groups()
        return format_float(_long_double(value), flags, int(width or 0), int(prec or 0) if prec is not None else None,
                            conv)

    pieces = re.split(r"(%%)", fmt)
    return "".join("%" if p == "%%" else _FORMAT.sub(one, p) for p in pieces)


@command("seq", help=SEQ_HELP)
@run_guarded
async def seq(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "f:s:w", {"format=": "f", "separator=": "s",
                                               "equal-width": "w"}, negative_numbers=True, status=1)
    fmt = None
    sep = "\n"
    equal = False
    for opt, val in opts:
        if opt == "f":
            fmt = val
        elif opt == "s":
            sep = val
        elif opt == "w":
            equal = True
    if not operands:
        raise UsageError("missing operand", 1)
    if len(operands) > 3:
        raise UsageError(f"extra operand {quote(operands[3], 'locale')}", 1)
    if fmt is not None and equal:
        raise Fail("format string may not be specified when printing equal width strings\n"
                   "Try 'seq --help' for more information.")
    if fmt is not None:
        _check_format(fmt)
    args = [_Arg(a) for a in operands]
    first = args[0] if len(args) > 1 else _Arg("1")
    step = args[1] if len(args) == 3 else _Arg("1")
    last = args[-1]
    if step.value == 0:
        raise Fail(f"invalid Zero increment value: {quote(step.text, 'locale')}\n"
                   "Try 'seq --help' for more information.")
    style = _default_style(first, step, last, equal) if fmt is None else None
    width, precision = style if style is not None else (0, None)
    sep_b = sep.encode("utf-8", "surrogateescape")
    out = ctx.stdout

    integral = (style is not None and precision == 0 and first.value.is_finite() and step.value.is_finite()
                and first.value == first.value.to_integral_value()
                and step.value == step.value.to_integral_value())
    if integral:
        start, inc = int(first.value), int(step.value)
        if last.value.is_infinite():
            if (last.value > 0) != (inc > 0):
                return 0
            stop = None
        else:
            limit = int(last.value.to_integral_value(rounding="ROUND_FLOOR" if inc > 0 else "ROUND_CEILING"))
            stop = limit + (1 if inc > 0 else -1)
        # -0 is written -0 (only the first number can be 0: the step is not)
        minus_zero = first.value.is_signed() and start == 0

        def render(k: int) -> str:
            if k < 0 or (minus_zero and k == 0):
                return "-" + str(-k).zfill(width - 1)
            return str(k).zfill(width) if width else str(k)

        counter = itertools.count(start, inc) if stop is None else iter(range(start, stop, inc))
        first_out = True
        batch = 8192
        while True:
            chunk = list(itertools.islice(counter, batch))
            if not chunk:
                break
            if width or minus_zero:
                text = sep.join(map(render, chunk))
            else:
                text = sep.join(map(str, chunk))
            data = (b"" if first_out else sep_b) + text.encode()
            first_out = False
            await out.write(data)
            await ctx.checkpoint()
        if not first_out:
            await out.write(b"\n")
        return 0

    if fmt is not None:
        def render_value(v: Decimal) -> str:
            return _c_format(fmt, v)
    elif style is None:
        def render_value(v: Decimal) -> str:
            return format_float(_long_double(v), "", 0, None, "g")
    else:
        quantum = Decimal(1).scaleb(-precision)

        def render_value(v: Decimal) -> str:
            text = _fixed(v, quantum)
            if width and len(text) < width:
                text = ("-" + text[1:].zfill(width - 1)) if text.startswith("-") else text.zfill(width)
            return text

    parts: list[str] = []
    i = 0
    count = 0
    first_out = True
    inc = step.value
    while True:
        v = first.value + inc * i
        if (inc > 0 and v > last.value) or (inc < 0 and v < last.value):
            break
        parts.append(render_value(v))
        i += 1
        count += 1
        if count >= 4096 or v.is_infinite():
            await out.write((b"" if first_out else sep_b) + sep.join(parts).encode())
            first_out = False
            parts, count = [], 0
            await ctx.checkpoint()
            if v.is_infinite():
                continue
    if parts:
        await out.write((b"" if first_out else sep_b) + sep.join(parts).encode())
        first_out = False
    if not first_out:
        await out.write(b"\n")
    return 0


def _fixed(v: Decimal, quantum: Decimal) -> str:
    if v.is_infinite():
        return "inf" if v > 0 else "-inf"
    text = format(v.quantize(quantum), "f")
    if text.startswith("-") and Decimal(text) == 0:
        return text  # C prints -0.0 for negative zero only; keep what quantize gives
    return text


@command("yes", help=YES_HELP)
async def yes(ctx: CommandContext) -> int:
    args = ctx.args[1:] if ctx.args[:1] == ["--"] else ctx.args
    for a in args:
        if a.startswith("--") and len(a) > 2:
            raise UsageError(f"unrecognized option '{a}'", 1)
        if a.startswith("-") and len(a) > 1 and a != "--":
            raise UsageError(f"invalid option -- '{a[1]}'", 1)
    line = (" ".join(args) if args else "y").encode("utf-8", "surrogateescape") + b"\n"
    block = line * max(1, 65536 // len(line))
    while True:
        await ctx.stdout.write(block)
        await ctx.checkpoint()


@command("shuf", help=SHUF_HELP)
@run_guarded
async def shuf(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "ei:n:o:rz", {
        "echo": "e", "input-range=": "i", "head-count=": "n", "output=": "o",
        "random-source=": None, "repeat": "r", "zero-terminated": "z"}, status=1)
    echo = repeat = False
    rng_range = None
    count: int | None = None
    output = None
    source = None
    sep = b"\n"
    for opt, val in opts:
        if opt == "e":
            echo = True
        elif opt == "i":
            if rng_range is not None:
                raise Fail("multiple -i options specified")
            m = re.fullmatch(r"([0-9]+)-([0-9]+)", val)
            if not m or int(m.group(2)) < int(m.group(1)) - 1:
                raise Fail(f"invalid input range: {quote(val, 'locale')}")
            rng_range = (int(m.group(1)), int(m.group(2)))
        elif opt == "n":
            if not isdigits(val):
                raise Fail(f"invalid line count: {quote(val, 'locale')}")
            count = int(val) if count is None else min(count, int(val))
        elif opt == "o":
            output = val
        elif opt == "random-source":
            source = val
        elif opt == "r":
            repeat = True
        elif opt == "z":
            sep = b"\0"
    if echo and rng_range is not None:
        raise UsageError("cannot combine -e and -i options", 1)
    if rng_range is not None and operands:
        raise UsageError(f"extra operand {quote(operands[0], 'locale')}", 1)
    if not echo and rng_range is None and len(operands) > 1:
        raise UsageError(f"extra operand {quote(operands[1], 'locale')}", 1)

    if source is not None:
        try:
            seed = ctx.read_file(source)[:4096] if source != "-" else await ctx.stdin.read(4096)
        except FSError as e:
            raise Fail(f"{source}: {e.strerror}")
        rng = random.Random(seed)
    else:
        rng = random.Random(ctx.fs.random_bytes(16))

    if rng_range is not None:
        lo, hi = rng_range
        population = range(lo, hi + 1)
        items = None
    elif echo:
        items = [a.encode("utf-8", "surrogateescape") for a in operands]
        population = None
    else:
        name = operands[0] if operands else "-"
        try:
            if name != "-" and ctx.fs.is_dir(name, cwd=ctx.cwd):
                raise Fail("read error: Is a directory")
            data = await ctx.open_input(name).read_all(sep)  # counts the lines it will keep
        except FSError as e:
            raise Fail(f"{name}: {e.strerror}")
        items = data.split(sep)
        if items and items[-1] == b"":
            items.pop()
        population = None

    def as_bytes(x) -> bytes:
        return str(x).encode() if isinstance(x, int) else x

    size = len(population) if population is not None else len(items)
    handle = None
    if output is not None:
        try:
            handle = ctx.fs.open(output, "wb", cwd=ctx.cwd)
        except FSError as e:
            raise Fail(f"{output}: {e.strerror}")

    async def emit(data: bytes) -> None:
        if handle is not None:
            handle.write(data)
        else:
            await ctx.stdout.write(data)

    try:
        if repeat:
            if size == 0:
                if count:
                    raise Fail("no lines to repeat")
                return 0
            left = count
            while left is None or left > 0:
                n = 4096 if left is None else min(4096, left)
                if population is not None:
                    picks = [population[rng.randrange(size)] for _ in range(n)]
                else:
                    picks = [items[rng.randrange(size)] for _ in range(n)]
                await emit(b"".join(as_bytes(p) + sep for p in picks))
                if left is not None:
                    left -= n
                await ctx.checkpoint()
            return 0
        k = size if count is None else min(count, size)
        # the picks: a list of k (of a range: ints; random.sample may list the whole range)
        memory.need((size if population is not None and 4 * k >= size else k) * 48)
        if population is not None:
            picks = rng.sample(population, k)
        else:
            picks = list(items)
            rng.shuffle(picks)
            picks = picks[:k]
        for start in range(0, len(picks), 8192):
            await emit(b"".join(as_bytes(p) + sep for p in picks[start:start + 8192]))
            await ctx.checkpoint()
    finally:
        if handle is not None:
            handle.close()
    return 0
