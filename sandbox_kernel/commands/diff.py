"""diff: compare files line by line (normal, unified, context, ed, brief), and directories
(-r, -N), with GNU diff's hunk placement, headers, messages and exit status (0/1/2)."""
from __future__ import annotations

import re
import stat as _stat
import time as _time
from dataclasses import dataclass, field
from typing import Iterator

from .. import memory
from ..chars import isdigits
from ..streams import CHUNK
from ..vfs import FSError
from ..wildcard import fnmatch
from ._lib.dates import format_date, local_zone, zoned_datetime
from ._lib.diffcore import Change, diff_sequences
from ._lib.quoting import quote
from .options import UsageError, getopt
from .registry import CommandContext, command

DIFF_HELP = """Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -e, --ed                      output an ed script
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --left-column             output only the left column of common lines
      --suppress-common-lines   do not output common lines
  -t, --expand-tabs             expand tabs to spaces in output
  -r, --recursive                 recursively compare any subdirectories found
  -N, --new-file                  treat absent files as empty
      --unidirectional-new-file   treat absent first files as empty
  -x, --exclude=PAT               exclude files that match PAT
  -i, --ignore-case               ignore case differences in file contents
  -E, --ignore-tab-expansion      ignore changes due to tab expansion
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank
  -I, --ignore-matching-lines=RE  ignore changes where all lines match RE
  -a, --text                      treat all files as text
      --strip-trailing-cr         strip trailing carriage return on input
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)
  -d, --minimal            try hard to find a smaller set of changes
      --help               display this help and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
"""

_LONG = {
    "normal": None, "brief": "q", "report-identical-files": "s", "context==": None,
    "unified==": None, "ed": "e", "recursive": "r", "new-file": "N",
    "unidirectional-new-file": None, "exclude=": "x", "ignore-case": "i",
    "ignore-tab-expansion": "E", "ignore-trailing-space": "Z", "ignore-space-change": "b",
    "ignore-all-space": "w", "ignore-blank-lines": "B", "ignore-matching-lines=": "I",
    "text": "a", "strip-trailing-cr": None, "label=": None, "minimal": "d",
    "speed-large-files": None, "color==": None, "no-dereference": None, "expand-tabs": "t",
    "initial-tab": "T", "show-c-function": "p", "suppress-common-lines": None,
    "side-by-side": "y", "width=": "W", "left-column": None,
}


#: What diff holds per input line beyond the line's bytes: the line (a bytes object and its list
#: slot), its key (a tuple and a copy of the text), its id, the search's two diagonal slots and an
#: output line. Measured with tracemalloc (tests/test_memory_limit.py checks it).
DIFF_LINE_COST = 256
#: Lines numbered between two interrupt checks.
ID_BLOCK = 1 << 16
#: diff -y: pieces of rows gathered before they are joined and written.
ROW_PIECES = 1 << 14


@dataclass
class DiffOptions:
    style: str = "normal"          # normal, unified, context, ed, brief
    context: int = 3
    brief: bool = False
    report_identical: bool = False
    recursive: bool = False
    new_file: bool = False
    new_file_first_only: bool = False
    excludes: list[str] = field(default_factory=list)
    ignore_case: bool = False
    ignore_tabs: bool = False
    ignore_trailing: bool = False
    ignore_space_change: bool = False
    ignore_all_space: bool = False
    ignore_blank: bool = False
    ignore_regexes: list = field(default_factory=list)
    text: bool = False
    strip_cr: bool = False
    labels: list[str] = field(default_factory=list)
    switches: str = ""
    width: int = 130
    suppress_common: bool = False
    left_column: bool = False
    expand_tabs: bool = False


class _Trouble(Exception):
    pass


