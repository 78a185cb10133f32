"""Space accounting: du (per-path usage) and df (the sandbox's quota as one filesystem)."""
from __future__ import annotations

import stat as st

from ..chars import isdigits
from ..vfs import FSError
from ..vfs.fs import Dir, Inode, Symlink, stat_of
from ..wildcard import excluded
from ._lib.fsutil import human_size, join_path
from ._lib.quoting import quote, strerror
from ._lib.sizes import parse_size
from .options import UsageError, getopt
from .registry import CommandContext, command

DU_HELP = """\
Usage: du [OPTION]... [FILE]...
Summarize disk usage of the set of FILEs, recursively for directories.

  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than disk usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --si              like -h, but use powers of 1000 not 1024
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
  -s, --summarize       display only a total for each argument
  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,
                          or entries greater than SIZE if negative
  -x, --one-file-system  skip directories on different file systems
      --exclude=PATTERN  exclude files that match PATTERN
      --help            display this help and exit"""


#: GNU keeps sizes in intmax_t
INTMAX = (1 << 63) - 1


async def _threshold(ctx: CommandContext, spelled: str, val: str) -> int | None:
    """-t SIZE: entries below SIZE are left out, or with -SIZE entries above it; None (reported)
    when SIZE is not one."""
    negative = val.startswith("-")
    digits = val[1:] if negative else val
    size = parse_size(digits, "eEgGkKmMpPtTyYzZ0")
    if size is None:
        lead = len(digits) - len(digits.lstrip("0123456789"))
        why = f"invalid suffix in {spelled}" if lead else f"invalid {spelled}"
        await ctx.error(f"{why} argument {quote(val, 'locale')}")
        return None
    if size > INTMAX:
        await ctx.error(f"{spelled} argument {quote(val, 'locale')} too large")
        return None
    if negative and size == 0:
        await ctx.error(f"invalid --threshold argument {quote(val, 'locale')}")
        return None
    return -size if negative else size


async def _block_size(ctx: CommandContext, val: str | None) -> int | None:
    """-B SIZE for du and df; None (reported) when SIZE is not a positive size."""
    size = parse_size(val or "", "eEgGkKmMpPtTyYzZ0")
    if size is None or size <= 0:
        await ctx.error(f"invalid -B argument '{val or ''}'")  # GNU leaves this one unescaped
        return None
    return size


