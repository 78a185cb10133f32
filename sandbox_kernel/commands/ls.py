"""ls: list directory contents (GNU layout: one per line, -C columns, -l long format)."""
from __future__ import annotations

import stat as st
import time
from dataclasses import dataclass

from ..chars import isdigits
from ..vfs import FSError, Stat
from ..vfs.errors import ENAMETOOLONG, ENOTDIR
from ..vfs.fs import MAX_PATH, Dir, Inode, stat_of
from ._lib.dates import full_timestamp, local_datetime
from ._lib.fsutil import group_name, human_size, join_path, mode_string, type_indicator, user_name
from ._lib.quoting import quote, strerror
from ..locales import utf8_locale
from ._lib.versionsort import version_key
from .options import UsageError, argmatch, getopt
from .registry import CommandContext, command

LS_HELP = """\
Usage: ls [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -tSUX is specified.

  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
  -b, --escape               print C-style escapes for nongraphic characters
  -C                         list entries by columns
  -d, --directory            list directories themselves, not their contents
  -F, --classify             append indicator (one of */=>@|) to entries
  -g                         like -l, but do not list owner
  -G, --no-group             in a long listing, don't print group names
      --group-directories-first  group directories before files
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
  -H, --dereference-command-line  follow symbolic links listed on the command line
  -i, --inode                print the index number of each file
  -l                         use a long listing format
  -L, --dereference          show information for the file symlinks point to
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -N, --literal              print entry names without quoting (the default here)
  -o                         like -l, but do not list group information
  -p                         append / indicator to directories
  -q, --hide-control-chars   print ? instead of nongraphic characters
  -Q, --quote-name           enclose entry names in double quotes
      --quoting-style=WORD   literal, shell, shell-always, shell-escape,
                             shell-escape-always, c, escape
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
  -t                         sort by time, newest first
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8
  -u                         with -lt: sort by, and show, access time
  -c                         with -lt: sort by, and show, ctime
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -1                         list one file per line
      --color[=WHEN]         accepted; output is never colored
      --full-time            like -l --time-style=full-iso
      --time-style=TIME_STYLE  time/date format with -l: full-iso, long-iso,
                               iso, locale, or +FORMAT
      --help                 display this help and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument)."""

LONG = {"all": "a", "almost-all": "A", "directory": "d", "classify": "F", "no-group": "G",
        "human-readable": "h", "inode": "i", "dereference": "L",
        "dereference-command-line": "H", "numeric-uid-gid": "n", "reverse": "r",
        "recursive": "R", "size": "s", "tabsize=": "T", "width=": "w", "color==": None,
        "full-time": None, "group-directories-first": None, "indicator-style=": None,
        "sort=": None, "time=": None, "file-type": None, "si": None, "time-style=": None,
        "escape": "b", "quote-name": "Q", "hide-control-chars": "q", "literal": "N",
        "show-control-chars": None, "quoting-style=": None}

QUOTING_STYLES = ["literal", "shell", "shell-always", "shell-escape", "shell-escape-always", "c",
                  "escape", "locale", "clocale"]

SIX_MONTHS = 31556952 // 2
DEVICE_NUMBERS = {"null": (1, 3), "zero": (1, 5), "random": (1, 8), "urandom": (1, 9)}
# -t -S -U -v -X: the sort order each option picks
_SORT_OPTIONS = {"t": "time", "S": "size", "U": "none", "v": "version", "X": "extension"}


@dataclass
class Entry:
    name: str            # as displayed
    path: str            # for the VFS (relative to cwd)
    st: Stat | None      # lstat (or stat when dereferencing); None when unreadable
    target: str | None = None        # symlink text
    target_st: Stat | None = None    # what a symlink points to (None when dangling)
    node: Inode | None = None        # the inode behind ``st`` when in hand (-R descends by it)