# options that switch one DiffOptions field on, and those that pick the output style
_FLAG_OPTIONS = {
    "q": "brief", "s": "report_identical", "suppress-common-lines": "suppress_common",
    "left-column": "left_column", "t": "expand_tabs", "r": "recursive", "N": "new_file",
    "unidirectional-new-file": "new_file_first_only", "i": "ignore_case", "E": "ignore_tabs",
    "Z": "ignore_trailing", "b": "ignore_space_change", "w": "ignore_all_space",
    "B": "ignore_blank", "a": "text", "strip-trailing-cr": "strip_cr",
}
_STYLE_OPTIONS = {"normal": "normal", "e": "ed", "y": "side"}


@command("diff", help=DIFF_HELP)
async def diff(ctx: CommandContext) -> int:
    try:
        opts, files = getopt(ctx.args, "qscC:uU:erNx:iEZbwBI:adtTpyW:", _LONG)
    except UsageError as e:
        await ctx.error(e.message)
        await ctx.error("Try 'diff --help' for more information.")
        return 2
    o = DiffOptions()
    for key, value in opts:
        if key in _FLAG_OPTIONS:
            setattr(o, _FLAG_OPTIONS[key], True)
        elif key in _STYLE_OPTIONS:
            o.style = _STYLE_OPTIONS[key]
        elif key in ("c", "C", "context", "u", "U", "unified"):
            o.style = "context" if key in ("c", "C", "context") else "unified"
            if value is not None:
                if not isdigits(value):
                    await ctx.error(f"invalid context length {quote(value, 'locale')}")
                    await ctx.error("Try 'diff --help' for more information.")
                    return 2
                o.context = int(value)
        elif key == "W":
            if not isdigits(value) or int(value) == 0:
                await ctx.error(f"invalid width {quote(value, 'locale')}")
                await ctx.error("Try 'diff --help' for more information.")
                return 2
            o.width = int(value)
        elif key == "x":
            o.excludes.append(value)
        elif key == "I":
            try:
                o.ignore_regexes.append(re.compile(value.encode("utf-8", "surrogateescape")))
            except re.error:
                await ctx.error(f"invalid regular expression {quote(value, 'locale')}")
                return 2
        elif key == "label":
            o.labels.append(value)
        elif key == "color" and value not in (None, "never", "auto", "always"):
            await ctx.error(f"invalid argument {quote(value, 'locale')} for '--color'")
            return 2
    if len(files) < 2:
        after = files[0] if files else "diff"
        await ctx.error(f"missing operand after {quote(after, 'locale')}")
        await ctx.error("Try 'diff --help' for more information.")
        return 2
    if len(files) > 2:
        await ctx.error(f"extra operand {quote(files[2], 'locale')}")
        await ctx.error("Try 'diff --help' for more information.")
        return 2
    o.switches = _switch_string(ctx.args, files)
    runner = _Differ(ctx, o)
    try:
        return await runner.top(files[0], files[1])
    except _Trouble:
        return 2


def _switch_string(args: list[str], files: list[str]) -> str:
    """The options as typed, for the 'diff -r a/x b/x' lines of directory comparisons."""
    rest = list(args)
    for name in reversed(files):
        for i in range(len(rest) - 1, -1, -1):
            if rest[i] == name:
                del rest[i]
                break
    return "".join(" " + a for a in rest if a != "--")


@dataclass
class _Side:
    label: str          # the name shown
    path: str | None    # None: absent (treated as empty with -N)
    data: bytes = b""
    mtime: float = 0.0


