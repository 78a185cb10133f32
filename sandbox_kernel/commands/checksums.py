"""md5sum, sha*sum, b2sum and cksum: digests of files, and checking digest lists (-c)."""
from __future__ import annotations

import hashlib
import re

from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from .options import UsageError, argmatch, getopt
from .registry import CommandContext, command

_ALGORITHMS = {
    "md5sum": ("md5", "MD5"),
    "sha1sum": ("sha1", "SHA1"),
    "sha224sum": ("sha224", "SHA224"),
    "sha256sum": ("sha256", "SHA256"),
    "sha384sum": ("sha384", "SHA384"),
    "sha512sum": ("sha512", "SHA512"),
    "b2sum": ("blake2b", "BLAKE2b"),
}

_SUM_HELP = """Usage: {name} [OPTION]... [FILE]...
Print or check {tag} checksums.

With no FILE, or when FILE is -, read standard input.

  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
{extra}      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                         and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines
"""

_B2_EXTRA = "  -l, --length         digest length in bits; must not exceed the maximum for\n" \
            "                         the blake2 algorithm and must be a multiple of 8\n"


async def _feed(ctx: CommandContext, inp, acc):
    """``acc.update`` with all the rest of ``inp``; returns ``acc``."""
    while True:
        chunk = await inp.read_some()
        if not chunk:
            break
        acc.update(chunk)
        await ctx.checkpoint()
    return acc


async def _digest_stream(ctx: CommandContext, path: str, factory) -> "hashlib._Hash":
    return await _feed(ctx, ctx.open_input(path), factory())


def _escape_name(name: str) -> tuple[str, str]:
    """GNU prefixes a line with backslash when the file name needs escaping."""
    if "\\" in name or "\n" in name or "\r" in name:
        return "\\", name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    return "", name


def _unescape_name(name: str) -> str | None:
    out = []
    i = 0
    while i < len(name):
        ch = name[i]
        if ch == "\\":
            nxt = name[i + 1:i + 2]
            if nxt == "\\":
                out.append("\\")
            elif nxt == "n":
                out.append("\n")
            elif nxt == "r":
                out.append("\r")
            else:
                return None
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


@command("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
         own_help=True)