@command("du", help=DU_HELP)
async def du(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "0abB:cd:DhHklLmPsSt:x", {
        "null": "0", "all": "a", "apparent-size": None, "block-size=": "B", "bytes": "b",
        "total": "c", "max-depth=": "d", "human-readable": "h", "si": None, "dereference": "L",
        "count-links": "l", "no-dereference": "P", "separate-dirs": "S", "summarize": "s",
        "one-file-system": "x", "exclude=": None, "dereference-args": "D", "threshold=": None}, status=1)
    show_all = total = summarize = human = si = apparent = follow = count_links = separate = False
    follow_args = False
    block = 1024
    max_depth: int | None = None
    threshold = 0
    excludes: list[str] = []
    end = "\n"
    for key, val in opts:
        if key == "0":
            end = "\0"
        elif key == "a":
            show_all = True
        elif key == "apparent-size":
            apparent = True
        elif key == "b":
            apparent, block = True, 1
        elif key == "B":
            block = await _block_size(ctx, val)
            if block is None:
                return 1
        elif key == "c":
            total = True
        elif key == "d":
            if not isdigits(val or ""):
                await ctx.error(f"invalid maximum depth {quote(val or '', 'locale')}")
                return 1
            max_depth = int(val)
        elif key == "h":
            human, si = True, False
        elif key == "si":
            human = si = True
        elif key == "k":
            block = 1024
        elif key == "m":
            block = 1024 * 1024
        elif key == "L":
            follow = True
        elif key in "DH":
            follow_args = True
        elif key == "P":
            follow = False
        elif key == "l":
            count_links = True
        elif key == "S":
            separate = True
        elif key == "s":
            summarize = True
        elif key in ("t", "threshold"):
            limit = await _threshold(ctx, "-t" if key == "t" else "--threshold", val or "")
            if limit is None:
                return 1
            threshold = limit
        elif key == "exclude":
            excludes.append(val or "")
    if summarize and max_depth is not None and max_depth != 0:
        raise UsageError(f"warning: summarizing conflicts with --max-depth={max_depth}", 1)
    if summarize:
        max_depth = 0
    if show_all and summarize:
        raise UsageError("cannot both summarize and show all entries", 1)
    fs, cwd = ctx.fs, ctx.cwd
    seen: set[int] = set()
    status = 0
    lines: list[str] = []

    def fmt(amount: int) -> str:
        if human:
            return human_size(amount, si)
        return str(-(-amount // block))

    def shown(amount: int) -> bool:
        return amount <= -threshold if threshold < 0 else amount >= threshold

    def usage_of(s) -> int:
        if apparent:
            return s.st_size if not st.S_ISDIR(s.st_mode) else s.st_size
        return s.st_blocks * 512

    async def flush() -> None:
        if lines:
            await ctx.out("".join(lines))
            lines.clear()

    async def visit(path: str, depth: int, deref: bool, folder: Dir | None = None,
                    node: Inode | None = None) -> int:
        """Usage below ``path``; children come with their folder and inode in hand."""
        nonlocal status
        try:
            if node is None or (deref and isinstance(node, Symlink)):
                node = fs.node(path, cwd, follow=deref)
                s = stat_of(node)
            else:
                s = fs.entry_stat(folder, node, path) if folder is not None else stat_of(node)
        except FSError as e:
            await flush()
            await ctx.error(f"cannot access {quote(path)}: {strerror(e)}")
            status = 1
            return 0
        if not count_links and s.st_nlink > 1 and not st.S_ISDIR(s.st_mode):
            if s.st_ino in seen:
                return 0
            seen.add(s.st_ino)
        size = usage_of(s)
        if isinstance(node, Dir):
            try:
                children = fs.entries(node, path)
            except FSError as e:
                await flush()
                await ctx.error(f"cannot read directory {quote(path)}: {strerror(e)}")
                status = 1
                children = []
            sub_total = files_total = 0
            for name, child in children:
                if excludes and any(excluded(p, join_path(path, name)) for p in excludes):
                    continue
                used = await visit(join_path(path, name), depth + 1, follow, node, child)
                sub_total += used
                if not isinstance(child, Dir):
                    files_total += used
            await ctx.checkpoint()
            # -S: a directory's own line leaves out its subdirectories, the totals do not
            amount = size + (files_total if separate else sub_total)
            if (max_depth is None or depth <= max_depth) and shown(amount):
                lines.append(f"{fmt(amount)}\t{path}{end}")
            if len(lines) > 256:
                await ctx.out("".join(lines))
                lines.clear()
            return size + sub_total
        if (depth == 0 or (show_all and (max_depth is None or depth <= max_depth))) and shown(size):
            lines.append(f"{fmt(size)}\t{path}{end}")
        return size

    grand = 0
    for path in operands or ["."]:
        if any(excluded(p, path) for p in excludes):
            continue
        grand += await visit(path, 0, follow or follow_args)
    if total:
        lines.append(f"{fmt(grand)}\ttotal{end}")
    await ctx.out("".join(lines))
    return status


DF_HELP = """\
Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.
The sandbox has one filesystem, "sandbox", mounted on /: its size is the
sandbox's storage quota (vfs_bytes) and its inodes the inode quota.

  -a, --all             include pseudo, duplicate, inaccessible file systems
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -l, --local           limit listing to local file systems
  -P, --portability     use the POSIX output format
      --total           elide all entries insignificant to available space,
                          and produce a grand total
  -t, --type=TYPE       limit listing to file systems of type TYPE
  -T, --print-type      print file system type
  -x, --exclude-type=TYPE   limit listing to file systems not of type TYPE
      --help            display this help and exit"""

FS_NAME = "sandbox"
FS_TYPE = "sandboxfs"


@command("df", help=DF_HELP)
async def df(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "aB:hHiklPt:Tx:", {
        "all": "a", "block-size=": "B", "human-readable": "h", "si": "H", "inodes": "i",
        "local": "l", "portability": "P", "total": None, "type=": "t", "print-type": "T",
        "exclude-type=": "x", "sync": None, "no-sync": None, "output==": None}, status=1)
    human = si = inodes = print_type = posix = show_total = False
    block = 1024
    only_types: list[str] = []
    excluded: list[str] = []
    for key, val in opts:
        if key == "h":
            human, si = True, False
        elif key == "H":
            human = si = True
        elif key == "i":
            inodes = True
        elif key == "T":
            print_type = True
        elif key == "P":
            posix = True
        elif key == "k":
            block = 1024
        elif key == "B":
            block = await _block_size(ctx, val)
            if block is None:
                return 1
        elif key == "total":
            show_total = True
        elif key == "t":
            only_types.append(val or "")
        elif key == "x":
            excluded.append(val or "")
        elif key == "output":
            raise UsageError("option '--output' is not supported", 1)
    fs, cwd = ctx.fs, ctx.cwd
    status = 0
    targets: list[str] = []
    for path in operands:
        try:
            fs.stat(path, cwd)
        except FSError as e:
            await ctx.error(f"{path}: {strerror(e)}")
            status = 1
            continue
        targets.append(path)
    if operands and not targets:
        return status
    rows_count = len(targets) if operands else 1
    if (only_types and FS_TYPE not in only_types) or FS_TYPE in excluded:
        await ctx.error("no file systems processed")
        return 1
    u = fs.usage()

    def num(amount_bytes: int) -> str:
        if human:
            return human_size(amount_bytes, si)
        return str(-(-amount_bytes // block))

    if inodes:
        total_n, used_n = u["inodes_max"], u["inodes_used"]
        free_n = max(0, total_n - used_n)
        pct = "-" if not total_n else f"{-(-used_n * 100 // total_n)}%"
        values = [human_size(total_n, si) if human else str(total_n),
                  human_size(used_n, si) if human else str(used_n),
                  human_size(free_n, si) if human else str(free_n), pct]
        headers = ["Inodes", "IUsed", "IFree", "IUse%"]
    else:
        total_b, used_b = u["bytes_max"], u["bytes_used"]
        free_b = max(0, total_b - used_b)
        used_blocks = -(-used_b // block)
        avail_blocks = free_b // block
        pct_base = used_blocks + avail_blocks
        pct = "-" if not pct_base else f"{-(-used_blocks * 100 // pct_base)}%"
        if human:
            values = [human_size(total_b, si), human_size(used_b, si), human_size(free_b, si), pct]
            headers = ["Size", "Used", "Avail", "Use%"]
        else:
            values = [num(total_b), str(used_blocks), str(avail_blocks), pct]
            size_header = f"{block // 1024}K-blocks" if block % 1024 == 0 and block < 1024 ** 2 else \
                f"{block // 1024 ** 2}M-blocks" if block % 1024 ** 2 == 0 else f"{block}B-blocks"
            if posix and block == 1024:
                size_header = "1024-blocks"
            headers = [size_header, "Used", "Available", "Capacity" if posix else "Use%"]
    head = ["Filesystem"] + (["Type"] if print_type else []) + headers + ["Mounted on"]
    row = [FS_NAME] + ([FS_TYPE] if print_type else []) + values + ["/"]
    rows = [row] * rows_count
    if show_total:
        rows = rows + [["total"] + (["-"] if print_type else []) + values + ["-"]]
    n_cols = len(head)
    widths = []
    for i in range(n_cols):
        col = [head[i]] + [r[i] for r in rows]
        minimum = 14 if i == 0 else 4 if print_type and i == 1 else 0 if i == n_cols - 1 else 5
        if i == n_cols - 2:
            minimum = 4
        widths.append(max(minimum, *(len(c) for c in col)))
    left = {0, n_cols - 1} | ({1} if print_type else set())

    def line(cells: list[str]) -> str:
        parts = []
        for i, cell in enumerate(cells):
            if i == n_cols - 1:
                parts.append(cell)
            elif i in left:
                parts.append(cell.ljust(widths[i]))
            else:
                parts.append(cell.rjust(widths[i]))
        return " ".join(parts).rstrip() + "\n"

    await ctx.out(line(head) + "".join(line(r) for r in rows))
    return status