class Options:
    def __init__(self, opts: list[tuple[str, str | None]], env: dict, tty: bool = False) -> None:
        self.all = self.almost_all = self.directory = self.recursive = False
        self.owner = self.group = True
        self.long = False
        self.numeric = self.human = self.si = self.inode = self.size_blocks = False
        self.classify = self.slash = self.file_type = False
        self.reverse = False
        self.sort = "name"
        self.time_field = "mtime"
        # GNU ls on a terminal (here also the notebook): columns, names quoted for the shell
        self.format = "columns" if tty else "one"
        self.deref = self.deref_cmdline = False
        self.dirs_first = False
        self.time_style = "locale"
        self.quoting = "shell-escape" if tty else "literal"
        self.width = 80
        self.tabsize = 8
        explicit_format = None
        cols = env.get("COLUMNS", "")
        if isdigits(cols) and int(cols) > 0:
            self.width = int(cols)
        for key, val in opts:
            if key == "a":
                self.all, self.almost_all = True, False
            elif key == "A":
                self.almost_all, self.all = True, False
            elif key == "d":
                self.directory = True
            elif key == "R":
                self.recursive = True
            elif key in "lgno":
                explicit_format = "long"
                if key == "g":
                    self.owner = False
                elif key == "o":
                    self.group = False
                elif key == "n":
                    self.numeric = True
            elif key == "G":
                self.group = False
            elif key == "h":
                self.human = True
            elif key == "si":
                self.human = self.si = True
            elif key == "i":
                self.inode = True
            elif key == "s":
                self.size_blocks = True
            elif key == "F":
                self.classify = True
            elif key == "p":
                self.slash = True
            elif key == "file-type":
                self.file_type = True
            elif key == "indicator-style":
                style = argmatch(val, ["none", "slash", "file-type", "classify"], "--indicator-style")
                self.classify = style == "classify"
                self.file_type = style == "file-type"
                self.slash = style == "slash"
            elif key == "r":
                self.reverse = True
            elif key in _SORT_OPTIONS:
                self.sort = _SORT_OPTIONS[key]
            elif key == "sort":
                self.sort = argmatch(val, ["none", "time", "size", "extension", "version", "name"],
                                     "--sort")
            elif key == "u":
                self.time_field = "atime"
            elif key == "c":
                self.time_field = "ctime"
            elif key == "time":
                self.time_field = argmatch(val, {
                    "atime": "atime", "access": "atime", "use": "atime", "ctime": "ctime",
                    "status": "ctime", "mtime": "mtime", "modification": "mtime"}, "--time")
            elif key == "1":
                explicit_format = explicit_format if explicit_format == "long" else "one"
                if explicit_format != "long":
                    self.format = "one"
            elif key in "Cxm":
                explicit_format = {"C": "columns", "x": "across", "m": "commas"}[key]
            elif key == "L":
                self.deref = True
            elif key == "H":
                self.deref_cmdline = True
            elif key == "w":
                if val is None or not isdigits(val):
                    raise UsageError(f"invalid line width: {quote(val or '', 'locale')}")
                self.width = int(val)
            elif key == "T":
                if val is None or not isdigits(val):
                    raise UsageError(f"invalid tab size: {quote(val or '', 'locale')}")
                self.tabsize = int(val)
            elif key == "color":
                if val is not None:
                    argmatch(val, {"always": 1, "yes": 1, "force": 1, "never": 0, "no": 0,
                                   "none": 0, "auto": 2, "tty": 2, "if-tty": 2}, "--color")
            elif key == "full-time":
                self.time_style = "full-iso"
                explicit_format = "long"
            elif key == "time-style":
                self.time_style = _time_style(val or "")
            elif key in "bQqN" and len(key) == 1:
                self.quoting = {"b": "escape", "Q": "c", "q": "hide", "N": "literal"}[key]
            elif key == "show-control-chars":
                self.quoting = "literal"
            elif key == "quoting-style":
                style = argmatch(val, QUOTING_STYLES, "--quoting-style")
                self.quoting = "c" if style in ("locale", "clocale") else style
            elif key == "group-directories-first":
                self.dirs_first = True
        if explicit_format:
            self.format = explicit_format
        self.long = self.format == "long"
        # with -l the time chosen by -u/-c is shown; without -l it only sorts when -t is given


