"""head and tail."""
from __future__ import annotations

import re

from ..streams import FileInput
from ..vfs import FSError
from ._lib.quoting import quote
from ._lib.sizes import parse_size
from ._lib.textio import BatchWriter, Fail, run_guarded
from .options import getopt
from .registry import CommandContext, command

HEAD_HELP = """\
Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help               display this help and exit

NUM may have a multiplier suffix: b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB, G, and so on for T, P, E, Z, Y, R, Q."""

TAIL_HELP = """\
Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}], -F
                           not available in the sandbox: files never grow while
                             tail waits, so tail prints what it has, says so and
                             exits with status 1
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
  -q, --quiet, --silent    never output headers giving file names
  -s, --sleep-interval=N   accepted and ignored (only meaningful with -f)
      --pid=PID, --retry   accepted and ignored (only meaningful with -f)
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help               display this help and exit

NUM may have a multiplier suffix: b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB, G, and so on for T, P, E, Z, Y, R, Q."""

_LEGACY_HEAD = re.compile(r"^-([0-9]+)([bkm]?)([cqlvz]*)$")
_LEGACY_TAIL = re.compile(r"^([-+])([0-9]*)([bkm]?)([cflqvz]*)$")
_LEGACY_MULT = {"": 1, "b": 512, "k": 1024, "m": 1024 * 1024}


def _count(text: str, what: str, signs: str) -> tuple[str, int]:
    """Split an optional leading sign from a GNU count; Fail on garbage."""
    sign = ""
    body = text
    if body[:1] in signs and body[:1]:
        sign, body = body[0], body[1:]
    n = parse_size(body)
    if n is None:
        raise Fail(f"invalid number of {what}: {quote(text, 'locale')}")
    return sign, n


def _header(name: str) -> str:
    return "standard input" if name == "-" else name


class _Job:
    """What head/tail do per file; shared by both commands."""

    def __init__(self, ctx: CommandContext, files: list[str], verbose: bool | None) -> None:
        self.ctx = ctx
        self.files = files or ["-"]
        self.headers = verbose if verbose is not None else len(self.files) > 1
        self.first = True

    async def each(self, body) -> int:
        ctx = self.ctx
        status = 0
        for name in self.files:
            is_dir = name != "-" and ctx.fs.is_dir(name, cwd=ctx.cwd)
            stream = None
            if not is_dir:
                try:
                    stream = ctx.open_input(name)
                except FSError as e:
                    await ctx.error(f"cannot open {quote(name)} for reading: {e.strerror}")
                    status = 1
                    continue
            if self.headers:
                await ctx.out(("" if self.first else "\n") + f"==> {_header(name)} <==\n")
            self.first = False
            if is_dir:
                await ctx.error(f"error reading {quote(name)}: Is a directory")
                status = 1
                continue
            await body(stream)
        return status


class _Framing:
    """-q, -v and -z, the same in head and tail: file name headers forced off or on, and
    NUL- instead of newline-terminated lines."""

    def __init__(self) -> None:
        self.verbose: bool | None = None
        self.sep = b"\n"

    def take(self, flag: str) -> None:
        if flag == "q":
            self.verbose = False
        elif flag == "v":
            self.verbose = True
        elif flag == "z":
            self.sep = b"\0"


@command("head", help=HEAD_HELP)
@run_guarded
async def head(ctx: CommandContext) -> int:
    args = list(ctx.args)
    mode, sign, count = "n", "", 10
    framing = _Framing()
    if args and (m := _LEGACY_HEAD.match(args[0])):
        count = int(m.group(1)) * _LEGACY_MULT[m.group(2)]
        for flag in m.group(3):
            if flag == "c":
                mode = "c"
            elif flag == "l":
                mode = "n"
            else:
                framing.take(flag)
        args = args[1:]
    opts, files = getopt(args, "c:n:qvz", {"bytes=": "c", "lines=": "n", "quiet": "q",
                                        "silent": "q", "verbose": "v",
                                        "zero-terminated": "z"}, status=1)
    for opt, val in opts:
        if opt in "cn":
            mode = opt
            sign, count = _count(val, "bytes" if opt == "c" else "lines", "-+")
            sign = sign.replace("+", "")
        else:
            framing.take(opt)
    verbose, sep = framing.verbose, framing.sep
    out = BatchWriter(ctx)

    async def first_bytes(stream) -> None:
        left = count
        while left > 0:
            chunk = await stream.read_some(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)
            await out.write(chunk)
        await out.flush()

    async def first_lines(stream) -> None:
        left = count
        while left > 0:
            chunk = await stream.read_some()
            if not chunk:
                break
            n = chunk.count(sep)
            if n >= left:
                end = -1
                for _ in range(left):
                    end = chunk.index(sep, end + 1)
                await out.write(chunk[:end + 1])
                # like GNU's lseek on a regular file: leave the rest for the next reader
                # (from a pipe GNU loses the rest of its buffer, and so do we)
                if isinstance(stream, FileInput):
                    stream.unread(chunk[end + 1:])
                break
            left -= n
            ctx.check()
            await out.write(chunk)
        await out.flush()

    async def all_but_last_bytes(stream) -> None:
        held = b""
        while True:
            chunk = await stream.read_some()
            if not chunk:
                break
            held += chunk
            if len(held) > count:
                cut = len(held) - count
                await out.write(held[:cut])
                held = held[cut:]
        await out.flush()

    async def all_but_last_lines(stream) -> None:
        held = bytearray()
        keep_at = 0
        while chunk := await stream.read_some(1 << 20):
            held += chunk
            if len(held) < keep_at:
                continue
            # keep the unfinished line and the last ``count`` complete lines
            end = len(held)
            found = 0
            while found <= count:
                i = held.rfind(sep, 0, end)
                if i < 0:
                    break
                found += 1
                end = i
            if found > count:
                await out.write(bytes(held[:end + 1]))
                del held[:end + 1]
            keep_at = 2 * len(held)
        if count == 0:
            await out.write(bytes(held))
        else:
            parts = bytes(held).split(sep)
            if parts[-1] == b"":
                parts.pop()
            if len(parts) > count:
                await out.write(sep.join(parts[:len(parts) - count]) + sep)
        await out.flush()

    job = _Job(ctx, files, verbose)
    if mode == "c":
        body = all_but_last_bytes if sign == "-" else first_bytes
    else:
        body = all_but_last_lines if sign == "-" else first_lines
    return await job.each(body)


