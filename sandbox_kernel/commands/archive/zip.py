"""zip and unzip: Info-ZIP's commands over zipfile, members read and written a MiB at a time."""
from __future__ import annotations

import io
import re
import stat as _stat
import struct
import zipfile
import zlib
from datetime import datetime

from ...chars import isdigits
from ...vfs import FSError, normpath
from ...wildcard import fnmatch
from .._lib.dates import local_zone, zoned_datetime
from ..options import UsageError, getopt
from ..registry import CommandContext, command
from .common import sync_write

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


class _Concat(io.RawIOBase):
    """Several VFS file handles read as one seekable file (a split archive's parts in order)."""

    def __init__(self, handles: list) -> None:
        self.handles = handles
        self.starts: list[int] = []
        total = 0
        for h in handles:
            self.starts.append(total)
            total += h.seek(0, 2)
        self.size = total
        self.pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        done = 0
        while done < len(buf) and self.pos < self.size:
            k = max(i for i, st in enumerate(self.starts) if st <= self.pos)
            h = self.handles[k]
            h.seek(self.pos - self.starts[k])
            data = h.read(len(buf) - done)
            if not data:
                break
            buf[done:done + len(data)] = data
            done += len(data)
            self.pos += len(data)
        return done

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = offset if whence == 0 else self.pos + offset if whence == 1 else self.size + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def close(self) -> None:
        for h in self.handles:
            h.close()
        super().close()


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

def _clean_member(name: str) -> str:
    parts = [p for p in name.split("/") if p not in ("", ".")]
    cleaned = "/".join(parts)
    return cleaned or "."

ZIP_HELP = """Usage: zip [-options] zipfile list
  The default action is to add or replace zipfile entries from list.
  -r   recurse into directories      -j   junk (don't record) directory names
  -d   delete entries in zipfile     -q   quiet operation
  -0   store only                    -1..-9 compress faster..better
  -x   exclude the following names   -m   move into zipfile (delete OS files)
  -s   split size (64k minimum; k, m, g, t; no unit: MB): parts x.z01, x.z02, ..., x.zip
"""

#: the signature a split archive's first part starts with (Info-ZIP writes it for -s)
SPLIT_SIG = b"PK\x07\x08"
_EOCD = struct.Struct("<4s4H2LH")
_CDH = struct.Struct("<4s6H3L5H2L")


def _split_size(text: str) -> int | str:
    """``-s SIZE`` in bytes (0: no split), or Info-ZIP's complaint."""
    m = re.fullmatch(r"(\d+)([kKmMgGtT]?)", text)
    if not m:
        return f"bad split size:  '{text}'"
    unit = (m.group(2) or "m").lower()
    size = int(m.group(1)) * 1024 ** "kmgt".index(unit) * 1024
    if size and size < 65536:
        return f"minimum split size is 64 KB:  '{text}'"
    return size


def _split_parts(data: bytes, size: int) -> list[bytes]:
    """A finished archive as Info-ZIP's -s writes it: the spanning signature, then the bytes cut
    every ``size`` bytes (headers too); central directory entries give the disk their local header
    starts on and its offset there, the end record the disks of the directory. Raises ValueError
    for what this cannot do (zip64 archives)."""
    end = data.rfind(b"PK\x05\x06")
    if end < 0 or len(data) - end < _EOCD.size:
        raise ValueError("no end record")
    sig, _d, _cd_disk, _n_here, total, cd_size, cd_offset, comment_len = _EOCD.unpack_from(data, end)
    if total == 0xFFFF or cd_offset == 0xFFFFFFFF or b"PK\x06\x06" in data[max(0, end - 76):end]:
        raise ValueError("zip64")
    out = bytearray(SPLIT_SIG + data)
    shift = len(SPLIT_SIG)

    def where(pos: int) -> tuple[int, int]:
        return pos // size, pos % size

    pos = cd_offset + shift
    entries_last = 0
    last_disk = where(len(out) - 1)[0]
    for _ in range(total):
        fields = list(_CDH.unpack_from(out, pos))
        disk, offset = where(fields[16] + shift)
        fields[13], fields[16] = disk, offset
        _CDH.pack_into(out, pos, *fields)
        if where(pos)[0] == last_disk:
            entries_last += 1
        pos += _CDH.size + fields[10] + fields[11] + fields[12]
    cd_disk, cd_rel = where(cd_offset + shift)
    end += shift
    _EOCD.pack_into(out, end, sig, last_disk, cd_disk, entries_last, total, cd_size, cd_rel, comment_len)
    return [bytes(out[i:i + size]) for i in range(0, len(out), size)]


def _part_names(archive: str, count: int) -> list[str]:
    """x.z01, x.z02, ... and the last part x.zip (Info-ZIP's names)."""
    stem = archive[:-4] if archive.lower().endswith(".zip") else archive
    return [f"{stem}.z{n:02d}" for n in range(1, count)] + [archive]


