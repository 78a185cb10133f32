"""dd (GNU coreutils): copy a file block by block, converting it on the way.

Blocks are read ``ibs`` bytes at a time (a pipe may give fewer: a partial record, as a read(2)
of a pipe would), converted, and written ``obs`` bytes at a time (with ``bs=``, each block read
is written as it came). The buffers are what the command holds: ``ibs`` + ``obs`` bytes, charged
to the memory limit before they are made."""
from __future__ import annotations

import time
from errno import EISDIR

from .. import memory
from ..streams import InputStream
from ..vfs import DeviceHandle, FileHandle, FSError
from ._lib.fsutil import umask_of
from ._lib.quoting import quote
from ._lib.sizes import parse_size
from ._lib.textio import std_output_for
from .registry import CommandContext, command

DD_HELP = """\
Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  block     pad newline-terminated records with spaces to cbs-size
  unblock   replace trailing spaces in cbs-size records with newline
  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sparse    try to seek rather than write all-NUL output blocks
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size; when used
            with block or unblock, pad with spaces rather than NULs
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata
(ascii, ebcdic and ibm, the EBCDIC code pages, are not available here.)

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  direct    use direct I/O for data
  directory  fail unless a directory
  dsync     use synchronized I/O for data
  sync      likewise, but also for metadata
  fullblock  accumulate full blocks of input (iflag only)
  nonblock  use non-blocking I/O
  noatime   do not update access time
  nocache   Request to drop cache.  See also oflag=sync
  noctty    do not assign controlling terminal from file
  nofollow  do not follow symlinks
  count_bytes  treat count=N as a byte count (iflag only)
  skip_bytes  treat skip=N as a byte count (iflag only)
  seek_bytes  treat seek=N as a byte count (oflag only)"""

_CONVS = {"ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "sparse", "swab", "sync",
          "excl", "nocreat", "notrunc", "noerror", "fdatasync", "fsync"}
#: GNU's pairs that exclude each other (``dd: cannot combine lcase and ucase``)
_EXCLUSIVE = (("ascii", "ebcdic"), ("ascii", "ibm"), ("ebcdic", "ibm"), ("block", "unblock"),
              ("lcase", "ucase"), ("excl", "nocreat"))
_FLAGS = {"append", "binary", "cio", "direct", "directory", "dsync", "sync", "fullblock", "nonblock",
          "noatime", "nocache", "noctty", "nofollow", "nolinks", "text", "count_bytes", "skip_bytes",
          "seek_bytes"}
_SUFFIXES = "bcEGkKMPQRTwYZ0"
_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
#: GNU's largest block size (IDX_MAX less a page, on 64-bit)
_MAX_BLOCK = (1 << 63) - 1 - 4096


