"""File attributes: stat, chmod, chown, chgrp."""
from __future__ import annotations

import re
import stat as st

from ..vfs import FSError
from ._lib.dates import full_timestamp
from ._lib.fsutil import (file_type_name, group_id, group_name, join_path, mode_string, parse_mode,
    umask_of, user_id, user_name)
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

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\", '"': '"'}


def interpret_escapes(text: str) -> str:
    """Backslash escapes of ``stat --printf`` / ``find -printf``: \\n \\t \\\\ \\ooo \\xHH."""
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\" or i + 1 >= len(text):
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt in "01234567":
            m = re.match(r"[0-7]{1,3}", text[i + 1:])
            out.append(chr(int(m.group(0), 8) & 0xFF))
            i += 1 + len(m.group(0))
        elif nxt == "x" and re.match(r"[0-9a-fA-F]", text[i + 2:i + 3]):
            m = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2:])
            out.append(chr(int(m.group(0), 16)))
            i += 2 + len(m.group(0))
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def _chars_to_bytes(text: str) -> bytes:
    """Escapes produce code points < 256 meaning raw bytes; other text stays utf-8."""
    out = bytearray()
    for ch in text:
        code = ord(ch)
        if 0x80 <= code < 0x100:
            out.append(code)
        else:
            out += ch.encode("utf-8", "surrogateescape")
    return bytes(out)


def apply_width(value: str, flags: str, width: str, precision: str, numeric: bool) -> str:
    if precision and not numeric:
        value = value[: int(precision)]
    if numeric and precision:
        digits = value.lstrip("-")
        sign = value[: len(value) - len(digits)]
        value = sign + digits.rjust(int(precision), "0")
    if numeric and "+" in flags and not value.startswith("-"):
        value = "+" + value
    if width:
        w = int(width)
        if "-" in flags:
            value = value.ljust(w)
        elif "0" in flags and numeric and not precision:
            sign = value[0] if value[:1] in "+-" else ""
            value = sign + value[len(sign):].rjust(w - len(sign), "0")
        else:
            value = value.rjust(w)
    return value


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
        await ctx.stdout.write(_chars_to_bytes(text) if escapes else text.encode("utf-8", "surrogateescape"))
    return status


# ============================================================================ chmod
CHMOD_HELP = """\
Usage: chmod [OPTION]... MODE[,MODE]... FILE...
  or:  chmod [OPTION]... OCTAL-MODE FILE...
  or:  chmod [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help             display this help and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'."""

_MODE_ARG = re.compile(r"-[rwxXst]*(?:[-+=,][ugoarwxXst]*)*")


def _split_mode_args(args: list[str]) -> tuple[list[str], str | None]:
    """Pull out a mode that starts with '-' (``chmod -w f``) before option parsing."""
    rest, mode = [], None
    seen_dd = False
    for a in args:
        if not seen_dd and mode is None and a != "--" and _MODE_ARG.fullmatch(a) and len(a) > 1 \
                and not set(a[1:]) <= set("Rcfv"):
            mode = a
            continue
        if a == "--":
            seen_dd = True
        rest.append(a)
    return rest, mode


async def _walk_all(ctx: CommandContext, paths: list[str], recursive: bool, visit) -> int:
    """``_walk`` each path in turn; the worst status."""
    status = 0
    for path in paths:
        status = max(status, await _walk(ctx, path, recursive, visit))
    return status


