"""stat: a file's (or file system's) status, in GNU's default layout or a --format/--printf."""
from __future__ import annotations

import re
import stat as st

from ..vfs import FSError
from ._lib.dates import full_timestamp
from ._lib.fsutil import file_type_name, group_name, mode_string, user_name
from ._lib.printf import apply_width, chars_to_bytes, interpret_escapes
from ._lib.quoting import quote, strerror
from .options import UsageError, getopt
from .registry import CommandContext, command

DEVICE_NUMBERS = {"null": (1, 3), "zero": (1, 5), "random": (1, 8), "urandom": (1, 9)}
FS_DEVICE = (0, 42)  # major, minor of the sandbox filesystem

STAT_HELP = """\
Usage: stat [OPTION]... FILE...
Display file or file system status.

  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline;
                          if you want a newline, include \\n in FORMAT
  -t, --terse           print the information in terse form
      --help            display this help and exit

The valid format sequences for files (without --file-system):

  %a   permission bits in octal
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated (see %B)
  %B   the size in bytes of each block reported by %b
  %d   device number in decimal
  %D   device number in hex
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %m   mount point
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes
  %t   major device type in hex, for character/block device special files
  %T   minor device type in hex, for character/block device special files
  %u   user ID of owner
  %U   user name of owner
  %w   time of file birth, human-readable; - if unknown
  %W   time of file birth, seconds since Epoch; 0 if unknown
  %x   time of last access, human-readable
  %X   time of last access, seconds since Epoch
  %y   time of last data modification, human-readable
  %Y   time of last data modification, seconds since Epoch
  %z   time of last status change, human-readable
  %Z   time of last status change, seconds since Epoch

Valid format sequences for file systems:

  %a   free blocks available to non-superuser
  %b   total data blocks in file system
  %c   total file nodes in file system
  %d   free file nodes in file system
  %f   free blocks in file system
  %i   file system ID in hex
  %l   maximum length of filenames
  %n   file name
  %s   block size (for faster transfers)
  %S   fundamental block size (for block counts)
  %t   file system type in hex
  %T   file system type in human readable form"""