class _Fail(Exception):
    """A usage error: the message, and whether GNU adds ``Try 'dd --help'``."""

    def __init__(self, message: str, try_help: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.try_help = try_help


def _one_number(text: str) -> int | None:
    """One factor: digits and a suffix (a suffix alone is 1 of it, as xstrtoumax reads it);
    a trailing ``B`` after a plain number is allowed (it marks a byte count)."""
    if text[:1] in _SUFFIXES.replace("0", "") and text[:1] != "":
        text = "1" + text
    value = parse_size(text, _SUFFIXES)
    if value is None and len(text) > 1 and text.endswith("B") and text[-2] != "B":
        value = parse_size(text[:-1], _SUFFIXES)
    return value


def _number(text: str, warnings: list[str]) -> int:
    """dd's numbers: ``N[SUFFIX]`` factors joined by ``x`` (``2x3K``); raises _Fail."""
    value = 1
    parts = text.split("x")
    for i, part in enumerate(parts):
        factor = _one_number(part)
        if factor is None:
            raise _Fail(f"invalid number: {quote(text, 'locale')}")
        if factor == 0 and i < len(parts) - 1 and part == "0":
            warnings.append(f"warning: {quote('0x', 'locale')} is a zero multiplier; "
                            f"use {quote('00x', 'locale')} if that is intended")
        value *= factor
    if value > _MAX_BLOCK:
        raise _Fail(f"invalid number: {quote(text, 'locale')}")  # GNU: Value too large ...
    return value


def _symbols(text: str, allowed: set[str], what: str) -> set[str]:
    found = set()
    for word in text.split(","):
        if word not in allowed:
            raise _Fail(f"invalid {what}: {quote(word, 'locale')}", try_help=True)
        found.add(word)
    return found


class _Settings:
    def __init__(self) -> None:
        self.ibs = self.obs = 512
        self.bs = 0
        self.cbs = 0
        self.count: int | None = None
        self.skip = self.seek = 0
        self.infile: str | None = None
        self.outfile: str | None = None
        self.conv: set[str] = set()
        self.iflag: set[str] = set()
        self.oflag: set[str] = set()
        self.status = "default"
        self.warnings: list[str] = []


def _parse(args: list[str]) -> _Settings:
    s = _Settings()
    operands = list(args)
    if operands and operands[0] == "--":
        operands.pop(0)
    for arg in operands:
        name, eq, value = arg.partition("=")
        if not eq:
            if arg.startswith("-") and len(arg) > 1 and not arg.startswith("--"):
                raise _Fail(f"invalid option -- {quote(arg[1], 'locale')}", try_help=True)
            if arg.startswith("--") and len(arg) > 2:
                raise _Fail(f"unrecognized option {quote(arg, 'locale')}", try_help=True)
            raise _Fail(f"unrecognized operand {quote(arg, 'locale')}", try_help=True)
        if name == "if":
            s.infile = value
        elif name == "of":
            s.outfile = value
        elif name == "conv":
            s.conv |= _symbols(value, _CONVS, "conversion")
        elif name == "iflag":
            s.iflag |= _symbols(value, _FLAGS, "input flag")
        elif name == "oflag":
            s.oflag |= _symbols(value, _FLAGS, "output flag")
        elif name == "status":
            if value not in ("none", "noxfer", "progress"):
                raise _Fail(f"invalid status level: {quote(value, 'locale')}", try_help=True)
            s.status = value
        elif name in ("bs", "ibs", "obs", "cbs"):
            n = _number(value, s.warnings)
            if n == 0:
                raise _Fail(f"invalid number: {quote(value, 'locale')}")
            setattr(s, name, n)
        elif name in ("count", "skip", "iseek", "seek", "oseek"):
            n = _number(value, s.warnings)
            if name == "count":
                s.count = n
                if "B" in value:
                    s.iflag.add("count_bytes")
            elif name in ("skip", "iseek"):
                s.skip = n
                if "B" in value:
                    s.iflag.add("skip_bytes")
            else:
                s.seek = n
                if "B" in value:
                    s.oflag.add("seek_bytes")
        else:
            raise _Fail(f"unrecognized operand {quote(arg, 'locale')}", try_help=True)
    for a, b in _EXCLUSIVE:
        if a in s.conv and b in s.conv:
            raise _Fail(f"cannot combine {a} and {b}")
    if "fullblock" in s.oflag:  # (GNU ignores the other flags where they mean nothing)
        raise _Fail(f"invalid output flag: {quote('fullblock', 'locale')}", try_help=True)
    for code in ("ascii", "ebcdic", "ibm"):
        if code in s.conv:
            raise _Fail(f"conversion {quote(code, 'locale')} is not available in this sandbox")
    if s.bs:
        s.ibs = s.obs = s.bs
    return s


class _Input:
    """The input: a VFS file handle (reads are full, skip seeks) or a stream (a read gives
    what is at hand, up to the block; ``fullblock`` waits for whole blocks)."""

    def __init__(self, ctx: CommandContext, name: str | None, fullblock: bool) -> None:
        self.name = name if name is not None else "-"
        self.shown = "standard input" if name is None else self.name
        self.handle: FileHandle | DeviceHandle | None = None
        self.stream: InputStream = ctx.stdin
        self.fullblock = fullblock
        if name is not None and name not in ("/dev/stdin", "/dev/fd/0"):
            self.handle = ctx.fs.open(name, "rb", cwd=ctx.cwd)

    async def read(self, n: int) -> bytes:
        if self.handle is not None:
            return self.handle.read(n)
        if self.fullblock:
            return await self.stream.read(n)
        return await self.stream.read_some(n)

    async def skip(self, n: int, block: int) -> bool:
        """Skip ``n`` bytes (in reads of ``block`` for a stream); False when the input ends first."""
        if isinstance(self.handle, FileHandle):
            if n > self.handle.size:
                self.handle.seek(self.handle.size)
                return False
            self.handle.seek(n)
            return True
        if self.handle is not None:  # a device: reads give whole blocks
            return True
        while n > 0:
            chunk = await self.read(min(block, n))
            if not chunk:
                return False
            n -= len(chunk)
        return True


class _Counts:
    def __init__(self) -> None:
        self.full_in = self.part_in = self.full_out = self.part_out = 0
        self.truncated = 0
        self.bytes_out = 0
        self.start = time.monotonic()


def _human(amount: float, base: int, iec: bool) -> str:
    """GNU human_readable with autoscale, rounding to nearest, a space and a unit ``B``."""
    units = "KMGTPEZYRQ" if iec else "kMGTPEZYRQ"
    power = 0
    while amount >= base and power < len(units):
        amount /= base
        power += 1
    if power == 0:
        return f"{int(amount)} B"
    text = f"{amount:.1f}" if amount < 10 else f"{amount:.0f}"
    return f"{text} {units[power - 1]}{'iB' if iec else 'B'}"


def _rate(nbytes: int, seconds: float) -> str:
    """The copy rate as GNU shows it: scaled at least once (``0.0 kB/s``), one decimal while
    it fits in four characters."""
    value = nbytes / seconds if seconds > 0 else 0.0
    units = "kMGTPEZYRQ"
    power = 0
    while True:
        value /= 1000
        power += 1
        if value < 1000 or power == len(units):
            break
    text = f"{value:.1f}"
    if len(text) > 4:
        text = f"{value:.0f}"
    return f"{text} {units[power - 1]}B/s"


async def _report(ctx: CommandContext, s: _Settings, c: _Counts) -> None:
    if s.status == "none":
        return
    lines = [f"{c.full_in}+{c.part_in} records in", f"{c.full_out}+{c.part_out} records out"]
    if c.truncated:
        lines.append(f"{c.truncated} truncated record{'' if c.truncated == 1 else 's'}")
    if s.status != "noxfer":
        seconds = max(time.monotonic() - c.start, 1e-9)
        si, iec = _human(c.bytes_out, 1000, False), _human(c.bytes_out, 1024, True)
        if si.endswith(" B"):
            size = f"{c.bytes_out} byte{'' if c.bytes_out == 1 else 's'}"
        elif iec.endswith(" B"):
            size = f"{c.bytes_out} bytes ({si})"
        else:
            size = f"{c.bytes_out} bytes ({si}, {iec})"
        lines.append(f"{size} copied, {seconds:g} s, {_rate(c.bytes_out, seconds)}")
    await ctx.err("".join(line + "\n" for line in lines))


class _Converter:
    """conv=swab, lcase/ucase, block/unblock on the bytes of each block, in GNU's order
    (swab, then the case, then block or unblock); swab keeps an odd last byte for the next block."""

    def __init__(self, s: _Settings, counts: _Counts) -> None:
        self.s = s
        self.counts = counts
        self.saved: bytes = b""  # swab's odd byte
        self.column = 0  # block/unblock: where the current record is
        self.spaces = 0  # unblock: spaces held until a byte other than a space follows them
        self.case = _UPPER if "ucase" in s.conv else _LOWER if "lcase" in s.conv else None

    def convert(self, block: bytes) -> bytes:
        conv = self.s.conv
        if "swab" in conv:
            block = self.saved + block
            self.saved = b""
            if len(block) % 2:
                block, self.saved = block[:-1], block[-1:]
            swapped = bytearray(block)
            swapped[0::2], swapped[1::2] = block[1::2], block[0::2]
            block = bytes(swapped)
        if self.case is not None:
            block = block.translate(self.case)
        if "block" in conv:
            return self._block(block)
        if "unblock" in conv:
            return self._unblock(block)
        return block

    def finish(self) -> bytes:
        """What is pending at the end of input."""
        tail = b""
        if self.saved:
            tail, self.saved = self.saved, b""
            if self.case is not None:
                tail = tail.translate(self.case)
            if "block" in self.s.conv:
                tail = self._block(tail)
            elif "unblock" in self.s.conv:
                tail = self._unblock(tail)
        if "block" in self.s.conv and self.column > 0:
            tail += b" " * (self.s.cbs - self.column)
            self.column = 0
        elif "unblock" in self.s.conv and self.column > 0:
            tail += b"\n"
            self.column = 0
        return tail

    def _block(self, data: bytes) -> bytes:
        """Newline-ended records padded with spaces to cbs bytes (longer ones cut, counted)."""
        cbs = self.s.cbs
        out = bytearray()
        pieces = data.split(b"\n")
        for i, piece in enumerate(pieces):
            if self.column < cbs:
                out += piece[:cbs - self.column]
            if self.column <= cbs < self.column + len(piece):
                self.counts.truncated += 1
            self.column += len(piece)
            if i < len(pieces) - 1:  # a newline ends the record
                if self.column < cbs:
                    out += b" " * (cbs - self.column)
                self.column = 0
        return bytes(out)

    def _unblock(self, data: bytes) -> bytes:
        """cbs-byte records with their trailing spaces dropped and a newline after each."""
        cbs = self.s.cbs
        out = bytearray()
        i = 0
        while i < len(data):
            if self.column >= cbs:
                self.column = self.spaces = 0
                out += b"\n"
                continue
            take = data[i:i + cbs - self.column]
            body = take.rstrip(b" ")
            if body:
                out += b" " * self.spaces + body
                self.spaces = len(take) - len(body)
            else:
                self.spaces += len(take)
            self.column += len(take)
            i += len(take)
        return bytes(out)


@command("dd", help=DD_HELP)
async def dd(ctx: CommandContext) -> int:
    try:
        s = _parse(ctx.args)
    except _Fail as e:
        await ctx.error(e.message)
        if e.try_help:
            await ctx.err("Try 'dd --help' for more information.\n")
        return 1
    for warning in s.warnings:
        await ctx.error(warning)
    if ("block" in s.conv or "unblock" in s.conv) and not s.cbs:
        s.conv -= {"block", "unblock"}  # GNU: block and unblock do nothing without cbs=
    memory.charge(s.ibs + (0 if s.bs else s.obs))  # the input and output buffers
    counts = _Counts()
    try:
        source = _Input(ctx, s.infile, "fullblock" in s.iflag)
    except FSError as e:
        if e.errno == EISDIR:  # open(2) gives a directory; its first read(2) fails
            await ctx.error(f"error reading {quote(s.infile or '-')}: {e.strerror}")
            await _report(ctx, s, counts)
        else:
            await ctx.error(f"failed to open {quote(s.infile or '-')}: {e.strerror}")
        return 1
    status = 0
    # the output
    sink = None
    handle = None
    out_name = "standard output" if s.outfile is None else s.outfile
    seek_at = s.seek if "seek_bytes" in s.oflag else s.seek * s.obs
    if s.outfile is None or std_output_for(ctx, s.outfile) is not None:
        sink = ctx.stdout if s.outfile is None else std_output_for(ctx, s.outfile)
        handle = getattr(sink, "handle", None) if seek_at else None
        if seek_at and handle is None:
            await ctx.error(f"{quote(out_name)}: cannot seek: Illegal seek")
            await _report(ctx, s, counts)
            return 1
        if handle is not None:
            handle.seek(handle.tell() + seek_at)
    else:
        try:
            if "nocreat" in s.conv and not ctx.fs.exists(s.outfile, cwd=ctx.cwd):
                raise FSError(2, s.outfile)
            handle = ctx.fs.open(s.outfile, "xb" if "excl" in s.conv else "ab", cwd=ctx.cwd,
                                 umask=umask_of(ctx))
            if isinstance(handle, FileHandle):  # (not a device): opened without O_APPEND or O_TRUNC
                if "append" not in s.oflag:
                    handle.append = False
                    if "notrunc" not in s.conv:
                        handle.truncate(seek_at)
                handle.seek(seek_at)
        except FSError as e:
            await ctx.error(f"failed to open {quote(s.outfile)}: {e.strerror}")
            return 1

    async def write(data: bytes) -> None:
        if handle is not None:
            handle.write(data)
        elif sink is not None:
            await sink.write(data)
        counts.bytes_out += len(data)
        if len(data) == s.obs:
            counts.full_out += 1
        else:
            counts.part_out += 1

    skip_bytes = s.skip if "skip_bytes" in s.iflag else s.skip * s.ibs
    converter = _Converter(s, counts)
    pending = bytearray()
    reblock = not s.bs or bool(s.conv & {"block", "unblock"})  # GNU's C_TWOBUFS
    try:
        if skip_bytes and not await source.skip(skip_bytes, s.ibs):
            await ctx.error(f"{quote(source.shown, 'shell-escape', colon=True)}: cannot skip to specified offset")
        left = s.count
        count_bytes = "count_bytes" in s.iflag
        while left is None or left > 0:
            want = s.ibs if not count_bytes or left is None else min(s.ibs, left)
            try:
                block = await source.read(want)
            except FSError as e:
                await ctx.error(f"error reading {quote(source.shown)}: {e.strerror}")
                status = 1
                break
            if not block:
                break
            if len(block) == s.ibs:
                counts.full_in += 1
            else:
                counts.part_in += 1
            if left is not None:
                left -= len(block) if count_bytes else 1
            if "sync" in s.conv and len(block) < s.ibs:
                block += (b" " if s.conv & {"block", "unblock"} else b"\0") * (s.ibs - len(block))
            block = converter.convert(block)
            if not reblock:
                if block:
                    await write(block)
            else:
                pending += block
                while len(pending) >= s.obs:
                    await write(bytes(pending[:s.obs]))
                    del pending[:s.obs]
            await ctx.checkpoint()
        pending += converter.finish()
        while len(pending) >= s.obs:
            await write(bytes(pending[:s.obs]))
            del pending[:s.obs]
        if pending:
            await write(bytes(pending))
    except FSError as e:
        await ctx.error(f"error writing {quote(out_name)}: {e.strerror}")
        status = 1
    await _report(ctx, s, counts)
    return status
