"""gzip, gunzip, zcat: gzip's format streamed a block at a time both ways."""
from __future__ import annotations

import stat as _stat
import struct
import zlib

from ...chars import isdigits
from ...vfs import FSError
from ..options import getopt
from ..registry import CommandContext, command

GZIP_HELP = """Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
  -S, --suffix=SUF  use suffix SUF on compressed files
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.
"""

_GZIP_LONG = {"stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d",
              "force": "f", "keep": "k", "list": "l", "no-name": "n", "name": "N",
              "quiet": "q", "recursive": "r", "suffix=": "S", "test": "t", "verbose": "v",
              "fast": "1", "best": "9", "help": "h"}


#: bytes of output one step of decompression makes, and of input one step reads
GZ_OUT = 1 << 20
GZ_IN = 1 << 16
#: the most of a member's stored name kept (the rest is skipped, never held)
GZ_MAX_NAME = 4096


class _GzipError(Exception):
    """Damaged or unsupported gzip data, worded as GNU gzip says it. ``newline``: GNU starts
    the message on a line of its own (it may follow partial output)."""

    def __init__(self, message: str, newline: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.newline = newline


class _GzInput:
    """Compressed input read a block at a time, with a look-ahead buffer."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.buf = bytearray()
        self.eof = False
        self.total = 0  # bytes read from the stream

    async def need(self, n: int) -> bool:
        """Whether ``n`` bytes are buffered (reading more as needed)."""
        while len(self.buf) < n and not self.eof:
            chunk = await self.stream.read_some(GZ_IN)
            if not chunk:
                self.eof = True
                break
            self.buf += chunk
            self.total += len(chunk)
        return len(self.buf) >= n

    def take(self, n: int) -> bytes:
        data = bytes(self.buf[:n])
        del self.buf[:n]
        return data


class _Gunzip:
    """Decompresses concatenated gzip members from an input stream as it is read: at most
    GZ_OUT bytes of output exist at a time, whatever the ratio (a bomb costs time, bounded by
    the run, and wherever the output goes: a pipe that closes, the VFS quota)."""

    def __init__(self, stream, checkpoint, verbose: bool = False) -> None:
        self.inp = _GzInput(stream)
        self.checkpoint = checkpoint
        self.verbose = verbose
        self.members = 0
        self.name: str | None = None  # the first member's stored name and time
        self.mtime = 0
        self.header_bytes = 0  # the first member's header
        self.warning: str | None = None  # trailing garbage: output kept, status 2

    async def header(self) -> bool:
        """Read the next member's header; False at the end of the input. Raises _GzipError."""
        inp = self.inp
        first = self.members == 0
        if not await inp.need(1):
            if first:
                raise _GzipError("unexpected end of file")
            return False
        if inp.buf[0] != 0 and not await inp.need(2):
            raise _GzipError("unexpected end of file")
        if bytes(inp.buf[:2]) != b"\x1f\x8b":
            if first:
                raise _GzipError("not in gzip format")
            return await self._trailing()
        if not await inp.need(10):
            raise _GzipError("unexpected end of file")
        method, flags = inp.buf[2], inp.buf[3]
        if method != 8:
            raise _GzipError(f"unknown method {method} -- not supported")
        if flags & 0xE0:
            raise _GzipError(f"has flags 0x{flags:x} -- not supported")
        mtime = struct.unpack("<I", bytes(inp.buf[4:8]))[0]
        fixed = inp.take(10)
        crc = zlib.crc32(fixed)
        length = 10
        if flags & 0x04:
            if not await inp.need(2):
                raise _GzipError("unexpected end of file")
            xlen = struct.unpack("<H", bytes(inp.buf[:2]))[0]
            if not await inp.need(2 + xlen):
                raise _GzipError("unexpected end of file")
            crc = zlib.crc32(inp.take(2 + xlen), crc)
            length += 2 + xlen
        stored = None
        for flag in (0x08, 0x10):
            if flags & flag:
                text, crc, used = await self._zstring(crc)
                length += used
                if flag == 0x08:
                    stored = text.decode("utf-8", "surrogateescape")
        if flags & 0x02:
            if not await inp.need(2):
                raise _GzipError("unexpected end of file")
            want = struct.unpack("<H", inp.take(2))[0]
            length += 2
            if want != crc & 0xFFFF:
                raise _GzipError(f"header checksum 0x{want:04x} != computed checksum 0x{crc & 0xFFFF:04x}",
                                 newline=False)
        if first:
            self.name, self.mtime, self.header_bytes = stored, mtime, length
        self.members += 1
        return True

    async def _zstring(self, crc: int) -> tuple[bytes, int, int]:
        """A NUL-terminated header field: (its first GZ_MAX_NAME bytes, header crc, bytes used)."""
        inp = self.inp
        kept = bytearray()
        used = 0
        while True:
            end = inp.buf.find(0)
            part = inp.take(end + 1 if end >= 0 else len(inp.buf))
            crc = zlib.crc32(part, crc)
            used += len(part)
            if len(kept) < GZ_MAX_NAME:
                kept += part[:GZ_MAX_NAME - len(kept)]
            if end >= 0:
                return bytes(kept).rstrip(b"\0"), crc, used
            if not await inp.need(1):
                raise _GzipError("unexpected end of file")

    async def _trailing(self) -> bool:
        """After a member, something that is not one: zero padding (ignored) or garbage
        (ignored with a warning, as GNU gzip)."""
        inp = self.inp
        while inp.buf and inp.buf[0] == 0:
            zeros = len(inp.buf) - len(inp.buf.lstrip(b"\0"))
            del inp.buf[:zeros]
            if not inp.buf and not await inp.need(1):
                if self.verbose:
                    self.warning = "decompression OK, trailing zero bytes ignored"
                return False
            await self.checkpoint()
        self.warning = "decompression OK, trailing garbage ignored"
        return False

    async def body(self, write) -> None:
        """Inflate the member whose header was read to ``await write(chunk)``; check its trailer."""
        inp = self.inp
        inflater = zlib.decompressobj(-15)
        crc = size = 0
        more = False  # the last step filled its output: there may be more without new input
        while not inflater.eof:
            if inflater.unconsumed_tail or more:
                data = inflater.unconsumed_tail
            else:
                if not inp.buf and not await inp.need(1):
                    raise _GzipError("unexpected end of file")
                data = bytes(inp.buf)
                inp.buf.clear()
            try:
                out = inflater.decompress(data, GZ_OUT)
            except zlib.error:
                raise _GzipError("invalid compressed data--format violated") from None
            more = len(out) == GZ_OUT
            if out:
                crc = zlib.crc32(out, crc)
                size += len(out)
                await write(out)
            await self.checkpoint()
        inp.buf[:0] = inflater.unused_data
        if not await inp.need(8):
            raise _GzipError("unexpected end of file")
        want_crc, want_size = struct.unpack("<II", inp.take(8))
        if want_crc != crc:
            raise _GzipError("invalid compressed data--crc error")
        if want_size != size & 0xFFFFFFFF:
            raise _GzipError("invalid compressed data--length error")

    async def run(self, write, header_read: bool = False) -> None:
        """Every member to ``write``; the first header may have been read already."""
        if not header_read and not await self.header():
            return
        while True:
            await self.body(write)
            if not await self.header():
                return

    async def last_trailer(self) -> bytes:
        """Skip to the end of the input; its last 8 bytes (crc and size of the last member)."""
        inp = self.inp
        tail = bytes(inp.buf[-8:])
        inp.buf.clear()
        while await inp.need(1):
            tail = (tail + inp.take(len(inp.buf)))[-8:]
            await self.checkpoint()
        return tail


def _gzip_header(level: int, name: str | None, mtime: int) -> bytes:
    flags = 0x08 if name else 0
    header = b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", mtime & 0xFFFFFFFF)
    header += bytes([2 if level == 9 else 4 if level == 1 else 0, 3])  # XFL, OS=Unix
    if name:
        header += name.encode("utf-8", "surrogateescape").replace(b"\0", b"") + b"\0"
    return header


async def _deflate(stream, write, level: int, name: str | None, mtime: int, checkpoint) -> tuple[int, int]:
    """gzip ``stream`` to ``await write(chunk)`` a block at a time (zlib's output does not
    depend on how its input is cut, so this is what GNU gzip writes); -> (input bytes,
    deflated bytes)."""
    await write(_gzip_header(level, name, mtime))
    deflater = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
    crc = size = body = 0
    while chunk := await stream.read_some(GZ_IN):
        crc = zlib.crc32(chunk, crc)
        size += len(chunk)
        out = deflater.compress(chunk)
        if out:
            body += len(out)
            await write(out)
        await checkpoint()
    out = deflater.flush()
    body += len(out)
    await write(out + struct.pack("<II", crc, size & 0xFFFFFFFF))
    return size, body


@command("gzip", "gunzip", "zcat", help=GZIP_HELP, own_help=True)
async def gzip_cmd(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "cdfhklnNqrS:tv123456789", _GZIP_LONG, status=1)
    decompress = ctx.name in ("gunzip", "zcat")
    to_stdout = ctx.name == "zcat"
    force = keep = listing = test = recursive = verbose = quiet = restore_name = False
    save_name = True
    level = 6
    suffix = ".gz"
    for o, v in opts:
        if o == "h":
            await ctx.out(GZIP_HELP.replace("gzip", ctx.name, 1) + "\n")
            return 0
        if o == "c":
            to_stdout = True
        elif o == "d":
            decompress = True
        elif o == "f":
            force = True
        elif o == "k":
            keep = True
        elif o == "l":
            listing = True
        elif o == "n":
            save_name = restore_name = False
        elif o == "N":
            save_name = restore_name = True
        elif o == "q":
            quiet = True
        elif o == "r":
            recursive = True
        elif o == "S":
            suffix = v if v.startswith(".") or not v else v
        elif o == "t":
            test = True
        elif o == "v":
            verbose = True
        elif isdigits(o):
            level = int(o)
    gz = _Gzip(ctx, decompress or listing or test, to_stdout, force, keep, save_name, level,
               suffix, verbose, quiet, restore_name)
    files = files or ["-"]
    if listing:
        return await gz.list(files)
    if test:
        return await gz.test(files)
    for f in files:
        if f != "-" and ctx.fs.is_dir(f, cwd=ctx.cwd):
            if recursive:
                for root, _dirs, names in ctx.fs.walk(ctx.resolve(f)):
                    for n in names:
                        await gz.one(f"{root}/{n}" if not f.startswith("/") else f"{root}/{n}")
                continue
            if not quiet:
                await ctx.err(f"gzip: {f} is a directory -- ignored\n")
            gz.status = max(gz.status, 2)
            continue
        await gz.one(f)
    return gz.status


class _Gzip:
    def __init__(self, ctx, decompress, to_stdout, force, keep, save_name, level, suffix,
                 verbose, quiet, restore_name=False):
        self.ctx = ctx
        self.decompress = decompress
        self.to_stdout = to_stdout
        self.force = force
        self.keep = keep
        self.save_name = save_name
        self.restore_name = restore_name
        self.level = level
        self.suffix = suffix
        self.verbose = verbose
        self.quiet = quiet
        self.status = 0

    async def warn(self, message: str, status: int = 2) -> None:
        if not self.quiet:
            await self.ctx.err(f"gzip: {message}\n")
        self.status = max(self.status, status)

    async def fail(self, name: str, error: "_GzipError | str") -> None:
        if isinstance(error, str):
            error = _GzipError(error, newline=False)
        await self.ctx.err(f"{chr(10) if error.newline else ''}gzip: {name}: {error.message}\n")
        self.status = max(self.status, 1)

    async def _warned(self, name: str, gunzip: _Gunzip) -> None:
        """Trailing garbage (or, verbose, zeros): said like GNU, status 2, output kept."""
        if gunzip.warning is not None:
            if not self.quiet:
                await self.ctx.err(f"\ngzip: {name}: {gunzip.warning}\n")
            self.status = max(self.status, 2)

    def _open(self, name: str):
        """(input stream, stat) of an operand; '-' is stdin (stat None). Raises FSError."""
        ctx = self.ctx
        if name == "-":
            return ctx.stdin, None
        st = ctx.fs.stat(name, cwd=ctx.cwd)
        return ctx.open_input(name), st

    async def one(self, name: str) -> None:
        try:
            stream, st = self._open(name)
        except FSError as e:
            await self.warn(f"{name}: {e.strerror}", 1)
            return
        shown = "stdin" if st is None else name
        try:
            if self.decompress:
                await self._decompress(name, shown, stream, st)
            else:
                await self._compress(name, stream, st)
        finally:
            if stream is not self.ctx.stdin:
                stream.close()

    async def _decompress(self, name: str, shown: str, stream, st) -> None:
        ctx = self.ctx
        gunzip = _Gunzip(stream, ctx.checkpoint, self.verbose)
        out_name = None
        if st is not None and not self.to_stdout:
            out_name = self._strip_suffix(name)
            if out_name is None:
                await self.warn(f"{name}: unknown suffix -- ignored", 2)
                return
        try:
            await gunzip.header()
        except _GzipError as e:
            await self.fail(shown, e)
            return
        if out_name is None:
            try:
                await gunzip.run(ctx.stdout.write, header_read=True)
            except _GzipError as e:
                await self.fail(shown, e)
                return
            await self._warned(shown, gunzip)
            return
        if self.restore_name and gunzip.name:
            out_name = name.rsplit("/", 1)[0] + "/" + gunzip.name.rsplit("/", 1)[-1] if "/" in name \
                else gunzip.name.rsplit("/", 1)[-1]
        mtime = gunzip.mtime if self.restore_name and gunzip.mtime else st.st_mtime

        async def produce(write) -> None:
            await gunzip.run(write, header_read=True)
        sizes = await self._to_file(name, out_name, st, produce, mtime)
        if sizes is None:
            return
        await self._warned(name, gunzip)
        if self.verbose:
            unpacked = sizes[1]
            deflated = gunzip.inp.total - gunzip.header_bytes - 8
            await self._told(name, out_name, _ratio(unpacked, deflated))

    async def _compress(self, name: str, stream, st) -> None:
        ctx = self.ctx
        if st is None or self.to_stdout:
            stored = name.rstrip("/").rsplit("/", 1)[-1] if st is not None and self.save_name else None
            mtime = int(st.st_mtime) if st is not None and self.save_name else 0
            await _deflate(stream, ctx.stdout.write, self.level, stored, mtime, ctx.checkpoint)
            return
        if name.endswith(self.suffix) and not self.force:
            await self.warn(f"{name} already has {self.suffix} suffix -- unchanged", 2)
            return
        base = name.rstrip("/").rsplit("/", 1)[-1]
        counts: list[int] = []

        async def produce(write) -> None:
            counts.extend(await _deflate(stream, write, self.level, base if self.save_name else None,
                                         int(st.st_mtime) if self.save_name else 0, ctx.checkpoint))
        dest = name + self.suffix
        if await self._to_file(name, dest, st, produce, st.st_mtime) is not None and self.verbose:
            await self._told(name, dest, _ratio(counts[0], counts[1]))

    async def _to_file(self, src: str, dest: str, st, produce, mtime: float) -> tuple[int, int] | None:
        """Write ``dest`` from ``await produce(write)`` as it comes (each block meets the VFS
        quota), give it ``src``'s mode and ``mtime``, remove ``src`` unless kept. On an error
        the partial output is removed, as GNU gzip does; -> (0, bytes written) or None."""
        ctx = self.ctx
        if ctx.fs.exists(dest, cwd=ctx.cwd, follow=False) and not self.force:
            await self.ctx.err(f"gzip: {dest} already exists;\tnot overwritten\n")
            self.status = max(self.status, 2)
            return None
        written = 0
        try:
            if ctx.fs.exists(dest, cwd=ctx.cwd, follow=False):
                ctx.fs.unlink(dest, cwd=ctx.cwd)
            out = ctx.fs.open(dest, "wb", cwd=ctx.cwd, perm=0o600)
        except FSError as e:
            await self.warn(f"{dest}: {e.strerror}", 1)
            return None

        async def write(data: bytes) -> None:
            nonlocal written
            out.write(data)
            written += len(data)
        try:
            with out:
                await produce(write)
        except (_GzipError, FSError) as e:
            try:
                ctx.fs.unlink(dest, cwd=ctx.cwd)
            except FSError:
                pass
            if isinstance(e, _GzipError):
                await self.fail(src, e)
            else:
                await self.warn(f"{dest}: {e.strerror}", 1)
            return None
        except BaseException:
            try:
                ctx.fs.unlink(dest, cwd=ctx.cwd)
            except FSError:
                pass
            raise
        try:
            ctx.fs.chmod(dest, _stat.S_IMODE(st.st_mode), cwd=ctx.cwd)
            ctx.fs.utime(dest, mtime, cwd=ctx.cwd)
            if not self.keep:
                ctx.fs.unlink(src, cwd=ctx.cwd)
        except FSError as e:
            await self.warn(f"{e.filename or dest}: {e.strerror}", 1)
            return None
        return 0, written

    async def _told(self, src: str, dest: str, ratio: float) -> None:
        await self.ctx.err(f"{src}:\t{ratio:5.1f}% -- {'created' if self.keep else 'replaced with'} {dest}\n")

    def _strip_suffix(self, name: str) -> str | None:
        for suf in (self.suffix, ".gz", ".z", "-gz", ".tgz", ".taz"):
            if name.endswith(suf) and len(name) > len(suf):
                stem = name[:-len(suf)]
                return stem + ".tar" if suf in (".tgz", ".taz") else stem
        return None

    async def list(self, files: list[str]) -> int:
        """GNU's -l: the sizes from the first header and the last member's trailer (nothing
        is decompressed)."""
        ctx = self.ctx
        rows = []
        for name in files:
            try:
                stream, st = self._open(name)
            except FSError as e:
                await self.warn(f"{name}: {e.strerror}", 1)
                continue
            shown_err = "stdin" if st is None else name
            gunzip = _Gunzip(stream, ctx.checkpoint)
            try:
                await gunzip.header()
                trailer = await gunzip.last_trailer()
            except _GzipError as e:
                await self.fail(shown_err, e)
                continue
            finally:
                if stream is not ctx.stdin:
                    stream.close()
            if len(trailer) < 8:
                await self.fail(shown_err, _GzipError("unexpected end of file"))
                continue
            compressed = gunzip.inp.total
            uncompressed = struct.unpack("<I", trailer[4:])[0]
            deflated = compressed - gunzip.header_bytes - 8
            shown = self._strip_suffix(name) if name != "-" else "stdout"
            rows.append((compressed, uncompressed, deflated, shown or name))
        if not rows:
            return self.status
        await ctx.out("         compressed        uncompressed  ratio uncompressed_name\n")
        for comp, uncomp, deflated, shown in rows:
            await ctx.out(f"{comp:19d} {uncomp:19d} {_ratio(uncomp, deflated):5.1f}% {shown}\n")
        if len(rows) > 1:
            comp = sum(r[0] for r in rows)
            uncomp = sum(r[1] for r in rows)
            deflated = sum(r[2] for r in rows)
            await ctx.out(f"{comp:19d} {uncomp:19d} {_ratio(uncomp, deflated):5.1f}% (totals)\n")
        return self.status

    async def test(self, files: list[str]) -> int:
        ctx = self.ctx

        async def discard(data: bytes) -> None:
            pass
        for name in files:
            try:
                stream, st = self._open(name)
            except FSError as e:
                await self.warn(f"{name}: {e.strerror}", 1)
                continue
            shown = "stdin" if st is None else name
            gunzip = _Gunzip(stream, ctx.checkpoint, self.verbose)
            try:
                await gunzip.run(discard)
            except _GzipError as e:
                await self.fail(shown, e)
                continue
            finally:
                if stream is not ctx.stdin:
                    stream.close()
            await self._warned(shown, gunzip)
            if self.verbose and gunzip.warning is None:
                await ctx.err(f"{name}:\t OK\n")
        return self.status


def _ratio(uncompressed: int, deflated: int) -> float:
    if uncompressed == 0:
        return 0.0
    return (uncompressed - deflated) * 100.0 / uncompressed