def _time_style(value: str) -> str:
    if value.startswith("+"):
        return value
    style = value[len("posix-"):] if value.startswith("posix-") else value
    if style in ("full-iso", "long-iso", "iso", 'locale'):
        # posix-STYLE means STYLE only outside the C/POSIX locale, which is all we have
        return "locale" if value.startswith("posix-") else style
    raise UsageError(f"invalid argument {quote(value, 'locale')} for 'time style'\nValid arguments are:\n"
                     "  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n"
                     "  - +FORMAT (e.g., +%H:%M) for a 'date'-style format")


def _indicator(mode: int, opts: Options) -> str:
    if opts.classify or opts.file_type:
        return type_indicator(mode, executables=opts.classify)
    if opts.slash and st.S_ISDIR(mode):
        return "/"
    return ""


def _entry_time(s: Stat, opts: Options) -> float:
    return {"atime": s.st_atime, "ctime": s.st_ctime}.get(opts.time_field, s.st_mtime)


def _sort_entries(entries: list[Entry], opts: Options) -> list[Entry]:
    if opts.sort == "none":
        out = list(entries)
    else:
        def name_key(e: Entry):
            return e.name.encode("utf-8", "surrogateescape")

        out = sorted(entries, key=name_key)
        if opts.sort == "time":
            out.sort(key=lambda e: -_entry_time(e.st, opts) if e.st else 0)
        elif opts.sort == "size":
            out.sort(key=lambda e: -(e.st.st_size if e.st else 0))
        elif opts.sort == "version":
            # stable over the name order
            out.sort(key=lambda e: version_key(e.name.encode("utf-8", "surrogateescape")))
        elif opts.sort == "extension":
            def ext(e: Entry) -> bytes:
                base = e.name.rsplit("/", 1)[-1]
                dot = base.rfind(".")
                return base[dot:].encode("utf-8", "surrogateescape") if dot > 0 else b""
            out.sort(key=ext)
        if opts.reverse:
            out.reverse()
    if opts.dirs_first:
        out.sort(key=lambda e: not _is_dir_like(e))
    return out


def _is_dir_like(e: Entry) -> bool:
    if e.st is None:
        return False
    if st.S_ISDIR(e.st.st_mode):
        return True
    return st.S_ISLNK(e.st.st_mode) and e.target_st is not None and st.S_ISDIR(e.target_st.st_mode)


