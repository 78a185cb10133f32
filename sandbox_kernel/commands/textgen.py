"""Generators: seq, yes, shuf."""
from __future__ import annotations

import itertools
import random
import re
from decimal import Decimal

from .. import memory
from ..chars import isdigits
from ..vfs import FSError
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
    def __init__(self, text: str) -> None:
        self.text = text
        if re.fullmatch(r"\s*[+-]?nan\s*", text, re.I):
            raise Fail(f"invalid 'not-a-number' argument: {quote(text, 'locale')}\n"
                       "Try 'seq --help' for more information.")
        if _NUMBER.match(text):
            body = text.strip()
            self.value = Decimal(body.replace("infinity", "inf").replace("INFINITY", "inf"))
            mantissa, _, exponent = body.lower().partition("e")
            frac = mantissa.split(".", 1)[1] if "." in mantissa else ""
            precision = len(frac)
            if exponent:
                exp = int(exponent)
                precision = precision - exp if exp < 0 else precision - min(precision, exp)
            self.precision = precision
            return
        m = _HEX.match(text)
        if m and m.group(2) not in ("", "."):
            sign, digits, exp = m.groups()
            whole, _, frac = digits.partition(".")
            value = Decimal(int(whole or "0", 16))
            if frac:
                value += Decimal(int(frac, 16)) / (Decimal(16) ** len(frac))
            if exp:
                value *= Decimal(2) ** int(exp)
            self.value = -value if sign == "-" else value
            self.precision = 0
            return
        raise Fail(f"invalid floating point argument: {quote(text, 'locale')}\n"
                   "Try 'seq --help' for more information.")


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
    """Apply a printf floating format with one directive to value."""
    def one(m: re.Match) -> str:
        flags, width, prec, conv = m.groups()
        flags = flags.replace("'", "")
        spec = "%" + flags + width + ("." + (prec or "0") if prec is not None else "")
        if conv in "aA":
            text = float(value).hex()
            return text.upper() if conv == "A" else text
        return (spec + conv) % float(value)

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
    precision = max(first.precision, step.precision)
    sep_b = sep.encode("utf-8", "surrogateescape")
    out = ctx.stdout

    integral = (fmt is None and precision == 0 and first.value.is_finite() and step.value.is_finite()
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
        width = 0
        if equal:
            width = max(len(str(start)), len(str(int(last.value))) if stop is not None else 0)

        def render(k: int) -> str:
            if not width:
                return str(k)
            return ("-" + str(-k).zfill(width - 1)) if k < 0 else str(k).zfill(width)

        counter = itertools.count(start, inc) if stop is None else iter(range(start, stop, inc))
        first_out = True
        batch = 8192
        while True:
            chunk = list(itertools.islice(counter, batch))
            if not chunk:
                break
            text = sep.join(map(render, chunk) if width else map(str, chunk))
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
    else:
        quantum = Decimal(1).scaleb(-precision)
        width = 0
        if equal:
            width = max(len(_fixed(first.value, quantum)),
                        len(_fixed(last.value, quantum)) if last.value.is_finite() else 0)

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
