"""tree: list a directory tree with box-drawing lines and a summary (tree 2.x layout)."""
from __future__ import annotations

import stat as st

from ..chars import isdigits
from ..vfs import FSError
from ..wildcard import fnmatch
from ._lib.dates import local_datetime
from ._lib.fsutil import group_name, join_path, mode_string, type_indicator, user_name
from ..locales import utf8_locale
from ._lib.versionsort import version_key
from .registry import CommandContext, command

TREE_HELP = """\
usage: tree [-adfFhilprstuvCDgnU] [-L level] [-P pattern] [-I pattern] [--noreport]
	[--dirsfirst] [--filesfirst] [--prune] [--] [directory ...]
  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --noreport    Turn off file/directory count at end of tree listing.
  --prune       Prune empty directories from the output.
  ------- File options -------
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  -D            Print the date of last modification.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  -i            Don't print indentation lines.
  ------- Sorting options -------
  -v            Sort files alphanumerically by version.
  -t            Sort files by last modification time.
  -r            Reverse the order of the sort.
  -U            Leave files unsorted.
  --dirsfirst   List directories before files.
  --filesfirst  List files before directories.
  ------- Graphics options -------
  -n            Turn colorization off always (the default here).
  -C            Accepted; output is never colored.
  --help        Print usage and this help message and exit."""


BOX_ART = ("├── ", "└── ", "│\u00a0\u00a0 ", "    ")  # tree 2.x pads with no-break spaces
ASCII_ART = ("|-- ", "`-- ", "|   ", "    ")


class TreeUsage(Exception):
    pass


def _human(n: int) -> str:
    units = "BKMGTPE"
    value = float(n)
    idx = 0
    while value >= 1000 and idx < len(units) - 1:
        value /= 1024
        idx += 1
    if idx == 0:
        return str(n)
    return f"{value:.1f}{units[idx]}" if value < 9.95 else f"{value:.0f}{units[idx]}"


def _parse_args(args: list[str]) -> tuple[dict, list[str]]:
    o = {"a": False, "d": False, "l": False, "f": False, "i": False, "F": False, "p": False,
         "u": False, "g": False, "s": False, "h": False, "D": False, "r": False, "t": False,
         "U": False, "v": False, "level": None, "include": [], "exclude": [],
         "noreport": False, "dirsfirst": False, "filesfirst": False, "prune": False}
    paths: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            paths.extend(args[i:])
            break
        if a.startswith("--"):
            name, _, _value = a[2:].partition("=")
            if name in ("noreport", "dirsfirst", "filesfirst", "prune"):
                o[name] = True
            elif name in ("charset", "nolinks", "ignore-case", "matchdirs"):
                continue
            else:
                raise TreeUsage(f"tree: Invalid argument `{a}'.")
            continue
        if a.startswith("-") and len(a) > 1:
            for ch in a[1:]:
                if ch in "adlfiFpugshDrtUv":
                    o[ch] = True
                elif ch in "nC":
                    continue
                elif ch in "LPI":
                    if i >= len(args):
                        raise TreeUsage(f"tree: Missing argument to -{ch} option.")
                    value = args[i]
                    i += 1
                    if ch == "L":
                        if not isdigits(value) or int(value) < 1:
                            raise TreeUsage("tree: Invalid level, must be greater than 0.")
                        o["level"] = int(value)
                    else:
                        o["include" if ch == "P" else "exclude"].append(value)
                    break
                else:
                    raise TreeUsage(f"tree: Invalid argument -`{ch}'.")
            continue
        paths.append(a)
    return o, paths