async def _walk(ctx: CommandContext, path: str, recursive: bool, visit) -> int:
    """Apply ``visit(path)`` to path and (when recursive) everything below it; symlinks met
    during the walk are not followed."""
    status = await visit(path)
    if not recursive:
        return status
    try:
        s = ctx.fs.lstat(path, ctx.cwd)
        if st.S_ISLNK(s.st_mode):
            s = ctx.fs.stat(path, ctx.cwd)
            if path.endswith("/") is False:
                return status
    except FSError:
        return status
    if not st.S_ISDIR(s.st_mode):
        return status
    try:
        names = ctx.fs.listdir(path, ctx.cwd)
    except FSError as e:
        await ctx.error(f"cannot read directory {quote(path)}: {strerror(e)}")
        return 1
    for name in names:
        child = join_path(path, name)
        try:
            cs = ctx.fs.lstat(child, ctx.cwd)
        except FSError:
            continue
        if st.S_ISLNK(cs.st_mode):
            continue
        status = max(status, await _walk(ctx, child, True, visit))
        await ctx.checkpoint()
    return status


def _mode_desc(mode: int) -> str:
    return f"{mode & 0o7777:04o} ({mode_string(mode)[1:]})"


@command("chmod", help=CHMOD_HELP)
async def chmod(ctx: CommandContext) -> int:
    args, dash_mode = _split_mode_args(ctx.args)
    opts, operands = getopt(args, "cfvR", {
        "changes": "c", "silent": "f", "quiet": "f", "verbose": "v", "recursive": "R",
        "reference=": None, "preserve-root": None, "no-preserve-root": None}, status=1)
    changes = quiet = verbose = recursive = False
    reference = None
    for key, val in opts:
        if key == "c":
            changes = True
        elif key == "f":
            quiet = True
        elif key == "v":
            verbose = True
        elif key == "R":
            recursive = True
        elif key == "reference":
            reference = val
    fs, cwd = ctx.fs, ctx.cwd
    ref_mode = None
    if reference is not None:
        try:
            ref_mode = fs.stat(reference, cwd).st_mode & 0o7777
        except FSError as e:
            await ctx.error(f"failed to get attributes of {quote(reference)}: {strerror(e)}")
            return 1
        mode_text = None
    else:
        if dash_mode is not None:
            mode_text = dash_mode
        elif operands:
            mode_text = operands.pop(0)
        else:
            raise UsageError("missing operand", 1)
    if not operands:
        if mode_text is None:
            raise UsageError("missing operand", 1)
        raise UsageError(f"missing operand after {quote(mode_text, 'locale')}", 1)
    umask = umask_of(ctx)
    if mode_text is not None and parse_mode(mode_text, 0, False, umask) is None:
        raise UsageError(f"invalid mode: {quote(mode_text, 'locale')}", 1)

    async def visit(path: str) -> int:
        try:
            s = fs.stat(path, cwd)
        except FSError as e:
            if not quiet:
                await ctx.error(f"cannot access {quote(path)}: {strerror(e)}")
            return 1
        old = s.st_mode & 0o7777
        new = ref_mode if ref_mode is not None else parse_mode(mode_text, old, st.S_ISDIR(s.st_mode), umask)
        try:
            fs.chmod(path, new, cwd)
        except FSError as e:
            if not quiet:
                await ctx.error(f"changing permissions of {quote(path)}: {strerror(e)}")
            return 1
        full_old = (s.st_mode & ~0o7777) | old
        full_new = (s.st_mode & ~0o7777) | new
        if new != old and (verbose or changes):
            await ctx.out(f"mode of {quote(path)} changed from {_mode_desc(full_old)} to {_mode_desc(full_new)}\n")
        elif verbose:
            await ctx.out(f"mode of {quote(path)} retained as {_mode_desc(full_old)}\n")
        return 0

    return await _walk_all(ctx, operands, recursive, visit)


# ============================================================================ chown / chgrp
CHOWN_HELP = """\
Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
The sandbox has a single user (user, uid 1000): giving files away is not permitted.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --reference=RFILE  use RFILE's owner and group rather than OWNER:GROUP
  -R, --recursive        operate on files and directories recursively
      --help             display this help and exit"""

CHGRP_HELP = """\
Usage: chgrp [OPTION]... GROUP FILE...
  or:  chgrp [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
The sandbox has a single group (user, gid 1000).

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --reference=RFILE  use RFILE's group rather than specifying a GROUP value
  -R, --recursive        operate on files and directories recursively
      --help             display this help and exit"""