@command("zip", help=ZIP_HELP)
async def zip_cmd(ctx: CommandContext) -> int:
    cleaned, excludes = _split_excludes(ctx.args, ("-x", "--exclude"))
    try:
        opts, operands = getopt(cleaned, "rjdqms:0123456789DX", {"recurse-paths": "r",
                                                                "junk-paths": "j", "delete": "d",
                                                                "quiet": "q", "move": "m",
                                                                "split-size=": "s"})
    except UsageError as e:
        await ctx.err(f"zip error: Invalid command arguments ({e.message})\n")
        return 16
    flags = {o for o, _ in opts}
    level = 6
    for o, _ in opts:
        if isdigits(o):
            level = int(o)
    quiet = "q" in flags
    split = 0
    for o, v in opts:
        if o == "s":
            split = _split_size(v)
            if isinstance(split, str):
                await ctx.out(f"\nzip error: Invalid command arguments ({split})\n")
                return 16
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
        kind = _split_kind(ctx, archive)
        if kind == "parts" or (kind and split):
            # Info-ZIP updates no split archive (a one-part one only without -s)
            old_zip.close()
            if not quiet:
                await ctx.out("\tzip warning: cannot update a split archive (use --out option)\n")
            await ctx.out(f"\nzip error: Invalid command arguments ({archive})\n")
            return 16
        for info in old_zip.infolist():
            existing[info.filename] = (info, None)
    try:
        return await _zip_update(ctx, archive, names, existing, old_zip, flags, excludes, level, quiet, split)
    except (zipfile.BadZipFile, zlib.error, EOFError):
        await ctx.err(f"\nzip error: Zip file structure invalid ({archive})\n")
        return 3
    except _NoSplit:
        await ctx.out(f"\nzip error: cannot split an archive that needs zip64 records here ({archive})\n")
        return 16
    finally:
        if old_zip is not None:
            old_zip.close()


def _split_kind(ctx, archive: str) -> str | None:
    """"parts": the archive is the last part of a split on several disks (its end record names
    another disk); "one": a one-part split (the spanning signature first); else None."""
    with ctx.fs.open(archive, "rb", cwd=ctx.cwd) as handle:
        if _split_disks(handle)[0]:
            return "parts"
        return "one" if handle.read(4) == SPLIT_SIG else None


class _NoSplit(Exception):
    pass


def _write_archive(ctx, archive: str, data: bytes, split: int) -> None:
    """The archive, or with ``split`` its parts (x.z01 ... x.zip)."""
    if not split:
        ctx.fs.write_bytes(archive, data, cwd=ctx.cwd)
        return
    try:
        parts = _split_parts(data, split)
    except ValueError:
        raise _NoSplit(archive) from None
    for name, part in zip(_part_names(archive, len(parts)), parts):
        ctx.fs.write_bytes(name, part, cwd=ctx.cwd)


async def _zip_update(ctx, archive, names, existing, old_zip, flags, excludes, level, quiet, split=0) -> int:
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
        _write_archive(ctx, archive, await _write_zip(ctx, existing, old_zip), split)
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
    _write_archive(ctx, archive, await _write_zip(ctx, existing, old_zip, level), split)
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
    split_disks = _split_disks(handle)
    try:
        if split_disks[0]:
            zf = _open_split(ctx, archive, handle, split_disks)
        else:
            zf = zipfile.ZipFile(_VfsFile(handle))
    except _MissingPart as e:
        await ctx.out(f"Archive:  {archive}\n")
        await ctx.err(f"unzip:  cannot find part {e.args[0]} of the split archive {archive}\n")
        return 9
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
    listing_status = 0
    if split_disks[0] and ("v" in flags or "l" in flags):
        # what Info-ZIP's unzip says (and its status) listing a split; it cannot extract one,
        # this unzip reads the parts (x.z01 ... x.zip) in order
        await ctx.err(f"warning [{archive}]:  zipfile claims to be last disk of a multi-part archive;\n"
                      "  attempting to process anyway, assuming all parts have been concatenated\n"
                      "  together in order.  Expect \"errors\" and warnings...true multi-part support\n"
                      "  doesn't exist yet (coming soon).\n")
        listing_status = 1
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
        return listing_status
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
        return listing_status
    with zf:
        return await _unzip(ctx, zf, archive, infos, flags, dest, quiet, zone)


class _MissingPart(Exception):
    pass


def _split_disks(handle) -> tuple[int, int]:
    """How many parts the archive's end record says it has (0: not a split on several disks),
    and the part its central directory starts on."""
    size = handle.seek(0, 2)
    handle.seek(max(0, size - 65557))
    tail = handle.read()
    handle.seek(0)
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) - end < _EOCD.size:
        return 0, 0
    _sig, disk, cd_disk = _EOCD.unpack_from(tail, end)[:3]
    return (disk + 1, cd_disk) if disk else (0, 0)


def _open_split(ctx, archive: str, last, disks: tuple[int, int]) -> zipfile.ZipFile:
    """A split archive (x.z01 ... x.zip) as one ZipFile: the parts concatenated, each member's
    local header offset moved from its own disk to the whole."""
    count, cd_disk = disks
    handles = []
    for name in _part_names(archive, count)[:-1]:
        if not ctx.fs.is_file(name, cwd=ctx.cwd):
            for h in handles:
                h.close()
            raise _MissingPart(name)
        handles.append(ctx.fs.open(name, "rb", cwd=ctx.cwd))
    whole = _Concat(handles + [last])
    zf = zipfile.ZipFile(whole)
    # zipfile found the directory (it ends before the end record) and added the start of
    # the part it begins on to every offset
    base = whole.starts[min(cd_disk, count - 1)]
    for info in zf.infolist():
        volume = getattr(info, "volume", 0)
        if volume >= count:
            raise zipfile.BadZipFile("bad disk number")
        info.header_offset += whole.starts[volume] - base
    if "_end_offset" in zipfile.ZipInfo.__slots__:
        # where each member ends (newer zipfiles' overlap check), as zipfile sets it
        end_offset = zf.start_dir
        for info in sorted(zf.filelist, key=lambda z: z.header_offset, reverse=True):
            info._end_offset = end_offset
            end_offset = info.header_offset
    return zf


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
                await _unzip_member(ctx, zf, info, sync_write(out.write))
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
