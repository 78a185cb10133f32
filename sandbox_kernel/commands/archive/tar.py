"""tar: create (c, r), list (t) and extract (x) GNU tar archives, plain or through
gzip/bzip2/xz (the stdlib's)."""
from __future__ import annotations

import bz2
import errno
import gzip as _gzip
import io
import lzma
import stat as _stat
import tarfile
import time as _time
import zlib

from ... import memory
from ...chars import isdigits
from ...vfs import FSError, normpath
from ...vfs.tar import clamp_mtime, open_archive
from ...wildcard import excluded, fnmatch
from .._lib.dates import local_zone, zoned_datetime
from ..options import UsageError, getopt
from ..registry import CommandContext, command
from .common import sync_write

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
  -X, --exclude-from=FILE    exclude patterns listed in FILE
  -T, --files-from=FILE      get names to extract or create from FILE
      --null                 -T reads null-terminated names
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
    "exclude-vcs": None, "exclude-from=": "X", "files-from=": "T", "null": None, "no-null": None,
    "verbatim-files-from": None,
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
        opts, operands = getopt(args, "ctxrf:C:vzjJaOkphPX:T:", _TAR_LONG)
    except UsageError as e:
        await ctx.error(e.message)
        await ctx.err("Try 'tar --help' or 'tar --usage' for more information.\n")
        return 64  # what GNU tar exits with on a bad option
    mode = None
    archive = "-"
    verbose = 0
    compression = None
    auto = to_stdout = keep_old = dereference = absolute = overwrite = False
    excludes: list[str] = []
    strip = 0
    directory_changes: list[str] = []
    listed: list[str] = []  # -T's names, after the operands
    null = False
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
        elif o in ("X", "T"):
            names = await _name_list(ctx, v, null and o == "T", "Cannot stat: " if o == "T" else "")
            if names is None:
                return 2
            (excludes if o == "X" else listed).extend(names)
        elif o == "overwrite":
            overwrite = True
        elif o in ("null", "no-null"):
            null = o == "null"
        elif o == "strip-components":
            if not isdigits(v):
                await ctx.error(f"Invalid number of elements: '{v}'")
                return 2
            strip = int(v)
    operands += listed
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
                  absolute, archive, overwrite)
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


async def _name_list(ctx: CommandContext, name: str, null: bool, what: str) -> list[str] | None:
    """The names (or patterns) of a -T or -X file, one a line (NUL-terminated with --null, for
    -T only; a line read as a C string ends at a NUL), empty ones left out; None after reporting
    a file that cannot be read."""
    try:
        if name == "-":
            data = await ctx.stdin.read_all()  # (charged to the memory limit as it comes)
        else:
            data = ctx.fs.read_bytes(name, cwd=ctx.cwd)
            memory.charge(len(data))
    except FSError as e:
        await ctx.error(f"{name}: {what}{e.strerror}")
        await ctx.error("Error is not recoverable: exiting now")
        return None
    memory.charge(len(data) + data.count(b"\n") * memory.LINE_COST)  # the names kept
    text = data.decode("utf-8", "surrogateescape")
    names = text.split("\0") if null else [line.partition("\0")[0] for line in text.split("\n")]
    return [n for n in names if n]


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
                 absolute, archive, overwrite=False):
        self.ctx = ctx
        self.overwrite = overwrite  # --overwrite: write into an existing file (its hard links see it)
        #: directories extracted, whose mode and time are set once their members are in (GNU's
        #: delayed set_stat: a read-only directory still receives its files)
        self.dir_stats: list[tuple[str, int, float]] = []
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
        elif _stat.S_ISFIFO(st.st_mode):
            info.type = tarfile.FIFOTYPE  # the named pipe itself, never what flows through it
            tf.addfile(info)
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
        try:
            await self._members(tf, operands, listing)
        finally:
            self._set_dir_stats()

    def _set_dir_stats(self) -> None:
        for target, mode, mtime in reversed(self.dir_stats):
            try:
                self.ctx.fs.chmod(target, mode & 0o7777)
                self.ctx.fs.utime(target, mtime)
            except FSError:
                pass  # (removed or replaced by a later member)
        self.dir_stats.clear()

    async def _members(self, tf: tarfile.TarFile, operands: list[str], listing: bool) -> None:
        ctx = self.ctx
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
                self.dir_stats.append((target, info.mode or 0o755, clamp_mtime(info.mtime)))
                return
            in_place = self.overwrite and info.isfile() and fs.lstat(target).type == "file" \
                if fs.exists(target, follow=False) else False
            if fs.exists(target, follow=False) and not in_place:
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
                        await self._copy(tf, info, sync_write(out.write))
                    except FSError as e:
                        await ctx.error(f"{rel}: Cannot write: {e.strerror}")
                        self.failed = True
                        return
                fs.chmod(target, info.mode & 0o7777)
                fs.utime(target, clamp_mtime(info.mtime))
            elif info.isfifo():
                fs.mkfifo(target, mode=info.mode & 0o7777, umask=0)
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
            "hardlink" if info.islnk() else "fifo" if info.isfifo() else "file")
    owner = f"{info.uname or info.uid}/{info.gname or info.gid}"
    size = str(info.size)
    pad = max(19 - len(owner) - len(size), 1)
    when = zoned_datetime(clamp_mtime(info.mtime), zone).strftime("%Y-%m-%d %H:%M")
    text = f"{_mode_string(info.mode, 'file' if kind == 'hardlink' else kind)} " \
           f"{owner}{' ' * pad}{size} {when} {name}"
    if kind == "symlink":
        text += f" -> {info.linkname}"
    elif kind == "hardlink":
        text += f" link to {info.linkname}"
    return text