async def digest_sum(ctx: CommandContext) -> int:
    algo, tag = _ALGORITHMS[ctx.name]
    longs = {"binary": "b", "check": "c", "tag": None, "text": "t", "zero": "z",
             "ignore-missing": None, "quiet": None, "status": None, "strict": None, "warn": "w",
             "help": None, "version": None}
    short = "bctzw"
    if ctx.name == "b2sum":
        longs["length="] = "l"
        short += "l:"
    opts, files = getopt(ctx.args, short, longs, status=1)
    binary = check = bsd_tag = zero = False
    ignore_missing = quiet = status_only = strict = warn = False
    bits = 512
    for o, v in opts:
        if o == "help":
            await ctx.out(_SUM_HELP.format(name=ctx.name, tag=tag,
                                           extra=_B2_EXTRA if ctx.name == "b2sum" else ""))
            return 0
        if o == "version":
            await ctx.out(f"{ctx.name} (GNU coreutils) 9.1\n")
            return 0
        if o == "b":
            binary = True
        elif o == "t":
            binary = False
        elif o == "c":
            check = True
        elif o == "tag":
            bsd_tag = True
        elif o == "z":
            zero = True
        elif o == "ignore-missing":
            ignore_missing = True
        elif o == "quiet":
            quiet = True
        elif o == "status":
            status_only = True
        elif o == "strict":
            strict = True
        elif o == "w":
            warn = True
        elif o == "l":
            try:
                bits = int(v)
            except ValueError:
                await ctx.error(f"invalid length: {quote(v, 'locale')}")
                return 1
            if bits % 8 or bits <= 0 or bits > 512:
                if bits > 512:
                    await ctx.error(f"invalid length: {quote(v, 'locale')}")
                    await ctx.error("maximum digest length for 'BLAKE2b' is 512 bits")
                else:
                    await ctx.error(f"invalid length: {quote(v, 'locale')}")
                    await ctx.error("length is not a multiple of 8")
                return 1

    if algo == "blake2b":
        def factory():
            return hashlib.blake2b(digest_size=bits // 8)
        if bits != 512:
            tag = f"BLAKE2b-{bits}"
    else:
        def factory():
            return hashlib.new(algo)

    if not files:
        files = ["-"]
    if check:
        if bsd_tag:
            raise UsageError("the --tag option is meaningless when verifying checksums", 1)
        return await _check(ctx, files, factory, tag, quiet, status_only, strict, warn,
                            ignore_missing)
    for o in ("ignore-missing", "quiet", "status", "strict", "w"):
        if any(k == o for k, _ in opts):
            label = {"w": "warn"}.get(o, o)
            raise UsageError(f"the --{label} option is meaningful only when verifying checksums", 1)
    status = 0
    end = "\0" if zero else "\n"
    for path in files:
        try:
            digest = (await _digest_stream(ctx, path, factory)).hexdigest()
        except FSError as e:
            await ctx.file_error(path, e)
            status = 1
            continue
        prefix, shown = ("", path) if zero else _escape_name(path)
        if bsd_tag:
            await ctx.out(f"{prefix}{tag} ({shown}) = {digest}{end}")
        else:
            await ctx.out(f"{prefix}{digest} {'*' if binary else ' '}{shown}{end}")
    return status


_BSD_LINE = re.compile(r"^(\\?)([A-Za-z0-9-]+) ?\((.*)\) = ([0-9a-fA-F]+)$")


async def _check(ctx, lists, factory, tag, quiet, status_only, strict, warn, ignore_missing) -> int:
    hex_len = factory().digest_size * 2
    layout = LineLayout()
    status = 0
    for listing in lists:
        try:
            inp = ctx.open_input(listing)
        except FSError as e:
            await ctx.file_error(listing, e)
            status = 1
            continue
        bad_format = mismatched = unreadable = matched_lines = 0
        lineno = 0
        try:
            async for raw in inp.lines():
                lineno += 1
                line = raw.decode("utf-8", "surrogateescape").rstrip("\n")
                if line.endswith("\r"):
                    line = line[:-1]
                if line.startswith("#"):
                    continue
                parsed = _parse_check_line(line, hex_len, tag, layout)
                if parsed is None:
                    bad_format += 1
                    if warn:
                        await ctx.error(f"{listing}: {lineno}: improperly formatted {tag} checksum line")
                    continue
                want, name = parsed
                matched_lines += 1
                try:
                    got = (await _digest_stream(ctx, name, factory)).hexdigest()
                except FSError as e:
                    if ignore_missing and e.code == "ENOENT":
                        matched_lines -= 0
                        continue
                    await ctx.file_error(name, e)
                    unreadable += 1
                    if not status_only:
                        await ctx.out(f"{name}: FAILED open or read\n")
                    continue
                if got.lower() == want.lower():
                    if not quiet and not status_only:
                        await ctx.out(f"{name}: OK\n")
                else:
                    mismatched += 1
                    if not status_only:
                        await ctx.out(f"{name}: FAILED\n")
        except FSError as e:
            await ctx.file_error(listing, e)
            status = 1
            continue
        if matched_lines == 0:
            await ctx.error(f"{'standard input' if listing == '-' else listing}: "
                            "no properly formatted checksum lines found")
            status = 1
            continue
        if not status_only:
            if bad_format:
                await ctx.error(f"WARNING: {bad_format} "
                                f"{_plural(bad_format, 'line is', 'lines are')} improperly formatted")
            if unreadable:
                await ctx.error(f"WARNING: {unreadable} listed "
                                f"{_plural(unreadable, 'file', 'files')} could not be read")
            if mismatched:
                await ctx.error(f"WARNING: {mismatched} computed "
                                f"{_plural(mismatched, 'checksum', 'checksums')} did NOT match")
        if mismatched or unreadable or (strict and bad_format):
            status = 1
    return status


class LineLayout:
    """Whether check lines put one blank between digest and name (``DIGEST NAME``, as BSD's
    ``md5 -r`` writes) or a blank and a mode character (``DIGEST  NAME``, ``DIGEST *NAME``):
    GNU decides at the first line that tells and holds it for the rest of the run, so a name
    that starts with a blank or ``*`` keeps it."""

    __slots__ = ("one_blank",)

    def __init__(self) -> None:
        self.one_blank: bool | None = None


_BLANKS = " \t"
_HEX = frozenset("0123456789abcdefABCDEF")


def _parse_check_line(line: str, hex_len: int, tag: str, layout: LineLayout) -> tuple[str, str] | None:
    line = line.lstrip(_BLANKS)
    m = _BSD_LINE.match(line)
    if m:
        escaped, algo, name, digest = m.groups()
        if algo.upper() != tag.upper().split("-")[0] and algo != tag or len(digest) != hex_len:
            return None
        if escaped:
            name = _unescape_name(name)
            if name is None:
                return None
        return digest, name
    escaped = line.startswith("\\")
    body = line[1:] if escaped else line
    digest = body[:hex_len]
    if len(digest) != hex_len or not _HEX.issuperset(digest) or body[hex_len:hex_len + 1] not in tuple(_BLANKS):
        return None
    at = hex_len + 1
    if body[at:at + 1] not in (" ", "*"):
        if layout.one_blank is False:
            return None
        layout.one_blank = True
    elif not layout.one_blank:
        layout.one_blank = False
        at += 1
    name = body[at:]
    if not name:
        return None
    if escaped:
        name = _unescape_name(name)
        if name is None:
            return None
    return digest, name


# ----------------------------------------------------------------------------- cksum

def _crc_table() -> list[int]:
    table = []
    for i in range(256):
        crc = i << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else (crc << 1)
            crc &= 0xFFFFFFFF
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()


class PosixCrc:
    """The CRC of POSIX ``cksum``: CRC-32/CKSUM over the data, then over its length."""

    def __init__(self) -> None:
        self.crc = 0
        self.length = 0

    def update(self, data: bytes) -> None:
        crc = self.crc
        table = _CRC_TABLE
        for b in data:
            crc = ((crc << 8) & 0xFFFFFFFF) ^ table[(crc >> 24) ^ b]
        self.crc = crc
        self.length += len(data)

    def value(self) -> int:
        crc = self.crc
        n = self.length
        while n:
            crc = ((crc << 8) & 0xFFFFFFFF) ^ _CRC_TABLE[(crc >> 24) ^ (n & 0xFF)]
            n >>= 8
        return (~crc) & 0xFFFFFFFF


CKSUM_HELP = """Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.
With no FILE, or when FILE is -, read standard input.

  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
  -l, --length=BITS     digest length in bits; must not exceed the max for
                          the blake2 algorithm and must be a multiple of 8
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type

DIGEST determines the digest algorithm and default output format:
  sysv      (equivalent to sum -s)
  bsd       (equivalent to sum -r)
  crc       (equivalent to cksum)
  md5       (equivalent to md5sum)
  sha1      (equivalent to sha1sum)
  sha224    (equivalent to sha224sum)
  sha256    (equivalent to sha256sum)
  sha384    (equivalent to sha384sum)
  sha512    (equivalent to sha512sum)
  blake2b   (equivalent to b2sum)
"""

_CKSUM_DIGESTS = {"md5": ("md5", "MD5"), "sha1": ("sha1", "SHA1"), "sha224": ("sha224", "SHA224"),
                  "sha256": ("sha256", "SHA256"), "sha384": ("sha384", "SHA384"),
                  "sha512": ("sha512", "SHA512"), "blake2b": ("blake2b", "BLAKE2b")}


@command("cksum", help=CKSUM_HELP)
async def cksum(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "a:l:", {"algorithm=": "a", "length=": "l", "tag": None,
                                             "untagged": None}, status=1)
    algorithm = "crc"
    bits = 512
    untagged = False
    for o, v in opts:
        if o == "a":
            algorithm = argmatch(v, ["bsd", "sysv", "crc", *_CKSUM_DIGESTS], "--algorithm")
        elif o == "l":
            if not isdigits(v) or int(v) % 8 or not 0 < int(v) <= 512:
                await ctx.error(f"invalid length: {quote(v, 'locale')}")
                return 1
            bits = int(v)
        elif o == "untagged":
            untagged = True
        elif o == "tag":
            untagged = False
    implicit_stdin = not files
    files = files or ["-"]
    status = 0
    for path in files:
        try:
            inp = ctx.open_input(path)
            if algorithm in ("crc", "sysv", "bsd"):
                acc = _SimpleSum(algorithm)
            elif algorithm == "blake2b":
                acc = hashlib.blake2b(digest_size=bits // 8)
            else:
                acc = hashlib.new(_CKSUM_DIGESTS[algorithm][0])
            await _feed(ctx, inp, acc)
        except FSError as e:
            await ctx.file_error(path, e)
            status = 1
            continue
        shown = "" if implicit_stdin else path
        if algorithm in ("crc", "sysv", "bsd"):
            await ctx.out(acc.line(shown) + "\n")
            continue
        tag = _CKSUM_DIGESTS[algorithm][1]
        if algorithm == "blake2b" and bits != 512:
            tag = f"BLAKE2b-{bits}"
        if untagged:
            await ctx.out(f"{acc.hexdigest()}  {path}\n")
        else:
            await ctx.out(f"{tag} ({path}) = {acc.hexdigest()}\n")
    return status


class _SimpleSum:
    """crc (cksum), sysv (sum -s) and bsd (sum -r) checksums."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.crc = PosixCrc()
        self.total = 0
        self.bsd = 0
        self.length = 0

    def update(self, data: bytes) -> None:
        self.length += len(data)
        if self.kind == "crc":
            self.crc.update(data)
        elif self.kind == "sysv":
            self.total += sum(data)
        else:
            s = self.bsd
            for b in data:
                s = ((s >> 1) + ((s & 1) << 15) + b) & 0xFFFF
            self.bsd = s

    def line(self, name: str) -> str:
        suffix = f" {name}" if name else ""
        if self.kind == "crc":
            return f"{self.crc.value()} {self.length}{suffix}"
        if self.kind == "sysv":
            r = (self.total & 0xFFFF) + ((self.total & 0xFFFFFFFF) >> 16)
            s = (r & 0xFFFF) + (r >> 16)
            return f"{s} {(self.length + 511) // 512}{suffix}"
        return f"{self.bsd:05d} {(self.length + 1023) // 1024:5d}{suffix}"