class TreePrinter:
    def __init__(self, ctx: CommandContext, o: dict) -> None:
        self.ctx = ctx
        self.fs = ctx.fs
        self.o = o
        self.dirs = 0
        self.files = 0
        self.lines: list[str] = []
        self.listed = 0
        self.failed = False  # some directory could not be read: exit status 2
        self.visited: set[int] = set()
        self.art = BOX_ART if utf8_locale(ctx.env) else ASCII_ART  # box lines need UTF-8
        self.include = [p for pat in o["include"] for p in pat.split("|")]
        self.exclude = [p for pat in o["exclude"] for p in pat.split("|")]

    def _info(self, path: str, s) -> str:
        o = self.o
        fields = []
        if o["p"]:
            fields.append(mode_string(s.st_mode))
        if o["u"]:
            fields.append(f"{user_name(self.fs, s.st_uid):<8}")
        if o["g"]:
            fields.append(f"{group_name(self.fs, s.st_gid):<8}")
        if o["h"]:
            fields.append(f"{_human(s.st_size):>4}")
        elif o["s"]:
            fields.append(f"{s.st_size:>11}")
        if o["D"]:
            dt = local_datetime(s.st_mtime, self.ctx.env)
            fields.append(f"{dt:%b} {dt.day:2d} {dt:%H:%M}")
        return f"[{' '.join(fields)}]  " if fields else ""

    def _suffix(self, s) -> str:
        if not self.o["F"]:
            return ""
        # tree shows a link's target instead of ls's "@"
        return "" if st.S_ISLNK(s.st_mode) else type_indicator(s.st_mode)

    def entries(self, path: str) -> list[tuple[str, object, object]]:
        """(name, lstat, stat-or-None) of listed children, sorted."""
        o = self.o
        out = []
        for name in self.fs.listdir(path, self.ctx.cwd):
            if not o["a"] and name.startswith("."):
                continue
            child = join_path(path, name)
            try:
                lst = self.fs.lstat(child, self.ctx.cwd)
            except FSError:
                continue
            try:
                target = self.fs.stat(child, self.ctx.cwd) if st.S_ISLNK(lst.st_mode) else lst
            except FSError:
                target = None
            is_dir = target is not None and st.S_ISDIR(target.st_mode)
            if o["d"] and not is_dir:
                continue
            if any(fnmatch(p, name) for p in self.exclude):
                continue
            as_dir = is_dir and (not st.S_ISLNK(lst.st_mode) or o["l"])
            if self.include and not as_dir and not any(fnmatch(p, name) for p in self.include):
                continue
            out.append((name, lst, target))
        if not o["U"]:
            key_name = (lambda e: e[0].encode("utf-8", "surrogateescape"))
            if o["v"]:
                out.sort(key=lambda e: version_key(key_name(e)))
            else:
                out.sort(key=key_name)
            if o["t"]:
                out.sort(key=lambda e: e[1].st_mtime)
            if o["r"]:
                out.reverse()
        if o["dirsfirst"] or o["filesfirst"]:
            first_dirs = o["dirsfirst"]
            out.sort(key=lambda e: (e[2] is not None and st.S_ISDIR(e[2].st_mode)) != first_dirs)
        return out

    async def walk(self, path: str, prefix: str, depth: int) -> None:
        try:
            children = self.entries(path)
        except FSError:
            self.lines[-1] = self.lines[-1].rstrip("\n") + "  [error opening dir]\n"
            self.failed = True
            return
        for index, (name, lst, target) in enumerate(children):
            last = index == len(children) - 1
            child = join_path(path, name)
            shown = child if self.o["f"] else name
            line = "" if self.o["i"] else prefix + (self.art[1] if last else self.art[0])
            is_dir = target is not None and st.S_ISDIR(target.st_mode)
            text = self._info(child, lst) + shown
            if st.S_ISLNK(lst.st_mode):
                link = self.fs.readlink(child, self.ctx.cwd)
                text += " -> " + link
                if target is not None:
                    text += self._suffix(target)
            else:
                text += self._suffix(lst)
            self.lines.append(line + text + "\n")
            self.listed += 1
            if is_dir:
                self.dirs += 1
                descend = not st.S_ISLNK(lst.st_mode) or self.o["l"]
                if descend and st.S_ISLNK(lst.st_mode) and target.st_ino in self.visited:
                    self.lines[-1] = self.lines[-1].rstrip("\n") + "  [recursive, not followed]\n"
                    descend = False
                if descend and (self.o["level"] is None or depth < self.o["level"]):
                    self.visited.add(target.st_ino)
                    await self.walk(
                        child, "" if self.o["i"] else prefix + (self.art[3] if last else self.art[2]), depth + 1
                    )
            else:
                self.files += 1
            if len(self.lines) > 512:
                await self.flush()
        await self.ctx.checkpoint()

    async def flush(self) -> None:
        if self.lines:
            await self.ctx.out("".join(self.lines))
            self.lines.clear()


@command("tree", help=TREE_HELP)
async def tree(ctx: CommandContext) -> int:
    try:
        o, paths = _parse_args(ctx.args)
    except TreeUsage as e:
        await ctx.err(str(e) + "\n" + TREE_HELP.split("\n  -")[0] + "\n")
        return 1
    printer = TreePrinter(ctx, o)
    status = 0
    for path in paths or ["."]:
        try:
            s = ctx.fs.stat(path, ctx.cwd)
        except FSError:
            printer.lines.append(f"{path}  [error opening dir]\n")
            status = 2
            continue
        label = path
        if o["F"] and st.S_ISDIR(s.st_mode) and not path.endswith("/"):
            label += "/"
        printer.lines.append(printer._info(path, s) + label + "\n")
        if not st.S_ISDIR(s.st_mode):
            printer.lines[-1] = printer.lines[-1].rstrip("\n") + "  [error opening dir]\n"
            printer.files += 1
            continue
        before = printer.listed
        printer.visited.add(s.st_ino)
        await printer.walk(path, "", 1)
        if printer.listed != before:
            printer.dirs += 1  # tree 2.x counts a top directory only when it lists something
    if not o["noreport"]:
        d = printer.dirs
        dirs = f"{d} director{'y' if d == 1 else 'ies'}"
        if o["d"]:
            printer.lines.append(f"\n{dirs}\n")
        else:
            f = printer.files
            printer.lines.append(f"\n{dirs}, {f} file{'' if f == 1 else 's'}\n")
    await printer.flush()
    return 2 if printer.failed else status
