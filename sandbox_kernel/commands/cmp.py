"""cmp: compare two files byte by byte (GNU diffutils messages and exit status 0/1/2)."""
from __future__ import annotations

from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.sizes import parse_size
from ..locales import program_locale
from .options import UsageError, getopt
from .registry import CommandContext, command

CMP_HELP = """Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
"""

def _printable(b: int) -> str:
    """cmp -b's rendering of a byte (like cat -t: ^X, M-x)."""
    s = ""
    if b >= 128:
        s = "M-"
        b -= 128
    if b < 32:
        return s + "^" + chr(b + 64)
    if b == 127:
        return s + "^?"
    return s + chr(b)


async def _usage(ctx: CommandContext, message: str) -> int:
    await ctx.error(message)
    await ctx.error("Try 'cmp --help' for more information.")
    return 2


@command("cmp", help=CMP_HELP)
async def cmp(ctx: CommandContext) -> int:
    try:
        opts, files = getopt(ctx.args, "bi:ln:s", {"print-bytes": "b", "ignore-initial=": "i",
                                                   "verbose": "l", "bytes=": "n", "quiet": "s",
                                                   "silent": "s"})
    except UsageError as e:
        return await _usage(ctx, e.message)
    print_bytes = verbose = quiet = False
    skip = [0, 0]
    limit = None
    for o, v in opts:
        if o == "b":
            print_bytes = True
        elif o == "l":
            verbose = True
        elif o == "s":
            quiet = True
        elif o == "n":
            limit = parse_size(v, "kKMGTPEZY0")
            if limit is None:
                return await _usage(ctx, f"invalid --bytes value '{v}'")
        elif o == "i":
            parts = v.split(":", 1)
            values = [parse_size(p, "kKMGTPEZY0") for p in parts]
            if any(x is None for x in values):
                return await _usage(ctx, f"invalid --ignore-initial value '{v}'")
            skip = [values[0], values[-1]]
    if verbose and quiet:
        return await _usage(ctx, "options -l and -s are incompatible")
    if not files:
        return await _usage(ctx, "missing operand after 'cmp'")
    for k, extra in enumerate(files[2:4]):
        value = parse_size(extra, "kKMGTPEZY0")
        if value is None:
            return await _usage(ctx, f"invalid --ignore-initial value '{extra}'")
        skip[k] = value
    if len(files) > 4:
        return await _usage(ctx, f"extra operand {quote(files[4], 'locale')}")
    name_a = files[0]
    name_b = files[1] if len(files) > 1 else "-"
    if name_a == name_b == "-":
        return 0
    try:
        in_a = ctx.open_input(name_a)
    except FSError as e:
        await ctx.error(f"{name_a}: {e.strerror}")
        return 2
    try:
        in_b = ctx.open_input(name_b)
    except FSError as e:
        await ctx.error(f"{name_b}: {e.strerror}")
        return 2
    try:
        await in_a.read(skip[0])
        await in_b.read(skip[1])
        return await _compare(ctx, in_a, in_b, name_a, name_b, limit, print_bytes, verbose, quiet)
    except FSError as e:
        await ctx.error(f"{e.filename}: {e.strerror}")
        return 2


async def _compare(ctx, in_a, in_b, name_a, name_b, limit, print_bytes, verbose, quiet) -> int:
    offset = 0  # bytes compared so far
    line = 1
    differ = False
    buf_a = buf_b = b""
    last_byte = b""
    sizes = [_size(ctx, name_a), _size(ctx, name_b)]
    known = [x for x in sizes if x is not None]
    bound = min(known) if known and None not in sizes else None
    if limit is not None:
        bound = limit if bound is None else min(bound, limit)
    width = len(str(bound)) if bound is not None else None
    while limit is None or offset < limit:
        if not buf_a:
            buf_a = await in_a.read_some()
        if not buf_b:
            buf_b = await in_b.read_some()
        n = min(len(buf_a), len(buf_b))
        if limit is not None:
            n = min(n, limit - offset)
        if n == 0:
            if not buf_a and not buf_b:
                break
            if limit is not None and offset >= limit:
                break
            short = name_a if not buf_a else name_b
            if not quiet:
                if offset == 0:
                    await ctx.error(f"EOF on {short} which is empty")
                elif verbose:
                    await ctx.error(f"EOF on {short} after byte {offset}")
                else:
                    shown_line = line - 1 if last_byte == b"\n" else line
                    await ctx.error(f"EOF on {short} after byte {offset}, line {shown_line}")
            return 1
        chunk_a, chunk_b = buf_a[:n], buf_b[:n]
        buf_a, buf_b = buf_a[n:], buf_b[n:]
        if chunk_a != chunk_b:
            for k in range(n):
                ba, bb = chunk_a[k], chunk_b[k]
                if ba != bb:
                    pos = offset + k + 1
                    if quiet:
                        return 1
                    if not verbose:
                        lines = line + chunk_a.count(b"\n", 0, k)
                        if print_bytes:
                            await ctx.out(f"{name_a} {name_b} differ: byte {pos}, line {lines} is "
                                          f"{ba:3o} {_printable(ba)} {bb:3o} {_printable(bb)}\n")
                        else:
                            # GNU says "char" in the C locale (as POSIX requires), "byte" elsewhere
                            word = "char" if _c_locale(ctx) else "byte"
                            await ctx.out(f"{name_a} {name_b} differ: {word} {pos}, line {lines}\n")
                        return 1
                    differ = True
                    w = width or len(str(pos))
                    if print_bytes:
                        await ctx.out(f"{pos:>{w}} {ba:3o} {_printable(ba):<4} {bb:3o} {_printable(bb)}\n")
                    else:
                        await ctx.out(f"{pos:>{w}} {ba:3o} {bb:3o}\n")
        line += chunk_a.count(b"\n")
        offset += n
        last_byte = chunk_a[-1:]
        await ctx.checkpoint()
    return 1 if differ else 0


def _size(ctx, name: str) -> int | None:
    if name == "-":
        return None
    try:
        return ctx.fs.stat(name, cwd=ctx.cwd).st_size
    except FSError:
        return None


def _c_locale(ctx) -> bool:
    """Whether cmp's messages are in the C locale: also when a locale variable names a locale
    this machine lacks (LANG=en_US.UTF-8 here), as setlocale then fails."""
    return program_locale(ctx.env, "LC_MESSAGES") in ("C", "POSIX")