class StatInfo:
    def __init__(self, ctx: CommandContext, path: str, follow: bool) -> None:
        self.ctx = ctx
        self.path = path
        fs = ctx.fs
        self.st = fs.stat(path, ctx.cwd) if follow else fs.lstat(path, ctx.cwd)
        self.follow = follow
        self.target = None
        if st.S_ISLNK(self.st.st_mode):
            try:
                self.target = fs.readlink(path, ctx.cwd)
            except FSError:
                pass

    def device_numbers(self) -> tuple[int, int]:
        if st.S_ISCHR(self.st.st_mode):
            name = self.path.rstrip("/").rsplit("/", 1)[-1]
            return DEVICE_NUMBERS.get(name, (5, 0))
        return (0, 0)

    def mount_point(self) -> str:
        return "/"

    def value(self, spec: str, precision: str) -> tuple[str, bool] | None:
        """(text, numeric) for a format letter; None if unknown."""
        s, env = self.st, self.ctx.env
        dev = FS_DEVICE[0] * 256 + FS_DEVICE[1]
        if spec in "XYZ" and precision:
            ts = {"X": s.st_atime, "Y": s.st_mtime, "Z": s.st_ctime}[spec]
            whole = int(ts // 1)
            frac = f"{ts - whole:.9f}"[2:]
            p = min(int(precision), 9)
            return (f"{whole}." + frac[:p] if p else str(whole)), False
        simple = {
            "a": lambda: (f"{s.st_mode & 0o7777:o}", True),
            "A": lambda: (mode_string(s.st_mode), False),
            "b": lambda: (str(s.st_blocks), True),
            "B": lambda: ("512", True),
            "d": lambda: (str(dev), True),
            "D": lambda: (f"{dev:x}", False),
            "f": lambda: (f"{s.st_mode:x}", False),
            "F": lambda: (file_type_name(s.st_mode, s.st_size), False),
            "g": lambda: (str(s.st_gid), True),
            "G": lambda: (group_name(self.ctx.fs, s.st_gid), False),
            "h": lambda: (str(s.st_nlink), True),
            "i": lambda: (str(s.st_ino), True),
            "m": lambda: (self.mount_point(), False),
            "n": lambda: (self.path, False),
            "N": lambda: (self.quoted_name(), False),
            "o": lambda: ("4096", True),
            "s": lambda: (str(s.st_size), True),
            "t": lambda: (f"{self.device_numbers()[0]:x}", False),
            "T": lambda: (f"{self.device_numbers()[1]:x}", False),
            "r": lambda: (str(self.device_numbers()[0] * 256 + self.device_numbers()[1]), True),
            "R": lambda: (f"{self.device_numbers()[0] * 256 + self.device_numbers()[1]:x}", False),
            "Hd": lambda: (str(FS_DEVICE[0]), True),
            "Ld": lambda: (str(FS_DEVICE[1]), True),
            "Hr": lambda: (str(self.device_numbers()[0]), True),
            "Lr": lambda: (str(self.device_numbers()[1]), True),
            "u": lambda: (str(s.st_uid), True),
            "U": lambda: (user_name(self.ctx.fs, s.st_uid), False),
            "w": lambda: ("-", False),
            "W": lambda: ("0", True),
            "x": lambda: (full_timestamp(s.st_atime, env), False),
            "X": lambda: (str(int(s.st_atime // 1)), True),
            "y": lambda: (full_timestamp(s.st_mtime, env), False),
            "Y": lambda: (str(int(s.st_mtime // 1)), True),
            "z": lambda: (full_timestamp(s.st_ctime, env), False),
            "Z": lambda: (str(int(s.st_ctime // 1)), True),
            "C": lambda: ("?", False),
        }
        fn = simple.get(spec)
        return fn() if fn else None

    def quoted_name(self) -> str:
        text = quote(self.path)
        if self.target is not None and not self.follow:
            text += " -> " + quote(self.target)
        return text


class FsStatInfo:
    """``stat -f``: the sandbox filesystem."""

    def __init__(self, ctx: CommandContext, path: str) -> None:
        ctx.fs.stat(path, ctx.cwd)
        self.ctx = ctx
        self.path = path
        u = ctx.fs.usage()
        self.blocks = u["bytes_max"] // 4096
        self.free = max(0, (u["bytes_max"] - u["bytes_used"]) // 4096)
        self.files = u["inodes_max"]
        self.ffree = max(0, u["inodes_max"] - u["inodes_used"])

    def value(self, spec: str, precision: str) -> tuple[str, bool] | None:
        table = {
            "a": (str(self.free), True), "b": (str(self.blocks), True),
            "c": (str(self.files), True), "d": (str(self.ffree), True),
            "f": (str(self.free), True), "i": ("0", False), "l": ("255", True),
            "n": (self.path, False), "s": ("4096", True), "S": ("4096", True),
            "t": ("5ab0c", False), "T": ("sandbox", False),
        }
        return table.get(spec)


def render(info, fmt: str) -> str:
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        ch = fmt[i]
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        m = re.match(r"%([-#+ 0']*)([0-9]*)(?:\.([0-9]*))?([HL]?[a-zA-Z%])?", fmt[i:])
        flags, width, precision, spec = m.group(1), m.group(2), m.group(3) or "", m.group(4)
        i += m.end()
        if spec is None:
            out.append(m.group(0))
            continue
        if spec == "%":
            out.append("%")
            continue
        if spec[0] in "HL" and spec not in ("Hd", "Ld", "Hr", "Lr"):
            out.append("?")
            i -= len(spec) - 1
            continue
        got = info.value(spec, precision if m.group(3) is not None else "")
        if got is None:
            out.append("?")
            continue
        text, numeric = got
        out.append(apply_width(text, flags, width, precision if spec not in "XYZ" else "", numeric))
    return "".join(out)


def default_format(info: StatInfo, terse: bool) -> str:
    if terse:
        return "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
    s = info.st
    name_line = "  File: %n\n"
    if info.target is not None and not info.follow:
        # the default layout shows names literally (only -c %N quotes them)
        name_line = "  File: %n -> " + info.target.replace("%", "%%") + "\n"
    if st.S_ISCHR(s.st_mode) or st.S_ISBLK(s.st_mode):
        dev_line = "Device: %Hd,%Ld\tInode: %-11i Links: %-5h Device type: %Hr,%Lr\n"
    else:
        dev_line = "Device: %Hd,%Ld\tInode: %-11i Links: %h\n"
    return (name_line +
            "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n" +
            dev_line +
            "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
            "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n")


def fs_default_format(terse: bool) -> str:
    if terse:
        return "%n %i %l %t %s %S %b %f %a %c %d\n"
    return ('  File: "%n"\n    ID: %-8i Namelen: %-7l Type: %T\n'
            "Block size: %-10s Fundamental block size: %S\n"
            "Blocks: Total: %-10b Free: %-10f Available: %a\n"
            "Inodes: Total: %-10c Free: %d\n")


@command("stat", help=STAT_HELP)
async def stat_cmd(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "c:fLt", {
        "format=": "c", "printf=": None, "dereference": "L", "file-system": "f", "terse": "t",
        "cached=": None}, status=1)
    fmt = None
    escapes = False
    follow = filesystem = terse = False
    for key, val in opts:
        if key == "c":
            fmt, escapes = (val or "") + "\n", False
        elif key == "printf":
            fmt, escapes = val or "", True
        elif key == "L":
            follow = True
        elif key == "f":
            filesystem = True
        elif key == "t":
            terse = True
    if not operands:
        raise UsageError("missing operand", 1)
    if escapes and fmt is not None:
        fmt = interpret_escapes(fmt)
    status = 0
    for path in operands:
        try:
            if filesystem:
                info = FsStatInfo(ctx, path)
                text = render(info, fmt if fmt is not None else fs_default_format(terse))
            else:
                info = StatInfo(ctx, path, follow)
                text = render(info, fmt if fmt is not None else default_format(info, terse))
        except FSError as e:
            verb = "read file system information for" if filesystem else "statx"
            await ctx.error(f"cannot {verb} {quote(path)}: {strerror(e)}")
            status = 1
            continue
        await ctx.stdout.write(chars_to_bytes(text) if escapes else text.encode("utf-8", "surrogateescape"))
    return status