class _Differ:
    def __init__(self, ctx: CommandContext, o: DiffOptions) -> None:
        self.ctx = ctx
        self.o = o
        self.zone = local_zone(ctx.env)
        self.trouble = False
        self.stdin_data: bytes | None = None

    async def top(self, name_a: str, name_b: str) -> int:
        ctx = self.ctx
        kind_a = self._kind(name_a)
        kind_b = self._kind(name_b)
        missing = [name for name, kind in ((name_a, kind_a), (name_b, kind_b))
                   if kind is None and not (self.o.new_file and (kind_a or kind_b))]
        for name in missing:
            await ctx.error(f"{name}: No such file or directory")
        if missing:
            return 2
        if kind_a == "dir" and kind_b == "dir":
            status = await self.compare_dirs(name_a, name_b)
        elif kind_a == "dir":
            status = await self.compare_files(_join(name_a, _basename(name_b)), name_b, top=True)
        elif kind_b == "dir":
            status = await self.compare_files(name_a, _join(name_b, _basename(name_a)), top=True)
        else:
            status = await self.compare_files(name_a, name_b, top=True)
        return 2 if self.trouble else status

    def _kind(self, name: str) -> str | None:
        if name == "-":
            return "file"
        try:
            st = self.ctx.fs.stat(name, cwd=self.ctx.cwd)
        except FSError:
            return None
        return "dir" if _stat.S_ISDIR(st.st_mode) else "file"

    async def _load(self, name: str, allow_absent: bool) -> _Side:
        ctx = self.ctx
        if name == "-":
            if self.stdin_data is None:
                self.stdin_data = await ctx.stdin.read()
            return _Side(name, name, self.stdin_data, _time.time())
        try:
            st = ctx.fs.stat(name, cwd=ctx.cwd)
            if _stat.S_ISDIR(st.st_mode):
                raise _isdir_error(name)
            memory.need(st.st_size)  # held (released with the pair)
            data = ctx.fs.read_bytes(name, cwd=ctx.cwd)
            memory.charge(len(data))
            return _Side(name, name, data, st.st_mtime)
        except FSError as e:
            if allow_absent and e.code == "ENOENT":
                return _Side(name, None, b"", 0.0)
            await ctx.error(f"{name}: {e.strerror}")
            self.trouble = True
            raise _Trouble() from None

    async def compare_files(self, name_a: str, name_b: str, top: bool = False,
                            absent_ok: bool = False) -> int:
        if name_a == name_b == "-":
            return 0  # the same file: GNU diff does not read it (diff - -; wc -c counts it all)
        meter = memory.meter()
        held = meter.held if meter is not None else 0
        try:
            a = await self._load(name_a, absent_ok or self.o.new_file)
            b = await self._load(name_b, absent_ok or self.o.new_file)
            if a.path is None and b.path is None:
                await self.ctx.error(f"{name_a}: No such file or directory")
                self.trouble = True
                return 2
            return await self.diff_pair(a, b, header=not top)
        except _Trouble:
            return 2
        finally:  # what this pair held is free again (-r compares pair after pair)
            if meter is not None:
                meter.release(meter.held - held)

    async def compare_dirs(self, dir_a: str, dir_b: str) -> int:
        ctx = self.ctx
        o = self.o
        try:
            names_a = set(ctx.fs.listdir(dir_a, cwd=ctx.cwd)) if dir_a is not None else set()
            names_b = set(ctx.fs.listdir(dir_b, cwd=ctx.cwd)) if dir_b is not None else set()
        except FSError as e:
            await ctx.error(f"{e.filename}: {e.strerror}")
            self.trouble = True
            return 2
        status = 0
        for name in sorted(names_a | names_b):
            if any(fnmatch(pat, name) for pat in o.excludes):
                continue
            await ctx.checkpoint()
            path_a = _join(dir_a, name)
            path_b = _join(dir_b, name)
            kind_a = self._kind(path_a) if name in names_a else None
            kind_b = self._kind(path_b) if name in names_b else None
            if kind_a is None or kind_b is None:
                present_kind = kind_a or kind_b
                absent_ok = o.new_file or (o.new_file_first_only and kind_a is None)
                if absent_ok and present_kind == "file":
                    status = max(status, await self.compare_files(path_a, path_b, absent_ok=True))
                elif absent_ok and present_kind == "dir" and o.recursive:
                    status = max(status, await self._absent_dir(path_a, path_b, kind_a is None))
                else:
                    where = dir_a if kind_a else dir_b
                    await ctx.out(f"Only in {where}: {name}\n")
                    status = max(status, 1)
                continue
            if kind_a == "dir" and kind_b == "dir":
                if o.recursive:
                    status = max(status, await self.compare_dirs(path_a, path_b))
                else:
                    await ctx.out(f"Common subdirectories: {path_a} and {path_b}\n")
                continue
            if kind_a != kind_b:
                what_a = "directory" if kind_a == "dir" else "regular file"
                what_b = "directory" if kind_b == "dir" else "regular file"
                await ctx.out(f"File {path_a} is a {what_a} while file {path_b} is a {what_b}\n")
                status = max(status, 1)
                continue
            status = max(status, await self.compare_files(path_a, path_b))
        return status

    async def _absent_dir(self, path_a: str, path_b: str, a_absent: bool) -> int:
        """-N with a directory on one side only: every file in it is new (or deleted)."""
        present = path_b if a_absent else path_a
        status = 0
        for name in self.ctx.fs.listdir(present, cwd=self.ctx.cwd):
            sub_a, sub_b = _join(path_a, name), _join(path_b, name)
            if self.ctx.fs.is_dir(_join(present, name), cwd=self.ctx.cwd):
                status = max(status, await self._absent_dir(sub_a, sub_b, a_absent))
            else:
                status = max(status, await self.compare_files(sub_a, sub_b, absent_ok=True))
        return status

    async def diff_pair(self, a: _Side, b: _Side, header: bool) -> int:
        ctx = self.ctx
        o = self.o
        if a.data == b.data and (a.path is not None) == (b.path is not None or a.data == b""):
            if o.report_identical:
                await ctx.out(f"Files {a.label} and {b.label} are identical\n")
            return 0
        binary = not o.text and (b"\0" in a.data[:32768] or b"\0" in b.data[:32768])
        if binary:
            if a.data == b.data:
                return 0
            if header and not o.brief:
                await ctx.out(f"diff{o.switches} {a.label} {b.label}\n")
            if o.brief:
                await ctx.out(f"Files {a.label} and {b.label} differ\n")
            else:
                await ctx.out(f"Binary files {a.label} and {b.label} differ\n")
            return 1
        # what the comparison holds, refused before it is made: per line, the line, its key,
        # its id, the search's diagonals and an output line (DIFF_LINE_COST, measured), and
        # per byte the input's copies in lines, keys and the output
        count = a.data.count(b"\n") + b.data.count(b"\n") + 2
        memory.charge(count * DIFF_LINE_COST + 3 * (len(a.data) + len(b.data)))
        lines_a = _split_lines(a.data)
        lines_b = _split_lines(b.data)
        keys: dict = {}
        ids_a = self._ids(lines_a, keys)
        ids_b = self._ids(lines_b, keys)
        horizon = o.context if o.style in ("unified", "context") else 0
        changes = diff_sequences(ids_a, ids_b, ctx.check, lines_a, lines_b, horizon)
        if o.ignore_blank or o.ignore_regexes:
            changes = [c for c in changes if not self._ignorable(c, lines_a, lines_b)]
        if not changes:
            if o.report_identical and a.data == b.data:
                await ctx.out(f"Files {a.label} and {b.label} are identical\n")
            return 0
        if o.brief:
            await ctx.out(f"Files {a.label} and {b.label} differ\n")
            return 1
        if header:
            await ctx.out(f"diff{o.switches} {a.label} {b.label}\n")
        if o.style == "unified":
            pieces = self._unified(changes, lines_a, lines_b, a, b)
        elif o.style == "context":
            pieces = self._context(changes, lines_a, lines_b, a, b)
        elif o.style == "ed":
            pieces = _ed_script(changes, lines_a, lines_b)
        elif o.style == "side":
            pieces = _side_by_side(changes, lines_a, lines_b, o)
        else:
            pieces = _normal(changes, lines_a, lines_b)
        batch: list[bytes] = []
        size = 0
        for piece in pieces:  # written as it is made, a batch of about CHUNK bytes at a time
            batch.append(piece)
            size += len(piece)
            if size >= CHUNK:
                await ctx.stdout.write(b"".join(batch))
                await ctx.checkpoint()
                batch, size = [], 0
        await ctx.stdout.write(b"".join(batch))
        return 1

    def _ids(self, lines: list[bytes], keys: dict) -> list[int]:
        """Each line's number in ``keys`` (equal keys, equal numbers), checking for interrupts
        and the run's memory net between blocks of lines."""
        ids: list[int] = []
        for i in range(0, len(lines), ID_BLOCK):
            ids.extend([keys.setdefault(self._key(line), len(keys)) for line in lines[i:i + ID_BLOCK]])
            self.ctx.check()
        return ids

    def _key(self, line: bytes):
        o = self.o
        body = line[:-1] if line.endswith(b"\n") else line
        newline = line.endswith(b"\n")
        if o.strip_cr and body.endswith(b"\r"):
            body = body[:-1]
        if o.ignore_tabs:
            body = body.expandtabs(8)
        if o.ignore_all_space:
            body = re.sub(rb"[ \t\r\f\v]+", b"", body)
        elif o.ignore_space_change:
            body = re.sub(rb"[ \t\r\f\v]+", b" ", body).rstrip(b" ")
        elif o.ignore_trailing:
            body = body.rstrip(b" \t\r\f\v")
        if o.ignore_case:
            body = body.lower()
        return body, newline

    def _ignorable(self, c: Change, lines_a, lines_b) -> bool:
        changed = lines_a[c.a_start:c.a_start + c.a_count] + lines_b[c.b_start:c.b_start + c.b_count]
        for line in changed:
            body = line.rstrip(b"\n")
            if self.o.ignore_blank and not body.strip():
                continue
            if any(r.search(body) for r in self.o.ignore_regexes):
                continue
            return False
        return True

    def _stamp(self, side: _Side) -> str:
        if side.path is None:
            secs, frac = 0, 0
        else:
            secs = int(side.mtime // 1)
            frac = int(round((side.mtime - secs) * 1e9)) % 1_000_000_000
        when = zoned_datetime(secs, self.zone)
        return format_date("%Y-%m-%d %H:%M:%S.%N %z", when, frac)

    def _file_header(self, mark: str, side: _Side, index: int) -> str:
        if len(self.o.labels) > index:
            return f"{mark} {self.o.labels[index]}\n"
        return f"{mark} {side.label}\t{self._stamp(side)}\n"

    def _unified(self, changes, lines_a, lines_b, a, b) -> Iterator[bytes]:
        yield self._file_header("---", a, 0).encode("utf-8", "surrogateescape")
        yield self._file_header("+++", b, 1).encode("utf-8", "surrogateescape")
        for group, a_lo, a_hi, b_lo, b_hi in _hunks(changes, self.o.context, len(lines_a), len(lines_b)):
            yield (f"@@ -{_unified_range(a_lo, a_hi)} +{_unified_range(b_lo, b_hi)} @@\n".encode())
            i = a_lo
            for c in group:
                for k in range(i, c.a_start):
                    yield (_tagged(b" ", lines_a[k]))
                for k in range(c.a_start, c.a_start + c.a_count):
                    yield (_tagged(b"-", lines_a[k]))
                for k in range(c.b_start, c.b_start + c.b_count):
                    yield (_tagged(b"+", lines_b[k]))
                i = c.a_start + c.a_count
            for k in range(i, a_hi):
                yield (_tagged(b" ", lines_a[k]))

    def _context(self, changes, lines_a, lines_b, a, b) -> Iterator[bytes]:
        yield self._file_header("***", a, 0).encode("utf-8", "surrogateescape")
        yield self._file_header("---", b, 1).encode("utf-8", "surrogateescape")
        for group, a_lo, a_hi, b_lo, b_hi in _hunks(changes, self.o.context, len(lines_a), len(lines_b)):
            yield (b"***************\n")
            yield (f"*** {_context_range(a_lo, a_hi)} ****\n".encode())
            yield from _context_side(lines_a, a_lo, a_hi,
                                       [(c.a_start, c.a_count, b"!" if c.b_count else b"-") for c in group])
            yield (f"--- {_context_range(b_lo, b_hi)} ----\n".encode())
            yield from _context_side(lines_b, b_lo, b_hi,
                                       [(c.b_start, c.b_count, b"!" if c.a_count else b"+") for c in group])


def _context_side(lines: list[bytes], lo: int, hi: int, spans) -> list[bytes]:
    """One side of a context diff hunk, each changed line marked with its span's tag; nothing
    when no span (start, count, tag) of the side holds a line."""
    if not any(count for _, count, _ in spans):
        return []
    marks = {}
    for start, count, tag in spans:
        for k in range(start, start + count):
            marks[k] = tag
    return [_tagged(marks.get(k, b" ") + b" ", lines[k]) for k in range(lo, hi)]


def _isdir_error(name: str) -> FSError:
    import errno
    return FSError(errno.EISDIR, name)


def _join(directory: str, name: str) -> str:
    return directory + name if directory.endswith("/") else f"{directory}/{name}"


def _basename(path: str) -> str:
    stripped = path.rstrip("/")
    return stripped.rsplit("/", 1)[-1] if stripped else "/"


def _split_lines(data: bytes) -> list[bytes]:
    if not data:
        return []
    lines = data.split(b"\n")
    last = lines.pop()
    result = [line + b"\n" for line in lines]
    if last:
        result.append(last)
    return result


def _tagged(prefix: bytes, line: bytes) -> bytes:
    if line.endswith(b"\n"):
        return prefix + line
    return prefix + line + b"\n\\ No newline at end of file\n"


def _hunks(changes: list[Change], context: int, len_a: int, len_b: int):
    """Group changes closer than 2*context lines; yield (group, a_lo, a_hi, b_lo, b_hi)."""
    group: list[Change] = []
    for c in changes:
        if group:
            last = group[-1]
            if c.a_start - (last.a_start + last.a_count) <= 2 * context:
                group.append(c)
                continue
            yield _bounds(group, context, len_a, len_b)
        group = [c]
    if group:
        yield _bounds(group, context, len_a, len_b)


def _bounds(group, context, len_a, len_b):
    first, last = group[0], group[-1]
    lead = min(context, first.a_start, first.b_start)
    a_lo = first.a_start - lead
    b_lo = first.b_start - lead
    a_end = last.a_start + last.a_count
    b_end = last.b_start + last.b_count
    trail = min(context, len_a - a_end, len_b - b_end)
    return group, a_lo, a_end + trail, b_lo, b_end + trail


def _unified_range(lo: int, hi: int) -> str:
    count = hi - lo
    if count == 0:
        return f"{lo},0"
    if count == 1:
        return f"{lo + 1}"
    return f"{lo + 1},{count}"


def _context_range(lo: int, hi: int) -> str:
    if hi - lo == 0:
        return f"{lo}"
    if hi - lo == 1:
        return f"{hi}"
    return f"{lo + 1},{hi}"


def _normal_range(start: int, count: int) -> str:
    if count <= 1:
        return f"{start + 1}" if count == 1 else f"{start}"
    return f"{start + 1},{start + count}"


def _normal(changes, lines_a, lines_b) -> Iterator[bytes]:
    for c in changes:
        if c.a_count == 0:
            yield (f"{c.a_start}a{_normal_range(c.b_start, c.b_count)}\n".encode())
        elif c.b_count == 0:
            yield (f"{_normal_range(c.a_start, c.a_count)}d{c.b_start}\n".encode())
        else:
            yield (f"{_normal_range(c.a_start, c.a_count)}c{_normal_range(c.b_start, c.b_count)}\n".encode())
        for k in range(c.a_start, c.a_start + c.a_count):
            yield (_tagged(b"< ", lines_a[k]))
        if c.a_count and c.b_count:
            yield (b"---\n")
        for k in range(c.b_start, c.b_start + c.b_count):
            yield (_tagged(b"> ", lines_b[k]))


def _side_by_side(changes, lines_a, lines_b, o: DiffOptions) -> Iterator[bytes]:
    """diff -y: both files in two columns with a gutter mark, laid out like GNU's sdiff mode."""
    tab = 1 if o.expand_tabs else 8
    offset = (o.width + tab + 3) // (2 * tab) * tab
    half = max(0, min(offset - 3, o.width - offset))
    column2 = offset if half else o.width
    out: list[bytes] = []

    def tab_from_to(col: int, to: int) -> int:
        if not o.expand_tabs:
            stop = col + 8 - col % 8
            while stop <= to:
                out.append(b"\t")
                col = stop
                stop += 8
        out.append(b" " * max(0, to - col))
        return to

    def half_line(line: bytes, indent: int) -> int:
        """Print the line's text clipped to the column width; returns the end column."""
        in_pos = out_pos = 0
        for byte in line.rstrip(b"\n"):
            if byte == 9:
                spaces = 8 - in_pos % 8
                if in_pos == out_pos:
                    stop = out_pos + spaces
                    if o.expand_tabs:
                        stop = min(stop, half)
                        out.append(b" " * (stop - out_pos))
                        out_pos = stop
                    elif stop < half:
                        out.append(b"\t")
                        out_pos = stop
                in_pos += spaces
            else:
                if in_pos < half:
                    out.append(bytes([byte]))
                    out_pos = in_pos + 1
                in_pos += 1
        return indent + out_pos

    def row(left: bytes | None, sep: str, right: bytes | None) -> None:
        col = 0
        newline = False
        if left is not None:
            newline = left.endswith(b"\n")
            col = half_line(left, 0)
        if sep != " ":
            col = tab_from_to(col, (half + column2 - 1) // 2) + 1
            if sep == "|" and right is not None and newline != right.endswith(b"\n"):
                sep = "/" if newline else "\\"
            out.append(sep.encode())
        if right is not None:
            newline = newline or right.endswith(b"\n")
            if right not in (b"\n", b""):
                col = tab_from_to(col, column2)
                half_line(right, col)
        if newline:
            out.append(b"\n")

    def common(i: int, j: int) -> None:
        if o.suppress_common:
            return
        if o.left_column:
            row(lines_a[i], "(", None)
        else:
            row(lines_a[i], " ", lines_b[j])

    i = j = 0
    for c in changes:
        while i < c.a_start:
            common(i, j)
            i += 1
            j += 1
            if len(out) >= ROW_PIECES:
                yield b"".join(out)
                out.clear()
        for k in range(max(c.a_count, c.b_count)):
            left = lines_a[c.a_start + k] if k < c.a_count else None
            right = lines_b[c.b_start + k] if k < c.b_count else None
            row(left, "|" if left is not None and right is not None else "<" if left is not None else ">",
                right)
            if len(out) >= ROW_PIECES:
                yield b"".join(out)
                out.clear()
        i, j = c.a_start + c.a_count, c.b_start + c.b_count
    while i < len(lines_a):
        common(i, j)
        i += 1
        j += 1
        if len(out) >= ROW_PIECES:
            yield b"".join(out)
            out.clear()
    yield b"".join(out)


def _ed_script(changes, lines_a, lines_b) -> Iterator[bytes]:
    for c in reversed(changes):
        if c.a_count == 0:
            yield (f"{c.a_start}a\n".encode())
        elif c.b_count == 0:
            yield (f"{_normal_range(c.a_start, c.a_count)}d\n".encode())
            continue
        else:
            yield (f"{_normal_range(c.a_start, c.a_count)}c\n".encode())
        for k in range(c.b_start, c.b_start + c.b_count):
            line = lines_b[k]
            body = line[:-1] if line.endswith(b"\n") else line
            # a lone '.' would end ed's input: GNU writes '..' and fixes it with s/.//
            yield (body + b"\n")
        yield (b".\n")