class Lister:
    def __init__(self, ctx: CommandContext, opts: Options) -> None:
        self.ctx = ctx
        self.fs = ctx.fs
        self.opts = opts
        self.status = 0
        self.now = time.time()
        self.users: dict[int, str] = {}
        self.groups: dict[int, str] = {}
        self.out: list[str] = []
        self.first_block = True
        self.utf8 = utf8_locale(ctx.env)

    async def flush(self) -> None:
        if self.out:
            await self.ctx.out("".join(self.out))
            self.out.clear()

    def make_entry(self, name: str, path: str, follow: bool, folder: Dir | None = None,
                   node: Inode | None = None) -> Entry:
        """An entry by path, or by its inode in ``folder`` (no path resolution)."""
        fs, cwd = self.fs, self.ctx.cwd
        if node is None or folder is None:
            node = fs.node(path, cwd, follow=False)
            lst = stat_of(node)
        else:
            lst = fs.entry_stat(folder, node, path)
        entry = Entry(name, path, lst, node=node)
        if st.S_ISLNK(lst.st_mode):
            try:
                entry.target = fs.readlink(path, cwd)
            except FSError:
                entry.target = None
            try:
                entry.target_st = fs.stat(path, cwd)
            except FSError:
                entry.target_st = None
            if follow and entry.target_st is not None:
                entry.st = entry.target_st
                entry.node = None
        return entry

    # ------------------------------------------------------------------ formatting
    def _user(self, uid: int) -> str:
        if self.opts.numeric:
            return str(uid)
        if uid not in self.users:
            self.users[uid] = user_name(self.fs, uid)
        return self.users[uid]

    def _group(self, gid: int) -> str:
        if self.opts.numeric:
            return str(gid)
        if gid not in self.groups:
            self.groups[gid] = group_name(self.fs, gid)
        return self.groups[gid]

    def _size_text(self, e: Entry) -> str:
        s = e.st
        if st.S_ISCHR(s.st_mode):
            kind = self._device_kind(e)
            major, minor = DEVICE_NUMBERS.get(kind, (5, 0))
            return f"{major}, {minor}"
        if self.opts.human:
            return human_size(s.st_size, self.opts.si)
        return str(s.st_size)

    def _device_kind(self, e: Entry) -> str:
        return e.path.rstrip("/").rsplit("/", 1)[-1]

    def _blocks_text(self, blocks512: int) -> str:
        if self.opts.human:
            return human_size(blocks512 * 512, self.opts.si)
        return str((blocks512 + 1) // 2)

    def _date_text(self, s: Stat) -> str:
        ts = _entry_time(s, self.opts)
        style = self.opts.time_style
        if style == "full-iso":
            return full_timestamp(ts, self.ctx.env)
        dt = local_datetime(ts, self.ctx.env)
        recent = self.now - SIX_MONTHS < ts <= self.now + 1
        if style == "long-iso":
            return dt.strftime("%Y-%m-%d %H:%M")
        if style == "iso":
            return dt.strftime("%m-%d %H:%M") if recent else dt.strftime("%Y-%m-%d ")
        if style.startswith("+"):
            old_fmt, _, recent_fmt = style[1:].partition("\n")
            return dt.strftime(recent_fmt if recent and recent_fmt else old_fmt)
        mon = dt.strftime("%b")
        if recent:
            return f"{mon} {dt.day:2d} {dt:%H:%M}"
        return f"{mon} {dt.day:2d}  {dt.year}"

    def _quoted(self, name: str) -> str:
        if self.opts.quoting == "literal":
            return name
        return quote(name, self.opts.quoting, self.utf8)

    def _quote_padding(self, entries: list[Entry]) -> bool:
        """GNU's align_variable_outer_quotes: in columns or long format with shell
        quoting, when some names of a block are quoted the others get a space to line up."""
        if self.opts.quoting not in ("shell", "shell-escape") or not (
                self.opts.long or self.opts.format in ("columns", "across") and self.opts.width):
            return False
        return any(self._quoted(e.name)[:1] in ("'", '"', "$") for e in entries)

    def _display_name(self, e: Entry, pad_quotes: bool = False) -> str:
        text = self._quoted(e.name)
        if pad_quotes and text[:1] not in ("'", '"', "$"):
            text = " " + text
        if e.st is None:
            return text
        if self.opts.long and e.target is not None and st.S_ISLNK(e.st.st_mode):
            text += " -> " + self._quoted(e.target)
            if e.target_st is not None and (self.opts.classify or self.opts.file_type):
                text += _indicator(e.target_st.st_mode, self.opts)
            return text
        return text + _indicator(e.st.st_mode, self.opts)

    def _prefix_columns(self, entries: list[Entry]) -> list[str]:
        """Inode and block-size columns (-i, -s), right aligned."""
        cols = [""] * len(entries)
        if self.opts.inode:
            inos = [str(e.st.st_ino) if e.st else "?" for e in entries]
            w = max(map(len, inos), default=0)
            cols = [c + i.rjust(w) + " " for c, i in zip(cols, inos)]
        if self.opts.size_blocks:
            sizes = [self._blocks_text(e.st.st_blocks) if e.st else "?" for e in entries]
            w = max(map(len, sizes), default=0)
            cols = [c + s.rjust(w) + " " for c, s in zip(cols, sizes)]
        return cols

    def format_long(self, entries: list[Entry], width_from: list[Entry] | None = None) -> None:
        rows = []
        for e in (width_from or entries):
            s = e.st
            if s is None:
                continue
            rows.append((str(s.st_nlink), self._user(s.st_uid), self._group(s.st_gid),
                         self._size_text(e)))
        w_link = max((len(r[0]) for r in rows), default=0)
        w_user = max((len(r[1]) for r in rows), default=0)
        w_group = max((len(r[2]) for r in rows), default=0)
        w_size = max((len(r[3]) for r in rows), default=0)
        prefixes = self._prefix_columns(entries)
        pad_quotes = self._quote_padding(entries)
        for e, prefix in zip(entries, prefixes):
            s = e.st
            if s is None:
                continue
            parts = [mode_string(s.st_mode), str(s.st_nlink).rjust(w_link)]
            if self.opts.owner:
                parts.append(self._user(s.st_uid).ljust(w_user))
            if self.opts.group:
                parts.append(self._group(s.st_gid).ljust(w_group))
            parts.append(self._size_text(e).rjust(w_size))
            parts.append(self._date_text(s))
            parts.append(self._display_name(e, pad_quotes))
            self.out.append(prefix + " ".join(parts) + "\n")

    def format_short(self, entries: list[Entry]) -> None:
        pad_quotes = self._quote_padding(entries)
        names = [p + self._display_name(e, pad_quotes) for e, p in zip(entries, self._prefix_columns(entries))]
        fmt = self.opts.format
        if fmt == "one" or not names:
            self.out.extend(n + "\n" for n in names)
        elif fmt == "commas":
            self._commas(names)
        else:
            self._grid(names, across=fmt == "across")

    def _commas(self, names: list[str]) -> None:
        width = self.opts.width
        pos = 0
        parts = []
        for i, name in enumerate(names):
            length = _width(name)
            if i:
                if not width or pos + length + 2 < width:
                    parts.append(", ")
                    pos += 2
                else:
                    parts.append(",\n")
                    pos = 0
            parts.append(name)
            pos += length
        self.out.append("".join(parts) + "\n")

    def _indent(self, start: int, end: int) -> str:
        pad = []
        tab = self.opts.tabsize
        while start < end:
            if tab and end // tab > (start + 1) // tab:
                pad.append("\t")
                start += tab - start % tab
            else:
                pad.append(" ")
                start += 1
        return "".join(pad)

    def _grid(self, names: list[str], across: bool) -> None:
        n = len(names)
        lengths = [_width(x) for x in names]
        width = self.opts.width
        max_cols = n if not width else max(1, min(n, width // 3))
        best_cols, best_widths = 1, [max(lengths)]
        for cols in range(max_cols, 0, -1):
            rows = -(-n // cols)
            widths = [0] * cols
            for i, length in enumerate(lengths):
                col = (i % cols) if across else (i // rows)
                widths[col] = max(widths[col], length + (0 if col == cols - 1 else 2))
            if not width or sum(widths) < width:
                best_cols, best_widths = cols, widths
                break
        cols = best_cols
        rows = -(-n // cols)
        lines = []
        for r in range(rows):
            idxs = [r * cols + c for c in range(cols)] if across else [c * rows + r for c in range(cols)]
            idxs = [i for i in idxs if i < n]
            line, pos = [], 0
            for k, i in enumerate(idxs):
                line.append(names[i])
                if k + 1 < len(idxs):
                    col_w = best_widths[k]
                    line.append(self._indent(pos + lengths[i], pos + col_w))
                    pos += col_w
            lines.append("".join(line) + "\n")
        self.out.extend(lines)

    # ------------------------------------------------------------------ directories
    def read_dir(self, path: str, folder: Dir | None = None) -> list[Entry] | None:
        fs, cwd = self.fs, self.ctx.cwd
        if len(path) > MAX_PATH:  # GNU ls opens each directory by its path, so it stops here
            raise FSError(ENAMETOOLONG, path)
        if folder is None:
            found = fs.node(path, cwd)
            if not isinstance(found, Dir):
                raise FSError(ENOTDIR, path)
            folder = found
        children: list[tuple[str, Inode | None]] = list(fs.entries(folder, path))
        if self.opts.all:
            children = [(".", None), ("..", None)] + children
        elif not self.opts.almost_all:
            children = [c for c in children if not c[0].startswith(".")]
        entries = []
        deref = self.opts.deref
        for name, node in children:
            child = join_path(path, name)
            try:
                entries.append(self.make_entry(name, child, deref, folder, node))
            except FSError:
                continue
        return _sort_entries(entries, self.opts)

    async def list_dir(self, path: str, header: bool, from_command_line: bool = True,
                       folder: Dir | None = None) -> None:
        try:
            entries = self.read_dir(path, folder)
        except FSError as e:
            # GNU prints neither the separator nor the header of a directory it cannot open
            await self.flush()
            await self.ctx.error(f"cannot open directory {quote(path)}: {strerror(e)}")
            self.status = max(self.status, 2 if from_command_line else 1)
            return
        if not self.first_block:
            self.out.append("\n")
        self.first_block = False
        if header:
            self.out.append(f"{self._quoted(path)}:\n")
        if self.opts.long or self.opts.size_blocks:
            total = sum(e.st.st_blocks for e in entries if e.st)
            self.out.append(f"total {self._blocks_text(total)}\n")
        if self.opts.long:
            self.format_long(entries)
        else:
            self.format_short(entries)
        if len(self.out) > 512:
            await self.flush()
        await self.ctx.checkpoint()
        if self.opts.recursive:
            for e in entries:
                if e.name in (".", "..") or e.st is None:
                    continue
                if st.S_ISDIR(e.st.st_mode) and not (e.target is not None and not self.opts.deref):
                    await self.list_dir(join_path(path, e.name), True, from_command_line=False,
                                        folder=e.node if isinstance(e.node, Dir) else None)


def _width(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@command("ls", "dir", "vdir", help=LS_HELP)
async def ls(ctx: CommandContext) -> int:
    args = ctx.args
    if ctx.name == "dir":
        args = ["-C"] + args  # dir is ls -C (columns even into a pipe)
    elif ctx.name == "vdir":
        args = ["-l"] + args
    opts_list, operands = getopt(args, "aAbcCdFgGhHiLlmnNopqQrRsStT:uUvw:xX1", LONG)
    opts = Options(opts_list, ctx.env, ctx.stdout.isatty())
    lister = Lister(ctx, opts)
    explicit = bool(operands)
    operands = operands or ["."]
    files: list[Entry] = []
    dirs: list[Entry] = []
    # command-line symlinks to directories are followed unless they are shown as links
    follow_cmdline = opts.deref or opts.deref_cmdline or not (
        opts.long or opts.directory or opts.classify or opts.file_type)
    for arg in operands:
        try:
            entry = lister.make_entry(arg, arg, opts.deref or follow_cmdline)
        except FSError as e:
            await ctx.error(f"cannot access {quote(arg)}: {strerror(e)}")
            lister.status = 2
            continue
        if not opts.directory and entry.st is not None and st.S_ISDIR(entry.st.st_mode):
            dirs.append(entry)
        else:
            files.append(entry)
    files = _sort_entries(files, opts)
    dirs = _sort_entries(dirs, opts)
    if files:
        lister.first_block = False
        if opts.long:
            lister.format_long(files, width_from=files + dirs)
        else:
            lister.format_short(files)
    header = opts.recursive or len(operands) > 1 or (explicit and len(files) + len(dirs) < len(operands))
    for d in dirs:
        await lister.list_dir(d.path, header, folder=d.node if isinstance(d.node, Dir) else None)
    await lister.flush()
    return lister.status

