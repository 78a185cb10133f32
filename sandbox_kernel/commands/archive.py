"""Archives over the VFS: tar (c/x/t, gzip/bzip2/xz via the stdlib), gzip/gunzip/zcat,
zip/unzip. Archives are standard formats: GNU tar, gzip and Info-ZIP read what these write
and vice versa."""
from __future__ import annotations

import bz2
import errno
import gzip as _gzip
import io
import lzma
import stat as _stat
import struct
import tarfile
import time as _time
import zipfile
import zlib
from datetime import datetime

from ..chars import isdigits
from ..vfs import FSError, normpath
from ..vfs.tar import clamp_mtime, open_archive
from ..wildcard import excluded, fnmatch
from ._lib.dates import local_zone, zoned_datetime
from .options import UsageError, getopt
from .registry import CommandContext, command

USER_NAME = "user"
USER_ID = 1000


def _mode_string(mode: int, kind: str) -> str:
    first = {"dir": "d", "symlink": "l", "hardlink": "h", "file": "-", "char": "c", "block": "b",
             "fifo": "p"}.get(kind, "-")
    bits = ""
    for who in range(3):
        shift = 6 - 3 * who
        r = "r" if mode & (4 << shift) else "-"
        w = "w" if mode & (2 << shift) else "-"
        x = mode & (1 << shift)
        special = mode & (0o4000 >> who) if who < 2 else mode & 0o1000
        if special:
            xc = ("s" if who < 2 else "t") if x else ("S" if who < 2 else "T")
        else:
            xc = "x" if x else "-"
        bits += r + w + xc
    return first + bits


# ============================================================================ tar

TAR_HELP = """Usage: tar [OPTION...] [FILE]...
GNU 'tar' saves many files together into a single tape or disk archive, and can
restore individual files from the archive.

Examples:
  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar.
  tar -tvf archive.tar         # List all files in archive.tar verbosely.
  tar -xf archive.tar          # Extract all files from archive.tar.

 Main operation mode:
  -c, --create               create a new archive
  -t, --list                 list the contents of an archive
  -x, --extract, --get       extract files from an archive
  -r, --append               append files to the end of an archive

 Options:
  -f, --file=ARCHIVE         use archive file or device ARCHIVE ('-' is stdin/stdout)
  -C, --directory=DIR        change to directory DIR
  -v, --verbose              verbosely list files processed
  -z, --gzip                 filter the archive through gzip
  -j, --bzip2                filter the archive through bzip2
  -J, --xz                   filter the archive through xz
  -a, --auto-compress        use archive suffix to determine the compression program
  -O, --to-stdout            extract files to standard output
  -k, --keep-old-files       don't replace existing files when extracting
      --exclude=PATTERN      exclude files, given as a PATTERN
      --strip-components=NUMBER   strip NUMBER leading components from file
                             names on extraction
  -p, --preserve-permissions extract information about file permissions
  -h, --dereference          follow symlinks; archive the files they point to
"""

_TAR_LONG = {
    "create": "c", "list": "t", "extract": "x", "get": "x", "append": "r", "file=": "f",
    "directory=": "C", "verbose": "v", "gzip": "z", "gunzip": "z", "ungzip": "z",
    "bzip2": "j", "xz": "J", "auto-compress": "a", "to-stdout": "O", "keep-old-files": "k",
    "exclude=": None, "strip-components=": None, "preserve-permissions": "p",
    "same-permissions": "p", "dereference": "h", "no-same-owner": None, "same-owner": None,
    "overwrite": None, "numeric-owner": None, "owner=": None, "group=": None, "mode=": None,
    "no-recursion": None, "recursion": None, "totals": None, "wildcards": None,
    "anchored": None, "sort=": None, "mtime=": None, "show-transformed-names": None,
    "absolute-names": "P", "one-file-system": None, "warning=": None,
    "exclude-vcs": None,
}

_OLD_STYLE_ARG_LETTERS = set("fCbTXgNLV")


def _expand_old_style(args: list[str]) -> list[str]:
    """'tar czf a.tgz dir' -> 'tar -c -z -f a.tgz dir' (the first word without a dash)."""
    if not args or args[0].startswith("-"):
        return args
    letters = args[0]
    rest = args[1:]
    out = []
    for ch in letters:
        if ch in _OLD_STYLE_ARG_LETTERS:
            if not rest:
                out.append("-" + ch)
                continue
            out += ["-" + ch, rest.pop(0)]
        else:
            out.append("-" + ch)
    return out + rest


class TarFailure(Exception):
    pass