@command("tail", help=TAIL_HELP)
@run_guarded
async def tail(ctx: CommandContext) -> int:
    args = list(ctx.args)
    mode, from_start, count = "n", False, 10
    framing = _Framing()
    follow = False
    # obsolete forms: tail -5, tail +5, tail -5c, tail +3l, only as the first argument
    if args and (m := _LEGACY_TAIL.match(args[0])) and (m.group(2) or m.group(1) == "+") \
            and args[0] not in ("-", "+") and (m.group(1) == "+" or m.group(2)):
        sign, digits, mult, flags = m.groups()
        if len([a for a in args[1:] if a != "--"]) <= 1:
            count = int(digits or "10") * _LEGACY_MULT[mult]
            from_start = sign == "+"
            if "c" in flags:
                mode = "c"
            follow = "f" in flags
            args = args[1:]
    opts, files = getopt(args, "c:n:fFqvzs:", {
        "bytes=": "c", "lines=": "n", "follow==": "f", "quiet": "q", "silent": "q",
        "verbose": "v", "zero-terminated": "z", "sleep-interval=": "s", "pid=": None,
        "retry": None, "max-unchanged-stats=": None}, status=1)
    for opt, val in opts:
        if opt in "cn":
            mode = opt
            sign, count = _count(val, "bytes" if opt == "c" else "lines", "-+")
            from_start = sign == "+"
        elif opt in "fF":
            follow = True
        else:
            framing.take(opt)
    verbose, sep = framing.verbose, framing.sep
    out = BatchWriter(ctx)

    async def skip_then_copy(stream) -> None:
        # +N: output starting with line/byte N (N=0 behaves like 1)
        skip = max(count - 1, 0)
        while skip > 0:
            chunk = await stream.read_some()
            if not chunk:
                return
            if mode == "c":
                if len(chunk) > skip:
                    await out.write(chunk[skip:])
                    skip = 0
                else:
                    skip -= len(chunk)
                continue
            pos = 0
            while skip > 0:
                i = chunk.find(sep, pos)
                if i < 0:
                    break
                pos = i + 1
                skip -= 1
            if skip == 0:
                await out.write(chunk[pos:])
        while chunk := await stream.read_some():
            ctx.check()
            await out.write(chunk)
        await out.flush()

    async def last_bytes(stream) -> None:
        held = bytearray()
        while chunk := await stream.read_some():
            held += chunk
            if len(held) > 2 * count + 65536:
                del held[:len(held) - count]
        if count == 0:
            return
        await out.write(bytes(held[-count:]))
        await out.flush()

    def tail_start(data: bytes | bytearray) -> int | None:
        """Offset of the last ``count`` lines in data, or None when data holds fewer."""
        end = len(data)
        if data.endswith(sep):
            end -= 1
        for _ in range(count):
            i = data.rfind(sep, 0, end)
            if i < 0:
                return None
            end = i
        return end + 1

    async def last_lines(stream) -> None:
        if count == 0:
            while await stream.read_some():
                pass
            return
        held = bytearray()
        trim_at = 1 << 20
        while chunk := await stream.read_some():
            held += chunk
            if len(held) > trim_at:
                start = tail_start(held)
                if start:
                    del held[:start]
                trim_at = max(1 << 20, 2 * len(held))
            await ctx.checkpoint()
        start = tail_start(held) or 0
        await out.write(bytes(held[start:]))
        await out.flush()

    job = _Job(ctx, files, verbose)
    if from_start:
        body = skip_then_copy
    else:
        body = last_bytes if mode == "c" else last_lines
    status = await job.each(body)
    if follow:
        await ctx.error("cannot follow: the sandbox has no concurrent writers, "
                        "so -f/--follow is not supported")
        return 1
    return status