@command("chown", help=CHOWN_HELP)
async def chown(ctx: CommandContext) -> int:
    return await _change_owner(ctx, is_chgrp=False)


@command("chgrp", help=CHGRP_HELP)
async def chgrp(ctx: CommandContext) -> int:
    return await _change_owner(ctx, is_chgrp=True)


async def _change_owner(ctx: CommandContext, is_chgrp: bool) -> int:
    opts, operands = getopt(ctx.args, "cfvhHLPR", {
        "changes": "c", "silent": "f", "quiet": "f", "verbose": "v", "no-dereference": "h",
        "dereference": None, "recursive": "R", "reference=": None, "from=": None,
        "preserve-root": None, "no-preserve-root": None}, status=1)
    quiet = verbose = changes = recursive = False
    follow = True
    reference = None
    for key, val in opts:
        if key == "f":
            quiet = True
        elif key == "v":
            verbose = True
        elif key == "c":
            changes = True
        elif key == "R":
            recursive = True
        elif key == "h":
            follow = False
        elif key == "reference":
            reference = val
    fs, cwd = ctx.fs, ctx.cwd
    uid = gid = -1
    spec = None
    if reference is not None:
        try:
            rs = fs.stat(reference, cwd)
        except FSError as e:
            await ctx.error(f"failed to get attributes of {quote(reference)}: {strerror(e)}")
            return 1
        gid = rs.st_gid
        if not is_chgrp:
            uid = rs.st_uid
    else:
        if not operands:
            raise UsageError("missing operand", 1)
        spec = operands.pop(0)
        if is_chgrp:
            gid_found = group_id(fs, spec) if spec else -1
            if gid_found is None:
                await ctx.error(f"invalid group: {quote(spec, 'locale')}")
                return 1
            gid = gid_found
        else:
            user_part, sep, group_part = spec.partition(":")
            if not sep and "." in spec and user_id(fs, spec) is None:
                user_part, sep, group_part = spec.partition(".")
            if user_part:
                found = user_id(fs, user_part)
                if found is None:
                    await ctx.error(f"invalid user: {quote(spec, 'locale')}")
                    return 1
                uid = found
            if group_part:
                found = group_id(fs, group_part)
                if found is None:
                    await ctx.error(f"invalid group: {quote(spec, 'locale')}")
                    return 1
                gid = found
            elif sep and user_part:
                # "user:" means the user's login group
                gid = 1000 if uid == 1000 else 0 if uid == 0 else gid
    if not operands:
        raise UsageError(f"missing operand after {quote(spec, 'locale')}" if spec else "missing operand", 1)

    async def visit(path: str) -> int:
        try:
            s = fs.stat(path, cwd, follow=follow)
        except FSError as e:
            if not quiet:
                await ctx.error(f"cannot access {quote(path)}: {strerror(e)}")
            return 1
        try:
            fs.chown(path, uid, gid, cwd, follow=follow)
        except FSError as e:
            if not quiet:
                what = "group" if is_chgrp or uid == -1 else "ownership"
                await ctx.error(f"changing {what} of {quote(path)}: {strerror(e)}")
            return 1
        changed = (uid not in (-1, s.st_uid)) or (gid not in (-1, s.st_gid))
        if verbose or (changes and changed):
            what = "group" if is_chgrp else "ownership"
            new_desc = group_name(fs, gid if gid != -1 else s.st_gid) if is_chgrp else \
                f"{user_name(fs, uid if uid != -1 else s.st_uid)}:{group_name(fs, gid if gid != -1 else s.st_gid)}"
            if changed:
                await ctx.out(f"changed {what} of {quote(path)} to {new_desc}\n")
            else:
                await ctx.out(f"{what} of {quote(path)} retained as {new_desc}\n")
        return 0

    return await _walk_all(ctx, operands, recursive, visit)