@command("tar", help=TAR_HELP)
async def tar(ctx: CommandContext) -> int:
    args = _expand_old_style(list(ctx.args))
    try:
        opts, operands = getopt(args, "ctxrf:C:vzjJaOkphP", _TAR_LONG)
    except UsageError as e:
        await ctx.error(e.message)
        await ctx.err("Try 'tar --help' or 'tar --usage' for more information.\n")
        return 64  # what GNU tar exits with on a bad option
    mode = None
    archive = "-"
    verbose = 0
    compression = None
    auto = to_stdout = keep_old = dereference = absolute = False
    excludes: list[str] = []
    strip = 0
    directory_changes: list[str] = []
    for o, v in opts:
        if o in ("c", "t", "x", "r"):
            if mode is not None and mode != o:
                await ctx.error("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
                await ctx.err("Try 'tar --help' or 'tar --usage' for more information.\n")
                return 2
            mode = o
        elif o == "f":
            archive = v
        elif o == "C":
            directory_changes.append(v)
        elif o == "v":
            verbose += 1
        elif o == "z":
            compression = "gz"
        elif o == "j":
            compression = "bz2"
        elif o == "J":
            compression = "xz"
        elif o == "a":
            auto = True
        elif o == "O":
            to_stdout = True
        elif o == "k":
            keep_old = True
        elif o == "h":
            dereference = True
        elif o == "P":
            absolute = True
        elif o == "exclude":
            excludes.append(v)
        elif o == "strip-components":
            if not isdigits(v):
                await ctx.error(f"Invalid number of elements: '{v}'")
                return 2
            strip = int(v)
    if mode is None:
        await ctx.error("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
        await ctx.err("Try 'tar --help' or 'tar --usage' for more information.\n")
        return 2
    if auto and compression is None and archive != "-":
        for suffix, kind in ((".tgz", "gz"), (".gz", "gz"), (".tbz2", "bz2"), (".bz2", "bz2"),
                             (".txz", "xz"), (".xz", "xz")):
            if archive.endswith(suffix):
                compression = kind
    base = ctx.resolve(directory_changes[-1]) if directory_changes else ctx.cwd
    if directory_changes and not ctx.fs.is_dir(base):
        await ctx.error(f"{directory_changes[-1]}: Cannot open: No such file or directory")
        await ctx.error("Error is not recoverable: exiting now")
        return 2
    runner = _Tar(ctx, base, verbose, excludes, strip, keep_old, to_stdout, dereference,
                  absolute, archive)
    try:
        if mode in ("c", "r"):
            if not operands:
                await ctx.error("Cowardly refusing to create an empty archive")
                await ctx.err("Try 'tar --help' or 'tar --usage' for more information.\n")
                return 2
            existing = b""
            if mode == "r":
                if compression:
                    await ctx.error("Cannot update compressed archives")
                    await ctx.error("Error is not recoverable: exiting now")
                    return 2
                if archive != "-" and ctx.fs.exists(archive, cwd=ctx.cwd):
                    existing = ctx.fs.read_bytes(archive, cwd=ctx.cwd)
            data = await runner.create(operands, existing)
            data = _compress(data, compression)
            if archive == "-":
                await ctx.stdout.write(data)
            else:
                ctx.fs.write_bytes(archive, data, cwd=ctx.cwd)
        else:
            if archive == "-":
                raw = await ctx.stdin.read()
            else:
                try:
                    raw = ctx.fs.read_bytes(archive, cwd=ctx.cwd)
                except FSError as e:
                    await ctx.error(f"{archive}: Cannot open: {e.strerror}")
                    await ctx.error("Error is not recoverable: exiting now")
                    return 2
            await runner.read(raw, operands, listing=(mode == "t"))
    except TarFailure:
        return 2
    if runner.failed:
        await ctx.error("Exiting with failure status due to previous errors")
        return 2
    return 0


def _compress(data: bytes, kind: str | None) -> bytes:
    if kind == "gz":
        return _gzip.compress(data, mtime=int(_time.time()))
    if kind == "bz2":
        return bz2.compress(data)
    if kind == "xz":
        return lzma.compress(data)
    return data


class _Tar:
    def __init__(self, ctx, base, verbose, excludes, strip, keep_old, to_stdout, dereference,
                 absolute, archive):
        self.ctx = ctx
        self.base = base
        self.verbose = verbose
        self.excludes = excludes
        self.strip = strip
        self.keep_old = keep_old
        self.to_stdout = to_stdout
        self.dereference = dereference
        self.absolute = absolute
        self.archive = archive
        self.failed = False
        self.zone = local_zone(ctx.env)
        self.warned_prefixes: set[str] = set()
        self.warned_link_prefixes: set[str] = set()
        self.links: set[str] = set()  # symlinks this extraction made: later members never go through them

    async def _verbose_out(self, text: str) -> None:
        # the listing goes to stderr when the archive itself is on stdout
        if self.archive == "-":
            await self.ctx.err(text)
        else:
            await self.ctx.out(text)

    def _excluded(self, name: str) -> bool:
        # GNU tar: unanchored, and a directory's match excludes what is under it
        name = name.rstrip("/")
        return any(excluded(pat.rstrip("/"), name, leading_dir=True) for pat in self.excludes)

    # ------------------------------------------------------------------ create
    async def create(self, operands: list[str], existing: bytes) -> bytes:
        buf = io.BytesIO()
        if existing:
            # drop the end-of-archive blocks and continue after the last member
            with tarfile.open(fileobj=io.BytesIO(existing), mode="r:") as old:
                old.getmembers()  # reads to the end of the last member
                end = old.offset
            buf.write(existing[:end])
        with tarfile.open(fileobj=buf, mode="a:" if existing else "w:", format=tarfile.GNU_FORMAT) as tf:
            for operand in operands:
                await self._add(tf, operand)
        return buf.getvalue()

    async def _add(self, tf: tarfile.TarFile, name: str) -> None:
        ctx = self.ctx
        path = normpath(name, self.base)
        member = name.rstrip("/") or name   # the name as written, less its trailing slashes
        if not self.absolute:
            prefix, member = _safer_name(member)
            if prefix and prefix not in self.warned_prefixes:
                self.warned_prefixes.add(prefix)
                await ctx.error(f"Removing leading `{prefix}' from member names")
        if self._excluded(member):
            return
        try:
            st = ctx.fs.stat(path) if self.dereference else ctx.fs.lstat(path)
        except FSError as e:
            await ctx.error(f"{name}: Cannot stat: {e.strerror}")
            self.failed = True
            return
        await ctx.checkpoint()
        info = tarfile.TarInfo(member)
        info.mode = _stat.S_IMODE(st.st_mode)
        info.mtime = int(st.st_mtime)
        info.uid = st.st_uid
        info.gid = st.st_gid
        info.uname = _user_name(st.st_uid)
        info.gname = _user_name(st.st_gid)
        if _stat.S_ISDIR(st.st_mode):
            info.type = tarfile.DIRTYPE
            tf.addfile(info)
            if self.verbose:
                await self._verbose_out(self._describe(info) + "\n")
            for child in ctx.fs.listdir(path):
                await self._add(tf, f"{name.rstrip('/')}/{child}" if name not in ("/",) else f"/{child}")
            return
        if _stat.S_ISLNK(st.st_mode):
            info.type = tarfile.SYMTYPE
            info.linkname = ctx.fs.readlink(path)
            tf.addfile(info)
        elif _stat.S_ISREG(st.st_mode):
            try:
                data = ctx.fs.read_bytes(path)
            except FSError as e:
                await ctx.error(f"{name}: Cannot open: {e.strerror}")
                self.failed = True
                return
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        else:
            await ctx.error(f"{name}: file type not archived")
            return
        if self.verbose:
            await self._verbose_out(self._describe(info) + "\n")

    def _describe(self, info: tarfile.TarInfo) -> str:
        name = info.name + ("/" if info.isdir() and not info.name.endswith("/") else "")
        if self.verbose < 2:
            return name
        return _long_listing(info, self.zone, name)

    # ------------------------------------------------------------------ list / extract
    async def read(self, raw: bytes, operands: list[str], listing: bool) -> None:
        """List or extract the archive ``raw`` (plain or compressed) as a stream: members are
        decompressed a block at a time, so a bomb costs time (bounded by the run) and VFS
        quota, never host memory."""
        ctx = self.ctx
        try:
            tf = tarfile.open(fileobj=_Checked(open_archive(io.BytesIO(raw)), ctx.check), mode="r|")
        except (tarfile.TarError, OSError, EOFError, lzma.LZMAError, zlib.error):
            await ctx.error("This does not look like a tar archive")
            await ctx.error("Exiting with failure status due to previous errors")
            raise TarFailure() from None
        wanted = [op.rstrip("/") for op in operands]
        matched = set()
        with tf:
            try:
                for info in tf:
                    tf.members.clear()  # tarfile keeps every TarInfo (a deep tree's names are huge)
                    await ctx.checkpoint()
                    hit = next((w for w in wanted if _member_matches(info.name, w)), None)
                    if wanted and hit is None:
                        continue
                    matched.add(hit)
                    if self._excluded(info.name):
                        continue
                    if listing:
                        shown = info.name + ("/" if info.isdir() and not info.name.endswith("/") else "")
                        line = _long_listing(info, self.zone, shown) if self.verbose else shown
                        await ctx.out(line + "\n")
                        continue
                    await self._extract(tf, info)
            except (tarfile.TarError, OSError, EOFError, lzma.LZMAError, zlib.error) as e:
                await ctx.error(f"{e}" if isinstance(e, tarfile.TarError) else "Unexpected EOF in archive")
                raise TarFailure() from None
        for w in wanted:
            if w not in matched:
                await ctx.error(f"{w}: Not found in archive")
                self.failed = True

    def _through_link(self, path: str) -> bool:
        """Whether a directory on the way to ``path`` is a symlink this extraction made."""
        while (path := path.rsplit("/", 1)[0]) and path != self.base:
            if path in self.links:
                return True
        return False

    async def _link_target(self, link: str) -> str:
        """A hard link's target inside the extraction directory: GNU drops a leading ``/``
        and everything up to a ``..``, with a warning each once."""
        parts = [p for p in link.split("/") if p not in ("", ".")]
        prefix = "/" if link.startswith("/") else ""
        if ".." in parts:
            last = len(parts) - parts[::-1].index("..")
            prefix += "/".join(parts[:last]) + "/"
            parts = parts[last:]
        if prefix and prefix not in self.warned_link_prefixes:
            self.warned_link_prefixes.add(prefix)
            await self.ctx.error(f"Removing leading `{prefix}' from hard link targets")
        return "/".join(parts[self.strip:])

    async def _extract(self, tf: tarfile.TarFile, info: tarfile.TarInfo) -> None:
        ctx = self.ctx
        name = info.name
        parts = [p for p in name.split("/") if p not in ("", ".")]
        if ".." in parts:
            await ctx.error(f"{name}: Member name contains '..'")
            self.failed = True
            return
        if self.strip:
            if len(parts) <= self.strip:
                return
            parts = parts[self.strip:]
        if not parts:
            return
        rel = "/".join(parts)
        if self.verbose:
            await ctx.out(self._describe(info) + "\n")
        if self.to_stdout:
            if info.isfile():
                await self._copy(tf, info, ctx.stdout.write)
            return
        target = normpath(rel, self.base)
        fs = ctx.fs
        if self._through_link(target):
            await ctx.error(f"{rel}: Cannot open: Not a directory")
            self.failed = True
            return
        try:
            parent = target.rsplit("/", 1)[0] or "/"
            if not fs.exists(parent):
                fs.mkdir(parent, parents=True)
            if info.isdir():
                if not fs.is_dir(target):
                    if fs.exists(target, follow=False):
                        fs.unlink(target)
                    fs.mkdir(target, mode=info.mode or 0o755)
                fs.chmod(target, (info.mode or 0o755) | 0o700)
                fs.utime(target, clamp_mtime(info.mtime))
                return
            if fs.exists(target, follow=False):
                if self.keep_old:
                    await ctx.error(f"{rel}: Cannot open: File exists")
                    self.failed = True
                    return
                if fs.is_dir(target) and not fs.lstat(target).type == "symlink":
                    await ctx.error(f"{rel}: Cannot open: Is a directory")
                    self.failed = True
                    return
                fs.unlink(target)
            if info.issym():
                fs.symlink(info.linkname, target)
                self.links.add(target)
            elif info.islnk():
                link = await self._link_target(info.linkname)
                source = normpath(link, self.base)
                try:
                    if self._through_link(source):
                        raise FSError(errno.ENOTDIR, link)
                    fs.link(source, target)
                except FSError as e:
                    await ctx.error(f"{rel}: Cannot hard link to '{link}': {e.strerror}")
                    self.failed = True
            elif info.isfile():
                with fs.open(target, "wb") as out:
                    try:
                        await self._copy(tf, info, _sync(out.write))
                    except FSError as e:
                        await ctx.error(f"{rel}: Cannot write: {e.strerror}")
                        self.failed = True
                        return
                fs.chmod(target, info.mode & 0o7777)
                fs.utime(target, clamp_mtime(info.mtime))
            else:
                await ctx.error(f"{rel}: Cannot create special file: Operation not permitted")
                self.failed = True
        except FSError as e:
            await ctx.error(f"{rel}: Cannot open: {e.strerror}")
            self.failed = True


    async def _copy(self, tf: tarfile.TarFile, info: tarfile.TarInfo, write) -> None:
        """The member's data to ``await write(chunk)``, a MiB at a time."""
        src = tf.extractfile(info)
        while src is not None and (chunk := src.read(1 << 20)):
            await write(chunk)
            await self.ctx.checkpoint()


def _sync(write):
    """``write`` as a coroutine function, for ``_Tar._copy``."""
    async def call(data: bytes) -> None:
        write(data)
    return call


class _Checked(io.RawIOBase):
    """A reader that calls ``check()`` (the run's wall time and interrupt) on every read:
    tarfile skips the data of a member it is not asked for inside one call."""

    def __init__(self, inner, check) -> None:
        self.inner = inner
        self.check = check

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        self.check()
        data = self.inner.read(len(buf))
        buf[:len(data)] = data
        return len(data)


def _user_name(uid: int) -> str:
    return "root" if uid == 0 else USER_NAME if uid == USER_ID else str(uid)


def _clean_member(name: str) -> str:
    parts = [p for p in name.split("/") if p not in ("", ".")]
    cleaned = "/".join(parts)
    return cleaned or "."


def _safer_name(name: str) -> tuple[str, str]:
    """GNU tar's member name for NAME: (the prefix it removes, the rest). A leading ``/`` and
    everything up to the last ``..`` component go; the rest stays as written (``./a``,
    ``dir//a``, ``dir/./a``); nothing left is ``.``."""
    cut = 0
    i = 0
    while i < len(name):
        if name.startswith("..", i) and (i + 2 == len(name) or name[i + 2] == "/"):
            cut = i + 2
        slash = name.find("/", i)
        i = len(name) if slash < 0 else slash + 1
    while cut < len(name) and name[cut] == "/":
        cut += 1
    return name[:cut], name[cut:] or "."


def _member_matches(name: str, wanted: str) -> bool:
    name = name.rstrip("/")
    if name == wanted or name.startswith(wanted + "/"):
        return True
    return any(ch in wanted for ch in "*?[") and fnmatch(wanted, name, leading_dir=True)


def _long_listing(info: tarfile.TarInfo, zone, name: str) -> str:
    kind = ("dir" if info.isdir() else "symlink" if info.issym() else
            "hardlink" if info.islnk() else "file")
    owner = f"{info.uname or info.uid}/{info.gname or info.gid}"
    size = str(info.size)
    pad = max(19 - len(owner) - len(size), 1)
    when = zoned_datetime(clamp_mtime(info.mtime), zone).strftime("%Y-%m-%d %H:%M")
    text = f"{_mode_string(info.mode, 'dir' if info.isdir() else 'symlink' if info.issym() else 'file')} " \
           f"{owner}{' ' * pad}{size} {when} {name}"
    if kind == "symlink":
        text += f" -> {info.linkname}"
    elif kind == "hardlink":
        text += f" link to {info.linkname}"
    return text


# ============================================================================ gzip

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


# ============================================================================ zip

#: members are read and written this much at a time
ZIP_CHUNK = 1 << 20
#: members larger than this are written with zip64 sizes
ZIP_BIG = 1 << 31


class _VfsFile(io.RawIOBase):
    """A VFS file handle as the seekable file zipfile reads in place (no copy of the archive)."""

    def __init__(self, handle) -> None:
        self.handle = handle

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        data = self.handle.read(len(buf))
        buf[:len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.handle.seek(offset, whence)

    def tell(self) -> int:
        return self.handle.tell()


def _split_excludes(args: list[str], flags: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """zip/unzip ``-x``: every name after it, up to the next option, is an exclude pattern.
    Returns the other args and the patterns."""
    rest: list[str] = []
    excludes: list[str] = []
    i = 0
    while i < len(args):
        if args[i] in flags:
            i += 1
            while i < len(args) and not args[i].startswith("-"):
                excludes.append(args[i])
                i += 1
            continue
        rest.append(args[i])
        i += 1
    return rest, excludes


ZIP_HELP = """Usage: zip [-options] zipfile list
  The default action is to add or replace zipfile entries from list.
  -r   recurse into directories      -j   junk (don't record) directory names
  -d   delete entries in zipfile     -q   quiet operation
  -0   store only                    -1..-9 compress faster..better
  -x   exclude the following names   -m   move into zipfile (delete OS files)
"""


@command("zip", help=ZIP_HELP)
async def zip_cmd(ctx: CommandContext) -> int:
    cleaned, excludes = _split_excludes(ctx.args, ("-x", "--exclude"))
    try:
        opts, operands = getopt(cleaned, "rjdqm0123456789DX", {"recurse-paths": "r",
                                                              "junk-paths": "j", "delete": "d",
                                                              "quiet": "q", "move": "m"})
    except UsageError as e:
        await ctx.err(f"zip error: Invalid command arguments ({e.message})\n")
        return 16
    flags = {o for o, _ in opts}
    level = 6
    for o, _ in opts:
        if isdigits(o):
            level = int(o)
    quiet = "q" in flags
    if not operands:
        await ctx.err("zip error: Invalid command arguments (nothing to select from)\n")
        return 16
    archive = operands[0]
    if not archive.endswith(".zip") and "." not in archive.rsplit("/", 1)[-1]:
        archive += ".zip"
    names = operands[1:]
    # archive name -> (info, the new content, or None: the old archive's member, copied
    # through a bounded inflater when the archive is written)
    existing: dict[str, tuple[zipfile.ZipInfo, bytes | None]] = {}
    old_zip = None
    if ctx.fs.exists(archive, cwd=ctx.cwd):
        try:
            old_zip = zipfile.ZipFile(_VfsFile(ctx.fs.open(archive, "rb", cwd=ctx.cwd)))
        except zipfile.BadZipFile:
            await ctx.err(f"\nzip error: Zip file structure invalid ({archive})\n")
            return 3
        for info in old_zip.infolist():
            existing[info.filename] = (info, None)
    try:
        return await _zip_update(ctx, archive, names, existing, old_zip, flags, excludes, level, quiet)
    except (zipfile.BadZipFile, zlib.error, EOFError):
        await ctx.err(f"\nzip error: Zip file structure invalid ({archive})\n")
        return 3
    finally:
        if old_zip is not None:
            old_zip.close()


async def _zip_update(ctx, archive, names, existing, old_zip, flags, excludes, level, quiet) -> int:
    if "d" in flags:
        deleted = 0
        for pattern in names:
            for key in list(existing):
                if fnmatch(pattern, key) or key == pattern:
                    if not quiet:
                        await ctx.out(f"deleting: {key}\n")
                    del existing[key]
                    deleted += 1
        if not deleted:
            await _zip_warn(ctx, quiet, f"name not matched: {names[0] if names else ''}")
            await ctx.out(f"\nzip error: Nothing to do! ({archive})\n")
            return 12
        ctx.fs.write_bytes(archive, await _write_zip(ctx, existing, old_zip), cwd=ctx.cwd)
        return 0
    entries: list[tuple[str, str]] = []  # (archive name, vfs path)
    for name in names:
        path = ctx.resolve(name)
        if not ctx.fs.exists(path):
            await _zip_warn(ctx, quiet, f"name not matched: {name}")
            continue
        arcname = _clean_member(name.lstrip("/"))
        if ctx.fs.is_dir(path):
            _zip_collect(ctx, "" if arcname == "." else arcname, path, "r" in flags, entries)
        else:
            entries.append((arcname, path))
    if "j" in flags:
        entries = [(a.rsplit("/", 1)[-1], p) for a, p in entries if not a.endswith("/")]
    entries = [(a, p) for a, p in entries
               if not any(fnmatch(x, a) or fnmatch(x, a.rstrip("/")) for x in excludes)]
    if not entries:
        # Info-ZIP reports errors on stdout
        await ctx.out(f"\nzip error: Nothing to do! ({archive})\n")
        return 12
    zone = local_zone(ctx.env)
    for arcname, path in entries:
        await ctx.checkpoint()
        st = ctx.fs.stat(path)
        when = zoned_datetime(max(st.st_mtime, 315532800), zone)  # zip's dates are 1980..2107
        stamp = (when.year, when.month, when.day, when.hour, when.minute, when.second)
        info = zipfile.ZipInfo(arcname, min(stamp, (2107, 12, 31, 23, 59, 58)))
        info.create_system = 3
        is_dir = arcname.endswith("/")
        info.external_attr = ((_stat.S_IFDIR if is_dir else _stat.S_IFREG) | _stat.S_IMODE(st.st_mode)) << 16
        if is_dir:
            info.external_attr |= 0x10
        data = b"" if is_dir else ctx.fs.read_bytes(path)
        method, note = _zip_method(data, level)
        info.compress_type = method
        verb = "updating" if arcname in existing else "adding"
        existing[arcname] = (info, data)
        if not quiet:
            await ctx.out(f"{'  ' if verb == 'adding' else ''}{verb}: {arcname} ({note})\n")
    ctx.fs.write_bytes(archive, await _write_zip(ctx, existing, old_zip, level), cwd=ctx.cwd)
    if "m" in flags:
        for arcname, path in sorted(entries, key=lambda e: -len(e[1])):
            try:
                if ctx.fs.is_dir(path):
                    ctx.fs.rmdir(path)
                else:
                    ctx.fs.unlink(path)
            except FSError:
                pass
    return 0


async def _zip_warn(ctx, quiet: bool, message: str) -> None:
    """Info-ZIP writes warnings with its normal output, on stderr only when quiet."""
    text = f"\tzip warning: {message}\n"
    if quiet:
        await ctx.err(text)
    else:
        await ctx.out(text)


def _zip_collect(ctx, arcname: str, path: str, recurse: bool, entries: list) -> None:
    """A directory entry, then (with -r) its contents depth first in name order. The operand
    ``.`` (``arcname`` "") has no entry and its members no ``./`` (as Info-ZIP stores them)."""
    if arcname:
        entries.append((arcname + "/", path))
    if not recurse:
        return
    for child in ctx.fs.listdir(path):
        child_path = f"{path}/{child}"
        name = f"{arcname}/{child}" if arcname else child
        if ctx.fs.is_dir(child_path):
            _zip_collect(ctx, name, child_path, True, entries)
        else:
            entries.append((name, child_path))


def _zip_method(data: bytes, level: int) -> tuple[int, str]:
    if not data or level == 0:
        return zipfile.ZIP_STORED, "stored 0%"
    comp = zlib.compressobj(level, zlib.DEFLATED, -15)
    size = len(comp.compress(data) + comp.flush())
    if size >= len(data):
        return zipfile.ZIP_STORED, "stored 0%"
    return zipfile.ZIP_DEFLATED, f"deflated {int((len(data) - size) * 100 / len(data) + 0.5)}%"


async def _write_zip(ctx, entries: dict, old_zip, level: int = 6) -> bytes:
    """The archive of ``entries``: new content as given, members of ``old_zip`` inflated and
    deflated again a MiB at a time (a bomb already in the archive costs time, not memory)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compresslevel=level) as zf:
        for info, data in entries.values():
            method = zipfile.ZIP_DEFLATED if info.compress_type == zipfile.ZIP_DEFLATED else zipfile.ZIP_STORED
            if data is not None:
                zf.writestr(info, data, compress_type=method)
                continue
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.compress_type = method
            copy.create_system, copy.external_attr = info.create_system, info.external_attr
            copy.internal_attr, copy.comment = info.internal_attr, info.comment
            copy.file_size = info.file_size  # whether it needs zip64
            with old_zip.open(info) as src, zf.open(copy, "w", force_zip64=info.file_size > ZIP_BIG) as dst:
                while chunk := src.read(ZIP_CHUNK):
                    dst.write(chunk)
                    await ctx.checkpoint()
    return buf.getvalue()


UNZIP_HELP = """Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, to exdir;
  -p  extract files to pipe, no messages     -l  list files (short format)
  -v  list verbosely/show version info       -t  test compressed archive data
  -d  extract files into exdir               -o  overwrite files WITHOUT prompting
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -j  junk paths (do not make directories)
"""


@command("unzip", help=UNZIP_HELP)
async def unzip_cmd(ctx: CommandContext) -> int:
    cleaned, excludes = _split_excludes(ctx.args, ("-x",))
    try:
        opts, operands = getopt(cleaned, "lvtpd:onqjZ")
    except UsageError as e:
        await ctx.err(f"unzip:  {e.message}\n")
        return 10
    flags = [o for o, _ in opts]
    dest = ctx.cwd
    for o, v in opts:
        if o == "d":
            dest = ctx.resolve(v)
    quiet = flags.count("q")
    if not operands:
        await ctx.out(UNZIP_HELP)
        return 0
    archive = operands[0]
    candidates = [archive, archive + ".zip", archive + ".ZIP"]
    handle = None
    for cand in candidates:
        if ctx.fs.is_file(cand, cwd=ctx.cwd):
            handle = ctx.fs.open(cand, "rb", cwd=ctx.cwd)
            archive = cand
            break
    if handle is None:
        await ctx.err(f"unzip:  cannot find or open {candidates[0]}, {candidates[1]} or {candidates[2]}.\n")
        return 9
    try:
        zf = zipfile.ZipFile(_VfsFile(handle))
    except zipfile.BadZipFile:
        await ctx.out(f"Archive:  {archive}\n")
        await ctx.err(f"  End-of-central-directory signature not found.  Either this file is not\n"
                      f"  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n"
                      f"  latter case the central directory and zipfile comment will be found on\n"
                      f"  the last disk(s) of this archive.\n"
                      f"unzip:  cannot find zipfile directory in one of {candidates[0]} or\n"
                      f"        {candidates[1]}, and cannot find {candidates[2]}, period.\n")
        return 9
    wanted = operands[1:]

    def selected(name: str) -> bool:
        if wanted and not any(fnmatch(w, name) for w in wanted):
            return False
        return not any(fnmatch(x, name) for x in excludes)

    zone = local_zone(ctx.env)
    infos = [info for info in zf.infolist() if selected(info.filename)]
    if wanted and not infos:
        if "l" not in flags and "p" not in flags:
            await ctx.out(f"Archive:  {archive}\n")
        await ctx.err("caution: filename not matched:  " + wanted[0] + "\n")
        return 11
    if "v" in flags:
        await ctx.out(f"Archive:  {archive}\n")
        await ctx.out(" Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n"
                      "--------  ------  ------- ---- ---------- ----- --------  ----\n")
        total = ctotal = 0
        for info in infos:
            y, mo, d, h, mi, _ = info.date_time
            await ctx.out(f"{info.file_size:>8}  {_zip_method_name(info):<6} {info.compress_size:>8} "
                          f"{_zip_ratio(info.file_size, info.compress_size):>3}% "
                          f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d} {info.CRC:08x}  {info.filename}\n")
            total += info.file_size
            ctotal += info.compress_size
        n = len(infos)
        await ctx.out("--------          -------  ---                            -------\n"
                      f"{total:>8}         {ctotal:>8} {_zip_ratio(total, ctotal):>3}%"
                      f"                            {n} file{'s' if n != 1 else ''}\n")
        return 0
    if "l" in flags:
        await ctx.out(f"Archive:  {archive}\n")
        await ctx.out("  Length      Date    Time    Name\n---------  ---------- -----   ----\n")
        total = 0
        for info in infos:
            y, mo, d, h, mi, _ = info.date_time
            await ctx.out(f"{info.file_size:>9}  {y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}   {info.filename}\n")
            total += info.file_size
        n = len(infos)
        await ctx.out(f"---------                     -------\n{total:>9}                     "
                      f"{n} file{'s' if n != 1 else ''}\n")
        return 0
    with zf:
        return await _unzip(ctx, zf, archive, infos, flags, dest, quiet, zone)


async def _unzip_member(ctx, zf: zipfile.ZipFile, info: zipfile.ZipInfo, write) -> None:
    """A member's content to ``await write(chunk)``, inflated a MiB at a time (a bomb costs
    time, bounded by the run, and wherever the output goes). zipfile checks the CRC at the end
    (BadZipFile); an encrypted member or an unknown method raises RuntimeError/NotImplementedError."""
    with zf.open(info) as src:
        while chunk := src.read(ZIP_CHUNK):
            await write(chunk)
            await ctx.checkpoint()


async def _unzip(ctx, zf, archive, infos, flags, dest, quiet, zone) -> int:
    if "p" in flags:
        status = 0
        for info in infos:
            if not info.is_dir():
                try:
                    await _unzip_member(ctx, zf, info, ctx.stdout.write)
                except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError):
                    status = 2
        return status
    if "t" in flags:
        if not quiet:
            await ctx.out(f"Archive:  {archive}\n")
        bad = 0

        async def discard(data: bytes) -> None:
            pass
        for info in infos:
            try:
                await _unzip_member(ctx, zf, info, discard)
                verdict = "OK"
            except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError):
                verdict = "bad"
                bad += 1
            if not quiet or verdict != "OK":
                await ctx.out(f"    testing: {info.filename:<23}  {verdict}\n")
        if not bad:
            await ctx.out(f"No errors detected in compressed data of {archive}.\n")
            return 0
        await ctx.out(f"At least one error was detected in {archive}.\n")
        return 2
    overwrite = "o" in flags
    never = "n" in flags
    junk = "j" in flags
    if not quiet:
        await ctx.out(f"Archive:  {archive}\n")
    status = 0
    for info in infos:
        await ctx.checkpoint()
        name = info.filename
        parts = [p for p in name.split("/") if p not in ("", ".")]
        if ".." in parts:
            await ctx.err(f"warning:  skipped \"../\" path component(s) in {name}\n")
            parts = [p for p in parts if p != ".."]
            status = 1
        if junk:
            if info.is_dir():
                continue
            parts = parts[-1:]
        if not parts:
            continue
        target = normpath("/".join(parts), dest)
        try:
            if info.is_dir():
                if not ctx.fs.is_dir(target):
                    ctx.fs.mkdir(target, parents=True)
                    if not quiet:
                        await ctx.out(f"   creating: {_shown(target, dest, ctx.cwd, '/'.join(parts))}/\n")
                continue
            if ctx.fs.exists(target):
                if never:
                    continue
                if not overwrite:
                    await ctx.out(f"replace {_shown(target, dest, ctx.cwd, '/'.join(parts))}? "
                                  "[y]es, [n]o, [A]ll, [N]one, [r]ename:  NULL\n"
                                  "(EOF or read error, treating as \"[N]one\" ...)\n")
                    return 1
            parent = target.rsplit("/", 1)[0] or "/"
            if not ctx.fs.exists(parent):
                ctx.fs.mkdir(parent, parents=True)
            if ctx.fs.exists(target, follow=False):
                ctx.fs.unlink(target)  # never written through a symlink
            with ctx.fs.open(target, "wb") as out:
                await _unzip_member(ctx, zf, info, _sync(out.write))
            mode = (info.external_attr >> 16) & 0o7777
            if mode:
                ctx.fs.chmod(target, mode)
            y, mo, d, h, mi, s = info.date_time
            ctx.fs.utime(target, datetime(y, mo, d, h, mi, s, tzinfo=zone).timestamp())
            if not quiet:
                verb = " extracting" if info.compress_type == zipfile.ZIP_STORED else "  inflating"
                await ctx.out(f"{verb}: {_shown(target, dest, ctx.cwd, '/'.join(parts)):<23} \n")
        except FSError as e:
            await ctx.err(f"error:  cannot create {'/'.join(parts)}\n        {e.strerror}\n")
            status = 1
        except (zipfile.BadZipFile, zlib.error, EOFError):
            await ctx.err(f"  error:  invalid compressed data to inflate {name}\n")
            status = 2
        except (RuntimeError, NotImplementedError):
            await ctx.err(f"   skipping: {name:<23}  unsupported compression method {info.compress_type}\n")
            status = 1
    return status


def _zip_method_name(info: zipfile.ZipInfo) -> str:
    if info.compress_type == zipfile.ZIP_STORED:
        return "Stored"
    if info.compress_type == zipfile.ZIP_DEFLATED:
        # bits 1-2 of the flags say which deflate level family was used
        return "Defl:" + {0: "N", 1: "X", 2: "F", 3: "S"}[(info.flag_bits >> 1) & 3]
    return "Unk:%03d" % info.compress_type


def _zip_ratio(size: int, csize: int) -> int:
    if not size:
        return 0
    return int(round((size - csize) * 100 / size))


def _shown(target: str, dest: str, cwd: str, rel: str) -> str:
    """unzip shows paths as exdir/name when -d is used, else the member name."""
    if dest == cwd:
        return rel
    return target if not target.startswith(cwd + "/") else target[len(cwd) + 1:]
