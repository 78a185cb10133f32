"""awk runtime: values, conversions, fields, records, I/O; the namespace generated code runs in."""
from __future__ import annotations

import asyncio
import codecs
import math
import re
import time
from datetime import datetime, timedelta, timezone

from ... import memory
from ...chars import isdigits
from ...streams import Pipe
from ...vfs import FSError
from .._lib.dates import local_zone
from .._lib.lineblocks import MAX_LINE, LineTooLong, TextCodec
from .._lib.posix_regex import Bounds, PosixRegex, RegexError, compile_posix
from .arrayorder import forin_order
from .gawkrand import GawkRandom, seed_of
from .lexer import regex_source

PIPE_BUFFER = 8192  # what ``print | cmd`` holds before passing it on, as stdio would
#: What an array element costs (its key, a number or a short string, the dict's entry).
ELEMENT_COST = 200

_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class StrNum(str):
    """An input-derived string (field, getline var, split element, ARGV, ENVIRON, -v value):
    compares as a number when it looks like one."""
    __slots__ = ()


class Uninit(StrNum):
    __slots__ = ()


class FieldStr(str):
    """A string assigned to a field (a constant, sub's result): it stays a string (gawk: after
    ``$1 = "0"``, ``!$1`` is false) where input is a strnum. Only the field list holds these;
    reading a field gives a plain str. ($0 is marked otherwise: Runtime.str_fields.)"""
    __slots__ = ()


class ForKey(StrNum):
    """A for-in loop's subscript: compares as input does, but is a string to truth and %c
    (gawk: ``for (k in a) if (k)`` is true for a key "0")."""
    __slots__ = ()


UNINIT = Uninit("")
#: a dynamic variable (compiler.find_types) that is a scalar not yet given a value; UNINIT
#: there means untyped, what its first use as an array or a scalar decides
SCALAR_UNINIT = Uninit("")
#: a field past NF: an empty string that compares as a string (gawk: $5 == 0 is false)
NO_FIELD = StrNum("")


class NextRecord(Exception):
    pass


class AwkExit(Exception):
    def __init__(self, status) -> None:
        self.status = status


class AwkFatal(Exception):
    pass


_NUM_PREFIX = re.compile(r"[ \t\n\r\f\v]*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)")
_LOOKS_NUMERIC = re.compile(r"[ \t\n\r\f\v]*[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?[ \t\n\r\f\v]*\Z")
_HEXLIKE = re.compile(r"[ \t\n]*[-+]?(inf|nan)", re.I)
# numeric columns (Runtime.numeric_column): what num() reads at a field's start, or nothing
_COLUMN_NUM = r"([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+](?i:inf|nan))"
#: blanks str.split() splits on besides space, tab and newline (columns assume gawk's three)
_ODD_SPACE = re.compile(r"[^\S \t\n]")


def _odd_blanks(text: str, default_fs: bool) -> bool:
    """Whether ``text`` holds blanks a numeric column cannot treat as gawk does: with the
    default FS, any str.split() splits on besides space, tab and newline; else those num()
    skips at a field's start besides space and tab. (Substring tests: memchr speed.)"""
    if "\r" in text or "\f" in text or "\v" in text:
        return True
    if not default_fs:
        return False
    if text.isascii():
        return "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text
    return _ODD_SPACE.search(text) is not None
_column_regexes: dict[tuple[str, int], re.Pattern | None] = {}


def _column_regex(fs: str, i: int) -> re.Pattern | None:
    """A regex matching once at every '\n' of '\n' + records, its group what num() reads at
    the start of field ``i`` (empty when the field is missing or holds no number), for the
    default FS or a one-character FS that no number can contain; None for other FS."""
    key = (fs, i)
    if key in _column_regexes:
        return _column_regexes[key]
    rx = None
    if fs == " ":
        # fields are runs of non-blanks; possessive: a failed match never backtracks
        rx = re.compile("\\n(?:[ \\t]*+" + "[^ \\t\\n]++[ \\t]++" * (i - 1) + _COLUMN_NUM + ")?")
    elif len(fs) == 1 and fs.isascii() and not fs.isalnum() and fs not in "+-. \n\r\f\v":
        c = re.escape(fs)
        blanks = " *+" if fs == "\t" else "[ \\t]*+"
        rx = re.compile("\\n(?:" + f"[^{c}\\n]*+{c}" * (i - 1) + blanks + _COLUMN_NUM + ")?")
    _column_regexes[key] = rx
    return rx


def num(v) -> float:
    if v.__class__ is float:
        return v
    if v.__class__ is StrNum or v.__class__ is str:
        if v.isascii() and v.isdigit():  # isdigits() inlined: the hottest path
            try:
                return float(v)
            except ValueError:
                pass
    m = _NUM_PREFIX.match(v)
    if m:
        return float(m.group(1))
    m = _HEXLIKE.match(v)
    if m and m.group(0).lstrip()[0] in "+-":
        return float(m.group(0))
    return 0.0


def looks_numeric(v) -> bool:
    if v.__class__ is Uninit:
        return True
    return bool(_LOOKS_NUMERIC.match(v))


def special_text(v: float) -> str:
    """gawk's text for infinities and NaNs: always signed."""
    if math.isnan(v):
        return "-nan" if math.copysign(1, v) < 0 else "+nan"
    return "-inf" if v < 0 else "+inf"


def format_number(v: float, fmt: str) -> str:
    if math.isinf(v) or math.isnan(v):
        return special_text(v)
    if v == int(v):
        return "%d" % v
    try:
        return sprintf(fmt, [v])
    except Exception:
        return "%.6g" % v


class Runtime:
    def __init__(self, ctx, argv: list[str], bounds: Bounds,
                 codec: TextCodec | None = None) -> None:
        self.ctx = ctx
        self.codec = codec = codec or TextCodec(False)
        if codec.bytes_mode:  # C locale: toupper/tolower change ASCII letters only
            self.upper = lambda text: text.translate(_ASCII_UPPER)
            self.lower = lambda text: text.translate(_ASCII_LOWER)
        else:
            self.upper, self.lower = str.upper, str.lower
        self.NR = 0.0
        self.NF = 0.0
        self.FNR = 0.0
        self.FS = " "
        self.OFS = " "
        self.ORS = "\n"
        self.RS = "\n"
        self.SUBSEP = "\x1c"
        self.CONVFMT = "%.6g"
        self.OFMT = "%.6g"
        self.RSTART = 0.0
        self.RLENGTH = -1.0
        self.FILENAME = ""
        self.ARGC = float(len(argv))
        self.ARGV = {numkey(float(i)): StrNum(codec.arg(a)) for i, a in enumerate(argv)}
        self.ENVIRON = {codec.arg(k): StrNum(codec.arg(v)) for k, v in ctx.env.items()}
        self.fields: list = [UNINIT]  # fields[0] is $0; fields split lazily
        #: the field list whose $0 is a string (assigned or rebuilt), not input (a strnum)
        self.str_fields: list | None = None
        self.split_done = True
        self.out: list[str] = []  # pending stdout pieces (generated code appends to it)
        self.ranges: dict[int, bool] = {}
        self.rng: GawkRandom | None = None  # made on first use: seeding costs ~1 ms
        self.seed = 1  # gawk's initial seed, what the first srand() returns
        self.gl_value = UNINIT
        self.bounds = bounds  # every regex match stops with the run
        self.ticks = 0
        self.depth = 0
        self.files: dict[str, object] = {}  # output redirections
        self.readers: dict[str, RecordReader] = {}  # getline < file / cmd | getline
        self.children: list[asyncio.Task] = []  # commands started by pipes
        self.main_iter = None
        self.main_stream = None
        self.arg_index = 1
        self.used_file_operand = False
        self.assign_hook = None  # set by the command: applies var=value operands
        self.exit_status = 0
        self.fs_cache: tuple | None = None
        self.warnings: list[str] = []  # gawk warnings waiting to go to stderr
        self.said: set[str] = set()  # the warnings gawk gives once
        self.pending: list[str] = []  # records read ahead from the main input
        self.pending_pos = 0
        #: the text the pending records were split from (RS one character), else None
        self.pending_block: str | None = None
        #: the RS the pending records were split with, and what ended the last of them (RT)
        self.pending_rs = "\n"
        self.pending_last_rt = ""
        #: RT set otherwise (getline from a file or command, an assignment): its value, and
        #: where the main input was then (pending, pending_pos), while it still is
        self.rt_mark: tuple | None = None
        self.rt_value = ""
        #: fields split off a record: all (None), or only the first N when the program reads
        #: no others and never NF (``field_use``)
        self.split_limit: int | None = None
        #: numeric fields read from columns made per batch (``field_use``): set while the main
        #: loop runs, which keeps ``pending_pos`` at the record after the current one and
        #: empties ``numcols`` for each batch
        self.columns = False
        self.numcols: dict[int, list[float] | None] = {}
        #: whether the main loop counts NR and FNR per record (the program reads them)
        self.count_each = True
        #: whether the program assigns RS (which may end a batch early: unread_pending)
        self.rs_assigned = True
        #: the fields the rules read, when they read them only as numbers (``field_use``)
        self.numbers_only: tuple[int, ...] | None = None
        #: the generated code's namespace: its global _C<i> is numcols[i] while a batch runs
        self.ns: dict | None = None
        #: the program's global arrays, and what they were last counted as (count_arrays)
        self.arrays: list[dict] = []
        self.arrays_cost = 0

    # ---------------------------------------------------------------- errors, limits
    def tick(self) -> None:
        self.ticks += 1
        if not (self.ticks & 1023):
            self.ctx.check()
            self.count_arrays()

    async def atick(self) -> None:
        self.ticks += 1
        if not (self.ticks & 1023):
            await self.ctx.checkpoint()
            self.count_arrays()
            if len(self.out) >= 1024:
                await self.flush_stdout()

    def count_arrays(self) -> None:
        """Count the elements of the program's arrays against the command's memory limit
        (ELEMENT_COST each, what they hold beside big strings, which are checked as they are
        made): growing arrays end with awk's ``memory limit exceeded``."""
        meter = memory.meter()
        if meter is None or not self.arrays:
            return
        cost = sum(map(len, self.arrays)) * ELEMENT_COST
        if cost > self.arrays_cost:
            meter.charge(cost - self.arrays_cost)
        else:
            meter.release(self.arrays_cost - cost)
        self.arrays_cost = cost

    def undefined_function(self, name: str, *args) -> None:
        raise AwkFatal(f"function `{name}' not defined")

    def enter_function(self) -> None:
        self.depth += 1
        if self.depth > 1000:
            raise AwkFatal("function call nesting too deep")

    def leave_function(self) -> None:
        self.depth -= 1

    # ---------------------------------------------------------------- output
    def write(self, text: str) -> None:
        self.out.append(text)

    def warn(self, message: str) -> None:
        self.warnings.append(f"{self.ctx.name}: cmd. line:1: warning: {message}\n")

    async def flush_stdout(self) -> None:
        if self.warnings:
            await self.flush_out()
            text = "".join(self.warnings)
            self.warnings.clear()
            await self.ctx.stderr.write(text.encode("utf-8", "surrogateescape"))  # our own words
        await self.flush_out()

    async def flush_out(self) -> None:
        if self.out:
            data = self.codec.encode("".join(self.out))
            self.out.clear()
            await self.ctx.stdout.write(data)

    async def redirect(self, op: str, dest: str, text: str) -> None:
        target = self.files.get(dest)
        if target is None:
            if op == "|":
                await self.flush_stdout()  # gawk flushes stdout before starting the command
                target = ["pipe", self.start_output_command(dest)]
            elif dest in ("/dev/stdout", "-"):
                target = ["stdout", None]
            elif dest == "/dev/stderr":
                target = ["stderr", None]
            else:
                try:
                    handle = self.ctx.fs.open(self.codec.unarg(dest), "ab" if op == ">>" else "wb",
                                              cwd=self.ctx.cwd)
                except FSError as e:
                    raise AwkFatal(f"can't redirect to `{dest}' ({e.strerror})")
                target = ["file", handle]
            self.files[dest] = target
        kind, obj = target
        if kind == "stdout":
            self.write(text)
        elif kind == "stderr":
            await self.flush_stdout()
            await self.ctx.stderr.write(self.codec.encode(text))
        elif kind == "pipe":
            obj.pending.append(text)
            obj.size += len(text)
            if obj.size >= PIPE_BUFFER:
                await self.feed(dest, obj)
        else:
            obj.write(self.codec.encode(text))

    def start_output_command(self, cmd: str) -> "ChildCommand":
        pipe = Pipe()
        child = ChildCommand(pipe)
        child.task = self.spawn(cmd, child, stdin=pipe.reader)
        return child

    def spawn(self, cmd: str, child: "ChildCommand", stdin=None, stdout=None) -> asyncio.Task:
        """Run ``sh -c cmd`` beside awk (a pipe end in ``stdin`` or ``stdout``)."""
        async def run() -> int:
            try:
                return await self.ctx.run(["sh", "-c", self.codec.unarg(cmd)], stdin=stdin, stdout=stdout)
            except BrokenPipeError:
                return 141
            finally:  # the command's end of the pipe: awk then sees EOF or EPIPE
                (stdout or stdin).close()
        task = asyncio.ensure_future(run())
        self.children = [t for t in self.children if not t.done()]  # a loop may open many
        self.children.append(task)
        return task

    async def feed(self, cmd: str, child: "ChildCommand") -> None:
        """Pass what ``print | cmd`` buffered to the command (gawk block-buffers pipes too)."""
        data = self.codec.encode("".join(child.pending))
        child.pending.clear()
        child.size = 0
        try:
            await child.pipe.writer.write(data)
        except BrokenPipeError:
            raise AwkFatal(f'print to "{cmd}" failed: Broken pipe')

    async def close(self, name: str, flush: bool = True) -> float:
        status = -1.0
        target = self.files.pop(name, None)
        if target is not None:
            status = 0.0
            kind, obj = target
            if kind == "file":
                obj.close()
            elif kind == "pipe":
                if flush:
                    await self.flush_stdout()
                if obj.pending:
                    await self.feed(name, obj)
                obj.pipe.writer.close()
                status = float(await obj.task)
        reader = self.readers.pop(name, None)
        if reader is not None:
            status = 0.0
            if reader.child is not None:
                reader.child.pipe.reader.close()  # a command still writing gets SIGPIPE
                status = float(await reader.child.task)
        return status

    async def close_all(self) -> None:
        """At exit, as gawk: the most recently opened first, stdout left for afterwards."""
        for name in reversed(list(self.files)):
            await self.close(name, flush=False)
        for name in list(self.readers):
            await self.close(name)

    def kill_children(self) -> None:
        """Stop the commands still running (awk ends on an error or is interrupted)."""
        for task in self.children:
            if not task.done():
                task.cancel()
                task.add_done_callback(_retrieve)

    async def flush_pipes(self) -> None:
        for name, (kind, obj) in list(self.files.items()):
            if kind == "pipe" and obj.pending:
                await self.feed(name, obj)

    async def fflush(self) -> float:
        await self.flush_stdout()
        await self.flush_pipes()
        return 0.0

    async def system(self, cmd: str) -> float:
        await self.flush_stdout()
        await self.flush_pipes()
        return float(await self.ctx.run(["sh", "-c", self.codec.unarg(cmd)]))

    # ---------------------------------------------------------------- fields
    def set_record(self, text: str) -> None:
        self.fields = [text]
        self.split_done = False

    def getNF(self) -> float:
        if not self.split_done:
            self.ensure_split()
        return self.NF

    def fstr(self, i: int) -> str:
        """Field i as a string (CONVFMT for a number assigned to it)."""
        if not self.split_done:
            self.ensure_split()
        f = self.fields
        if i < len(f):
            v = f[i]
            return v if v.__class__ is not float else tostr(v)
        return ""

    def fout(self, i: int) -> str:
        """Field i as print writes it."""
        if not self.split_done:
            self.ensure_split()
        f = self.fields
        if i < len(f):
            v = f[i]
            return v if v.__class__ is not float else outstr(v)
        return ""

    def text0(self) -> str:
        """$0 where only its text matters (a string: the record, or what was assigned)."""
        return self.fields[0]

    def field0(self):
        v = self.fields[0]
        if v.__class__ is str:
            return v if self.fields is self.str_fields else StrNum(v)
        return v

    def ensure_split(self) -> None:
        if self.split_done:
            return
        self.split_done = True
        limit = self.split_limit
        if self.FS == " " and self.RS != "":
            parts = self.fields[0].split() if limit is None else self.fields[0].split(None, limit)[:limit]
        else:
            parts = self.split_text(self.fields[0])
        self.fields.extend(parts)
        self.NF = float(len(parts))

    def field(self, i: int):
        if not self.split_done:
            self.ensure_split()
        f = self.fields
        if i < len(f):
            v = f[i]
            if v.__class__ is str:
                return StrNum(v)
            return str(v) if v.__class__ is FieldStr else v
        return NO_FIELD

    def fnum(self, i: int) -> float:
        """The numeric value of field i (no string object made for it)."""
        if self.columns:  # in the main loop, whose record is pending[pending_pos - 1]
            col = self.numcols.get(i)
            if col is None and i not in self.numcols:
                col = self.numeric_column(i)
            if col is not None:
                return col[self.pending_pos - 1]
        if not self.split_done:
            if self.FS == " " and self.RS != "" and self.split_limit is None:
                self.split_done = True
                f = self.fields
                parts = f[0].split()
                f.extend(parts)
                self.NF = float(len(parts))
            else:
                self.ensure_split()
        f = self.fields
        if i < len(f):
            v = f[i]
            if v.__class__ is str and v.isascii() and v.isdigit():
                try:
                    return float(v)
                except ValueError:
                    pass
            return num(v)
        return 0.0

    def numeric_column(self, i: int) -> list[float] | None:
        """num($i) of every pending record, from one regex scan of their text (None when the
        record separator, FS or the text does not allow it: the record is then split)."""
        col = None
        block = self.pending_block
        if block is not None and self.RS == "\n" and 0 < i <= 32:
            rx = _column_regex(self.FS, i)
            if rx is not None and not _odd_blanks(block, self.FS == " "):
                found = rx.findall("\n" + block)
                if len(found) == len(self.pending):
                    col = [float(x) if x else 0.0 for x in found] if "" in found else list(map(float, found))
        self.numcols[i] = col
        if self.ns is not None:
            self.ns[f"_C{i}"] = col
        return col

    def split_text(self, text: str, fs=None) -> list[str]:
        """Fields of ``text`` by FS (or ``fs``): " " splits on blanks and newlines, any other
        single character literally, "" into characters, anything longer is a regex. In
        paragraph mode (RS = "") a newline also separates fields."""
        fs = self.FS if fs is None else fs
        if isinstance(fs, str):
            if fs == " ":
                return text.split()
            if text == "":
                return []
            if self.RS == "" and len(fs) == 1 and fs != "\n" and "\n" in text:  # not a regex or ""
                out = []
                for line in text.split("\n"):
                    out.extend(self._split_one(line, fs))
                return out
            return self._split_one(text, fs)
        if text == "":
            return []
        return _regex_split(fs, text)

    def _split_one(self, text: str, fs: str) -> list[str]:
        if text == "":
            return []
        if len(fs) == 1:
            return text.split(fs)
        if fs == "":
            return list(text)
        return _regex_split(self.fs_regex(fs), text)

    def fs_regex(self, fs: str):
        if self.fs_cache is not None and self.fs_cache[0] == fs:
            return self.fs_cache[1]
        rx = dynrx(fs)
        self.fs_cache = (fs, rx)
        return rx

    def rebuild(self) -> None:
        f = self.fields
        f[0] = self.OFS.join([tostr(x) for x in f[1:]])
        self.str_fields = f  # a record rebuilt is a string, not input

    def setfield(self, i: int, value):
        if i == 0:
            self.set_record(tostr(value))
            if value.__class__ is str:  # a string stays one; a strnum or a number not
                self.str_fields = self.fields
            return value
        self.ensure_split()
        f = self.fields
        while len(f) <= i:
            f.append("")
        f[i] = FieldStr(value) if value.__class__ is str else value
        self.NF = float(len(f) - 1)
        self.rebuild()
        return value

    def setvar(self, name: str, value):
        if name == "NF":
            self.ensure_split()
            n = int(num(value))
            if n < 0:
                raise AwkFatal("NF set to negative value")
            f = self.fields
            del f[n + 1:]
            while len(f) <= n:
                f.append("")
            self.NF = float(n)
            self.rebuild()
            return value
        if name in ("NR", "FNR", "RSTART", "RLENGTH", "ARGC"):
            setattr(self, name, num(value))
            return value
        if name == "RT":
            self.set_rt(tostr(value))
            return value
        if name == "RS":
            self.unread_pending()
        elif name == "FS" and not self.split_done:
            self.ensure_split()  # the record read before keeps the fields of the FS it had
        setattr(self, name, tostr(value))
        return value

    def unread_pending(self) -> None:
        """RS changes: records split with the old RS but not yet read go back to the reader."""
        rest = self.pending[self.pending_pos:]
        if rest and self.main_iter is not None:
            self.main_iter.unread(self.pending_rs.join(rest) + self.pending_last_rt)
        self.pending = []
        self.pending_pos = 0

    def getRT(self) -> str:
        """RT: what ended the current record (gawk). A batch's records all end with its RS
        but the last, which may end the input without one."""
        mark = self.rt_mark
        if mark is not None and mark[0] is self.pending and mark[1] == self.pending_pos:
            return self.rt_value
        if self.pending_pos >= len(self.pending):
            return self.pending_last_rt
        return self.pending_rs

    def set_rt(self, value: str) -> None:
        """RT of a record read some other way than by the main loop (getline var, < file)."""
        self.rt_mark = (self.pending, self.pending_pos)
        self.rt_value = value

    def split(self, text: str, arr: dict, sep) -> float:
        arr.clear()
        if len(text) > 4096 and isinstance(sep, str) and len(sep) <= 1:  # the pieces: one allocation
            pieces = len(text) if sep == "" else text.count(sep) if sep != " " else (
                text.count(" ") + text.count("\t") + text.count("\n"))
            memory.need(pieces * ELEMENT_COST + len(text))
        if sep is None:  # FS, but not paragraph mode's newlines: those are the record's
            sep = self.FS
        if isinstance(sep, str):
            if sep == " ":
                parts = text.split()
            elif text == "":
                parts = []
            elif len(sep) == 1:
                parts = text.split(sep)
            elif sep == "":
                parts = list(text)
            else:
                parts = _regex_split(dynrx(sep), text)
        else:
            parts = [] if text == "" else _regex_split(sep, text)
        if len(parts) > 4096:
            memory.need(len(parts) * ELEMENT_COST + len(text))
        for i, p in enumerate(parts, 1):
            arr[str(i)] = StrNum(p)
        return float(len(parts))

    def match(self, text: str, rx, groups: dict | None = None) -> float:
        m = rx.search(text)
        if groups is not None:
            groups.clear()
        if m is None:
            self.RSTART = 0.0
            self.RLENGTH = -1.0
            return 0.0
        self.RSTART = float(m.start() + 1)
        self.RLENGTH = float(m.end() - m.start())
        if groups is not None:
            # gawk's third argument: each group that took part, its text, start and length
            sep = self.SUBSEP
            for i in range(rx.groups + 1):
                start = m.start(i)
                if start < 0:
                    continue
                groups[str(i)] = StrNum(m.group(i))
                groups[f"{i}{sep}start"] = float(start + 1)
                groups[f"{i}{sep}length"] = float(m.end(i) - start)
        return self.RSTART

    def in_range(self, idx: int, start, end) -> bool:
        if self.ranges.get(idx):
            if end():
                self.ranges[idx] = False
            return True
        if start():
            self.ranges[idx] = not end()
            return True
        return False

    # ---------------------------------------------------------------- time (gawk)
    def strftime(self, fmt, stamp, utc: bool) -> str:
        if fmt is None:
            fmt = "%a %b %e %H:%M:%S %Z %Y"
        when = time.time() if stamp is None else stamp
        try:
            moment = datetime.fromtimestamp(int(when), timezone.utc if utc else local_zone(self.ctx.env))
            return moment.strftime(fmt)
        except (OverflowError, OSError, ValueError):
            return ""

    def mktime(self, spec: str) -> float:
        parts = spec.split()
        if len(parts) < 6:
            return -1.0
        try:
            year, month, day, hour, minute, second = (int(p) for p in parts[:6])
            year += (month - 1) // 12
            month = (month - 1) % 12 + 1
            base = datetime(year, month, 1, tzinfo=local_zone(self.ctx.env))
            moment = base + timedelta(days=day - 1, hours=hour, minutes=minute, seconds=second)
            return float(int(moment.timestamp()))
        except (ValueError, OverflowError):
            return -1.0

    def forin(self, arr: dict) -> list[str]:
        """The keys of ``arr`` in the order gawk's for-in visits them."""
        return forin_order(list(arr), self.codec.encode)

    # ---------------------------------------------------------------- random
    def rand(self) -> float:
        if self.rng is None:
            self.rng = GawkRandom(self.seed)
        return self.rng.rand()

    def srand(self, seed) -> float:
        prev = self.seed
        self.seed = int(time.time()) if seed is None else seed_of(seed)
        if self.rng is None:
            self.rng = GawkRandom(self.seed)
        else:
            self.rng.seed(self.seed)
        return float(prev)

    # ---------------------------------------------------------------- input
    async def fill_pending(self) -> bool:
        """Read the next batch of main-input records (ARGV operands, or stdin) into
        ``pending``; False at the end of all input."""
        while True:
            if self.main_iter is None:
                if not await self.open_next_operand():
                    return False
            batch = await self.main_iter.next_batch(self.RS)
            if batch:
                self.pending = batch
                self.pending_pos = 0
                self.pending_block = self.main_iter.block
                self.pending_rs = self.RS
                self.pending_last_rt = self.main_iter.last_rt
                return True
            self.main_iter = None

    async def next_main_record(self):
        if self.pending_pos >= len(self.pending):
            if not await self.fill_pending():
                return None
        rec = self.pending[self.pending_pos]
        self.pending_pos += 1
        return rec

    async def open_next_operand(self) -> bool:
        ctx = self.ctx
        while self.arg_index < int(self.ARGC):
            arg = self.ARGV.get(numkey(float(self.arg_index)), "")
            self.arg_index += 1
            arg = tostr(arg)
            if arg == "":
                continue
            if re.match(r"[A-Za-z_][A-Za-z0-9_]*=", arg):
                self.assign_hook(self.codec.unarg(arg))  # ARGV holds locale text already
                continue
            self.used_file_operand = True
            path = self.codec.unarg(arg)
            try:
                if arg != "-" and ctx.fs.is_dir(path, cwd=ctx.cwd):
                    await self.flush_stdout()
                    await ctx.error(f"warning: command line argument `{path}' is a directory: skipped")
                    continue
                stream = ctx.open_input(path)
            except FSError as e:
                await self.flush_stdout()
                await ctx.error(f"fatal: cannot open file `{path}' for reading: {e.strerror}")
                raise AwkExit(2.0)
            self.FILENAME = arg
            self.FNR = 0.0
            self.main_iter = RecordReader(stream, self.codec)
            return True
        if not self.used_file_operand:
            self.used_file_operand = True
            self.FILENAME = "-"  # as gawk names standard input
            self.FNR = 0.0
            self.main_iter = RecordReader(ctx.stdin, self.codec)
            return True
        return False

    def nextfile(self) -> None:
        self.main_iter = None
        self.pending = []
        self.pending_pos = 0

    async def getline_main(self, to_var: bool) -> float:
        rec = await self.next_main_record()
        if rec is None:
            return 0.0
        self.NR += 1
        self.FNR += 1
        if to_var:
            self.gl_value = StrNum(rec)
        else:
            self.set_record(rec)
        return 1.0

    async def getline_file(self, name: str, to_var: bool) -> float:
        reader = self.readers.get(name)
        if reader is None:
            try:
                stream = (self.ctx.stdin if name in ("-", "/dev/stdin")
                          else self.ctx.open_input(self.codec.unarg(name)))
            except FSError:
                return -1.0
            reader = RecordReader(stream, self.codec)
            self.readers[name] = reader
        rec = await reader.next_record(self.RS)
        if rec is None:
            return 0.0
        self.set_rt(reader.rt)
        if to_var:
            self.gl_value = StrNum(rec)
        else:
            self.set_record(rec)  # POSIX: getline < file sets $0 and NF, not NR
        return 1.0

    async def getline_cmd(self, cmd: str, to_var: bool) -> float:
        reader = self.readers.get(cmd)
        if reader is None:
            # streams: the first line is here while the command still runs
            pipe = Pipe()
            child = ChildCommand(pipe)
            child.task = self.spawn(cmd, child, stdout=pipe.writer)
            reader = RecordReader(pipe.reader, self.codec)
            reader.child = child
            self.readers[cmd] = reader
        rec = await reader.next_record(self.RS)
        if rec is None:
            return 0.0
        self.set_rt(reader.rt)
        if to_var:  # gawk 5.2 leaves NR alone here, whatever POSIX says
            self.gl_value = StrNum(rec)
        else:
            self.set_record(rec)
        return 1.0


class ChildCommand:
    """A command awk runs with a pipe to (``print | cmd``) or from (``cmd | getline``) it."""
    __slots__ = ("pipe", "task", "pending", "size")

    def __init__(self, pipe: Pipe) -> None:
        self.pipe = pipe
        self.task: asyncio.Task | None = None
        self.pending: list[str] = []  # print | cmd text not yet passed on
        self.size = 0


def _retrieve(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()  # consumed: a killed command's error is of no interest


class RecordReader:
    """Splits an input stream into records by RS: newline, one character, "" (paragraphs),
    or a regex. ``rt`` (``last_rt`` for a batch) is what ended the last record read (gawk's
    RT): the separator, or "" at the end of the input."""

    def __init__(self, stream, codec: TextCodec) -> None:
        self.stream = stream
        self.child: ChildCommand | None = None  # the command writing to stream, if any
        self.buf = ""
        #: with a regex RS: buf[:pos] was read already (its last character is the context of
        #: the next match: ^ matches only at the start of the input, \< sees what precedes)
        self.pos = 0
        self.started = False  # a record was read: ^ no longer matches
        self.eof = False
        # decodes across chunk boundaries, so a UTF-8 character split between reads survives
        self.decoder = codecs.getincrementaldecoder(codec.encoding)(codec.errors)
        #: the text the last batch was split from (RS one character), else None
        self.block: str | None = None
        self.rt = ""
        self.last_rt = ""

    def unread(self, text: str) -> None:
        """Records split but not used go back in front of what is still to read."""
        self.buf = text + self.buf[self.pos:]
        self.pos = 0

    def _compact(self) -> None:
        if self.pos:
            self.buf = self.buf[self.pos:]
            self.pos = 0

    async def next_batch(self, rs: str) -> list[str] | None:
        """All complete records buffered (at least one) when RS is one character; one record
        otherwise (a regex RS or paragraph mode must see what follows)."""
        self.block = None
        if len(rs) != 1:
            rec = await self.next_record(rs)
            self.last_rt = self.rt
            return None if rec is None else [rec]
        if self.pos:
            self._compact()
        self.started = True
        while True:
            i = self.buf.rfind(rs)
            if i >= 0:
                self.block = block = self.buf[:i]
                recs = block.split(rs)
                self.buf = self.buf[i + 1:]
                self.last_rt = rs
                return recs
            # gather chunks until one holds a separator: linear even for very long records
            pieces = [self.buf]
            size = len(self.buf)
            while True:
                text = await self._read()
                if text is None:
                    self.buf = ""
                    rec = "".join(pieces)
                    self.block = rec
                    self.last_rt = ""
                    return [rec] if rec else None
                pieces.append(text)
                size += len(text)
                if rs in text:
                    break
                if size > MAX_LINE:
                    raise LineTooLong()
            self.buf = "".join(pieces)

    async def _read(self) -> str | None:
        """The next decoded text, or None at end of input."""
        while not self.eof:
            chunk = await self.stream.read_some()
            if not chunk:
                self.eof = True
                rest = self.decoder.decode(b"", final=True)
                return rest or None
            text = self.decoder.decode(chunk)
            if text:
                return text
        return None

    async def _more(self) -> bool:
        text = await self._read()
        if text is None:
            return False
        if self.pos > 1:  # keep one character read before: the context of the next match
            self.buf = self.buf[self.pos - 1:]
            self.pos = 1
        self.buf += text
        if len(self.buf) - self.pos > MAX_LINE:
            raise LineTooLong()
        return True

    async def next_record(self, rs: str):
        if len(rs) > 1:
            return await self._next_by_regex(rs)
        if self.pos:
            self._compact()
        self.started = True
        if rs == "":
            while True:
                stripped = self.buf.lstrip("\n")
                self.buf = stripped
                m = re.search(r"\n\n+", self.buf)
                if m and (m.end() < len(self.buf) or self.eof):
                    rec = self.buf[:m.start()]
                    self.rt = m.group()
                    self.buf = self.buf[m.end():]
                    return rec
                if not await self._more():
                    if not self.buf:
                        return None
                    rec = self.buf.rstrip("\n")
                    self.rt = self.buf[len(rec):]
                    self.buf = ""
                    return rec
        while True:
            i = self.buf.find(rs)
            if i >= 0:
                rec = self.buf[:i]
                self.buf = self.buf[i + 1:]
                self.rt = rs
                return rec
            if not await self._more():
                if not self.buf:
                    return None
                rec, self.buf = self.buf, ""
                self.rt = ""
                return rec

    async def _next_by_regex(self, rs: str):
        rx = dynrx(rs)
        if self.started and self.pos == 0:
            self.buf = "\n" + self.buf  # not the start of the input: ^ cannot match here
            self.pos = 1
        self.started = True
        while True:
            m = rx.search(self.buf, self.pos)
            if m and m.end() > m.start() and (m.end() < len(self.buf) or self.eof):
                return self._take(m)
            if not await self._more():
                if self.pos >= len(self.buf):
                    return None
                m = rx.search(self.buf, self.pos)
                if m and m.end() > m.start():
                    return self._take(m)
                rec = self.buf[self.pos:]
                self.buf, self.pos, self.rt = "", 0, ""
                return rec

    def _take(self, m) -> str:
        rec = self.buf[self.pos:m.start()]
        self.rt = m.group()
        self.pos = m.end()
        return rec


def _regex_split(rx, text: str) -> list[str]:
    out = []
    pos = 0
    for m in rx.finditer_nonoverlapping(text):
        if m.end() == m.start():
            continue
        out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return out


# ------------------------------------------------------------------------- gawk extensions
def _sort_key(v):
    """gawk's asort order: numbers (numerically) before strings (by text)."""
    if v.__class__ is float or (isinstance(v, StrNum) and v != "" and looks_numeric(v)):
        return (0, num(v), "")
    return (1, 0.0, tostr(v))


def asort_(src: dict, dest: dict | None) -> float:
    values = sorted(src.values(), key=_sort_key)
    target = src if dest is None else dest
    target.clear()
    for i, v in enumerate(values, 1):
        target[str(i)] = v
    return float(len(values))


def asorti_(src: dict, dest: dict | None) -> float:
    keys = sorted(src)
    target = src if dest is None else dest
    target.clear()
    for i, k in enumerate(keys, 1):
        target[str(i)] = StrNum(k)
    return float(len(keys))


def strtonum(v) -> float:
    if v.__class__ is float:
        return v
    text = v.strip()
    m = re.match(r"[-+]?0[xX]([0-9a-fA-F]+)", text)
    if m:
        return float(int(m.group(1), 16)) * (-1 if text.startswith("-") else 1)
    m = re.match(r"[-+]?0([0-7]+)(?![0-9.eE])", text)
    if m:
        return float(int(m.group(1), 8)) * (-1 if text.startswith("-") else 1)
    return num(v)


_BITS = (1 << 53) - 1


def _bit_operand(v: float) -> int:
    if v < 0:
        raise AwkFatal("negative values are not allowed in bit operations")
    return int(v)


def bits_and(values: list) -> float:
    out = _bit_operand(values[0])
    for v in values[1:]:
        out &= _bit_operand(v)
    return float(out)


def bits_or(values: list) -> float:
    out = 0
    for v in values:
        out |= _bit_operand(v)
    return float(out)


def bits_xor(values: list) -> float:
    out = 0
    for v in values:
        out ^= _bit_operand(v)
    return float(out)


def bits_lshift(v: float, n: float) -> float:
    return float((_bit_operand(v) << _bit_operand(n)) & ((1 << 64) - 1))


def bits_rshift(v: float, n: float) -> float:
    return float(_bit_operand(v) >> _bit_operand(n))


def bits_compl(v: float) -> float:
    return float(~_bit_operand(v) & _BITS)


# ------------------------------------------------------------------------- conversions
_runtime: Runtime | None = None


def numkey(v: float) -> str:
    if v == int(v) if not (math.isinf(v) or math.isnan(v)) else False:
        return "%d" % v
    return format_number(v, _runtime.CONVFMT)


def tostr(v) -> str:
    if v.__class__ is float:
        if v.is_integer():
            return "%d" % v
        return format_number(v, _runtime.CONVFMT)
    return v


def outstr(v) -> str:
    if v.__class__ is float:
        if v.is_integer():
            return "%d" % v
        return format_number(v, _runtime.OFMT)
    return v


_NEG_NAN = -math.nan if math.copysign(1, -math.nan) < 0 else math.copysign(math.nan, -1)


def truth(v) -> bool:
    if v.__class__ is float:
        return v != 0.0
    if v.__class__ is str:
        return v != ""
    if v.__class__ is Uninit:
        return False
    if v.__class__ is not ForKey and looks_numeric(v):
        return num(v) != 0.0
    return v != ""


def copyval(v):
    return v


def compare(a, b, op: str) -> bool:
    a_num = a.__class__ is float or (isinstance(a, StrNum) and looks_numeric(a))
    b_num = b.__class__ is float or (isinstance(b, StrNum) and looks_numeric(b))
    if a_num and b_num:
        x, y = num(a), num(b)
    else:
        x, y = tostr(a), tostr(b)
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == "==":
        return x == y
    if op == "!=":
        return x != y
    if op == ">":
        return x > y
    return x >= y


# ------------------------------------------------------------------------- dynamic variables
class Ref:
    """An untyped global passed to a parameter whose kind is known only at run time: the
    parameter's first use types the global (an array made there is the global's)."""
    __slots__ = ("ns", "key", "name")

    def __init__(self, ns: dict, key: str, name: str) -> None:
        self.ns = ns
        self.key = key
        self.name = name

    def scalar(self, name: str):
        """The parameter's value as a scalar: what the global held when passed (nothing)."""
        v = self.ns[self.key]
        if v.__class__ is dict:
            array_in_scalar(name)
        if v is UNINIT:
            self.ns[self.key] = SCALAR_UNINIT
        return SCALAR_UNINIT

    def array(self, name: str) -> dict:
        v = self.ns[self.key]
        if v.__class__ is dict:
            return v
        if v is not UNINIT:
            scalar_as_array(name, True)
        self.ns[self.key] = v = {}
        _runtime.arrays.append(v)  # a global array: counted against the memory limit
        return v


def array_in_scalar(name: str):
    raise AwkFatal(f"attempt to use array `{name}' in a scalar context")


def scalar_as_array(name: str, param: bool = False):
    raise AwkFatal(f"attempt to use scalar {'parameter ' if param else ''}`{name}' as an array")


def sread(v, name: str):
    """A dynamic parameter read as a scalar (the value to keep in it)."""
    c = v.__class__
    if c is dict:
        array_in_scalar(name)
    if c is Ref:
        return v.scalar(name)
    return SCALAR_UNINIT if v is UNINIT else v


def swrite(old, value, name: str):
    """A dynamic parameter given a scalar value (the value to keep in it)."""
    c = old.__class__
    if c is dict:
        array_in_scalar(name)
    if c is Ref:
        old.scalar(name)
    return SCALAR_UNINIT if value is UNINIT else value


def aref(v, name: str) -> dict:
    """A dynamic parameter used as an array (not holding one yet)."""
    if v.__class__ is Ref:
        return v.array(name)
    if v is UNINIT:
        return {}
    scalar_as_array(name, True)


def sread_g(ns: dict, key: str, name: str):
    v = ns[key]
    if v.__class__ is dict:
        array_in_scalar(name)
    if v is UNINIT:
        ns[key] = v = SCALAR_UNINIT
    return v


def swrite_g(ns: dict, key: str, value, name: str):
    if ns[key].__class__ is dict:
        array_in_scalar(name)
    ns[key] = SCALAR_UNINIT if value is UNINIT else value
    return value


def aref_g(ns: dict, key: str, name: str) -> dict:
    v = ns[key]
    if v.__class__ is dict:
        return v
    if v is not UNINIT:
        scalar_as_array(name)
    ns[key] = v = {}
    _runtime.arrays.append(v)  # a global array: counted against the memory limit
    return v


def pass_g(ns: dict, key: str, name: str):
    """A dynamic global passed bare to a parameter: its value, its array, or (untyped) a Ref."""
    v = ns[key]
    return Ref(ns, key, name) if v is UNINIT else v


def dlen(v, name: str) -> float:
    """length(x) of a name that may hold either kind (an untyped global becomes a scalar)."""
    if v.__class__ is Ref:
        if v.ns[v.key].__class__ is dict:
            return float(len(v.ns[v.key]))
        v = v.scalar(name)
    if v.__class__ is dict:
        return float(len(v))
    return float(len(tostr(v)))


def scalar_if_untyped(v):
    return SCALAR_UNINIT if v is UNINIT else v


def dlen_g(ns: dict, key: str, name: str) -> float:
    v = ns[key]
    if v.__class__ is dict:
        return float(len(v))
    if v is UNINIT:
        ns[key] = SCALAR_UNINIT
        return 0.0
    return float(len(tostr(v)))


def getitem(arr: dict, key: str):
    v = arr.get(key)
    if v is None:
        arr[key] = v = UNINIT
    return v


def incitem(arr: dict, key: str, delta: float, pre: bool) -> float:
    """arr[key]++ and friends: the old value (post) or the new one (pre)."""
    v = arr.get(key)
    old = 0.0 if v is None else (v if v.__class__ is float else num(v))
    arr[key] = new = old + delta
    return new if pre else old


def setitem(arr: dict, key: str, value):
    arr[key] = value
    return value


def fieldindex(v: float) -> int:
    if v < 0:
        raise AwkFatal(f"attempt to access field {int(v)}")
    return int(v)


def div(a: float, b: float) -> float:
    if b == 0:
        raise AwkFatal("division by zero attempted")
    return a / b


def mod(a: float, b: float) -> float:
    if b == 0:
        raise AwkFatal("division by zero attempted in `%'")
    return math.fmod(a, b)


def power(a: float, b: float) -> float:
    """gawk's calc_exp: an integer exponent by repeated squaring (its rounding, not pow's:
    7^100 prints gawk's digits), any other by pow."""
    if b.is_integer() and abs(b) < 2 ** 63:
        n = int(b)
        if n == 2:
            return a * a
        if n == 0:
            return 1.0
        x, m, k = a, 1.0, abs(n)
        while k > 1:
            if k % 2 == 1:
                m *= x
            x *= x
            k //= 2
        r = m * x
        if n > 0:
            return r
        return 1.0 / r if r != 0 else math.copysign(math.inf, r) if not math.isnan(r) else r
    try:
        if a < 0 and math.isfinite(b) and not b.is_integer():
            return _NEG_NAN  # C's pow
        return float(a ** b)
    except OverflowError:
        return math.inf
    except ZeroDivisionError:
        return math.inf


def trunc(v: float) -> float:
    if math.isinf(v) or math.isnan(v):
        return v
    return float(int(v))


def math_sqrt(v):
    if v < 0:
        _runtime.warn(f"sqrt: received negative argument {tostr(v)}")
        return _NEG_NAN
    return math.sqrt(v)


def math_exp(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def math_log(v):
    if v < 0:
        _runtime.warn(f"log: received negative argument {tostr(v)}")
        return _NEG_NAN
    if v == 0:
        return -math.inf
    return math.log(v)


def math_sin(v):
    return math.sin(v)


def math_cos(v):
    return math.cos(v)


def substr(s: str, start: float, length) -> str:
    # gawk: start and length truncate to integers; a start before 1 counts from 1
    if math.isnan(start) or math.isinf(start):
        return ""
    first = max(int(start), 1)
    if length is None:
        return s[first - 1:]
    if math.isnan(length) or length <= 0:
        return ""
    n = len(s) if math.isinf(length) else int(length)
    return s[first - 1:first - 1 + n]


_rx_cache: dict[tuple[str, bool], PosixRegex] = {}


def _warn_once(message: str) -> None:
    if message not in _runtime.said:
        _runtime.said.add(message)
        _runtime.warn(message)


def dynrx(source: str):
    bytes_mode = _runtime.codec.bytes_mode
    key = (source, bytes_mode)
    rx = _rx_cache.get(key)
    if rx is None:
        try:
            rx = compile_posix(regex_source(source, bytes_mode, _warn_once), extended=True, awk=True, ascii=bytes_mode,
                               bounds=_runtime.bounds)
        except RegexError as e:
            raise AwkFatal(f"invalid regexp /{source}/: {e}") from None
        if len(_rx_cache) > 500:
            _rx_cache.clear()
        _rx_cache[key] = rx
    elif rx.bounds is not _runtime.bounds:  # cached by an earlier run
        rx.bind(_runtime.bounds)
    return rx


def rxmatch(subject: str, source: str) -> bool:
    """``subject ~ source`` for a dynamic regex, the subject evaluated first."""
    return dynrx(source).search(subject) is not None


def substitute(rx, repl: str, target: str, global_: bool) -> tuple[str, float]:
    """sub/gsub: (new text, number of replacements). '&' is the match, '\\&' a literal &."""
    out = []
    pos = 0
    count = 0
    for m in rx.finditer_nonoverlapping(target):
        out.append(target[pos:m.start()])
        out.append(_expand_amp(repl, m.group(0)))
        pos = m.end()
        count += 1
        if not global_:
            break
    if not count:
        return target, 0.0
    out.append(target[pos:])
    return joined(out), float(count)


joined = memory.joined


def cat(a: str, b: str) -> str:
    """``a b``: concatenation, refused before it is made when it would not fit (memory.room)."""
    if len(a) + len(b) > memory.BIG:
        memory.room(len(a) + len(b))
    return a + b


def cats(parts: tuple) -> str:
    """``a b c ...``"""
    memory.room(sum(map(len, parts)))
    return "".join(parts)


def _expand_amp(repl: str, matched: str) -> str:
    """sub/gsub's replacement, by gawk's rules (not POSIX's): ``&`` is the match, ``\\&`` a
    literal ``&``, ``\\\\&`` a backslash and the match, ``\\\\\\&`` a literal ``\\&``; any
    other backslash stays as it is (``\\q`` is ``\\q``, ``\\\\`` two backslashes) but four
    backslashes are two (gawk's 2016 fix)."""
    if "&" not in repl and "\\\\\\\\" not in repl:
        return repl
    out = []
    i = 0
    n = len(repl)
    while i < n:
        c = repl[i]
        if c == "\\":
            if repl.startswith("\\\\\\&", i) or repl.startswith("\\\\\\\\", i):
                out.append(repl[i + 2:i + 4])  # \\\& is \&, \\\\ is \\
                i += 4
            elif repl.startswith("\\\\&", i):
                out.append("\\")
                out.append(matched)
                i += 3
            elif repl.startswith("\\&", i):
                out.append("&")
                i += 2
            else:
                out.append(c)
                i += 1
            continue
        out.append(matched if c == "&" else c)
        i += 1
    return "".join(out)


def gensub(rx, repl: str, how, target: str) -> str:
    how_s = tostr(how)
    global_ = how_s[:1] in ("g", "G")
    which = 1 if global_ else max(1, int(num(how)) if how.__class__ is float or isdigits(how_s[:1]) else 1)
    out = []
    pos = 0
    count = 0
    for m in rx.finditer_nonoverlapping(target):
        count += 1
        if not global_ and count != which:
            continue
        out.append(target[pos:m.start()])
        i = 0
        piece = []
        while i < len(repl):
            c = repl[i]
            if c == "\\" and i + 1 < len(repl):
                d = repl[i + 1]
                if isdigits(d):
                    piece.append(m.group(int(d)) or "" if int(d) <= rx.groups else "")
                else:
                    piece.append(d)
                i += 2
                continue
            piece.append(m.group(0) if c == "&" else c)
            i += 1
        out.append("".join(piece))
        pos = m.end()
        if not global_:
            break
    out.append(target[pos:])
    return joined(out)


_FMT = re.compile(r"%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?([a-zA-Z%])")


def sprintf(fmt: str, args: list) -> str:
    out = []
    pos = 0
    ai = 0
    for m in _FMT.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        flags, width, prec, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            w = int(num(args[ai])) if ai < len(args) else 0
            ai += 1
            if w < 0:
                flags += "-"
                w = -w
            width = str(w)
        if prec == "*":
            p = int(num(args[ai])) if ai < len(args) else 0
            ai += 1
            prec = str(p) if p >= 0 else None
        if (width and len(width) > 6) or (prec and len(prec) > 6):  # a million characters and more
            memory.need(int(width or 0) + int(prec or 0))
        if ai >= len(args):
            raise AwkFatal("not enough arguments to satisfy format string\n"
                           f"\t`{fmt}'\n\t{' ' * (m.start() + 1)}^ ran out for this one")
        arg = args[ai]
        ai += 1
        spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
        if conv in "dioxXueEfFgG":
            v = num(arg)
            if math.isinf(v) or math.isnan(v):
                # gawk right-aligns these in the width, and ignores the width with '-'
                out.append(special_text(v) if "-" in flags else special_text(v).rjust(int(width or 0)))
                continue
        if conv in "dioxXu":
            out.append(_format_int(flags, width, prec, conv, v))
        elif conv in "eEfFgG":
            out.append((spec + conv) % v)
        elif conv == "c":
            if arg is None:
                s = ""
            elif arg.__class__ is float or (arg.__class__ is not ForKey and isinstance(arg, StrNum)
                                            and arg != "" and looks_numeric(arg)):
                # a number, or input that looks like one: the character of that code
                out.append(_format_code(flags, width, num(arg), _runtime.codec.bytes_mode))
                continue
            else:
                s = arg[:1] or "\0"  # C's %c of an empty string: its terminating NUL
            out.append(("%" + flags.replace("0", "") + (width or "") + "s") % s)
        elif conv == "s":
            s = tostr(arg) if arg is not None else ""
            out.append((spec + "s") % s)
        else:
            out.append(m.group(0))
            ai -= 1
    out.append(fmt[pos:])
    return "".join(out)


def _format_int(flags: str, width: str | None, prec: str | None, conv: str, v: float) -> str:
    """gawk's integer conversions (format_tree): a precision is the least number of digits
    (no characters for a zero at precision 0) and turns the 0 flag off; o x X u are unsigned
    (no sign, a negative value as its 64-bit two's complement, a value out of that range
    printed with %g); # gives a leading 0 (o) or 0x (x, X, not for zero)."""
    lj = "-" in flags
    have_prec = prec is not None
    p = int(prec or 0)
    fw = int(width or 0)
    iv = int(v)
    alt = "#" in flags
    # no characters for a zero at precision 0: %d's value truncated first, o x X u's as it is
    if have_prec and p == 0 and (iv == 0 if conv in "di" else v == 0 and not alt):
        return " " * fw
    zero_fill = not lj and (("0" in flags and not have_prec) or (fw == 0 and have_prec))
    prefix = ""
    if conv in "di":
        digits = "%d" % abs(iv)
        if iv < 0:
            prefix = "-"
        elif "+" in flags:
            prefix = "+"
        elif " " in flags:
            prefix = " "
    else:
        if iv < 0:
            if iv < -(1 << 63):
                return _out_of_range(flags, width, prec, v)
            iv &= (1 << 64) - 1
        elif iv >= 1 << 64:
            return _out_of_range(flags, width, prec, v)
        digits = "%o" % iv if conv == "o" else "%x" % iv if conv == "x" else "%X" % iv if conv == "X" else "%d" % iv
    if have_prec:
        digits = digits.rjust(p, "0")
    if alt and v != 0:
        if conv in "xX":
            prefix = "0" + conv
        elif conv == "o":
            digits = "0" + digits
    fw = max(fw, p)
    size = len(prefix) + len(digits)
    if size >= fw:
        return prefix + digits
    if lj:
        return prefix + digits + " " * (fw - size)
    if zero_fill:
        return prefix + "0" * (fw - size) + digits
    return " " * (fw - size) + prefix + digits


def _format_code(flags: str, width: str | None, v: float, bytes_mode: bool) -> str:
    """%c of a number, as gawk: in UTF-8 the character of that code (glibc's wcrtomb, which
    writes codes up to 2^31 - 1 in the old 5- and 6-byte forms), else (no character, or the
    C locale) the byte of its low 8 bits; the width counts bytes."""
    iv = int(v) if math.isfinite(v) and abs(v) < 2 ** 64 else 0
    uval = iv & ((1 << 64) - 1)
    wc = uval & 0xFFFFFFFF
    if not bytes_mode and wc < 0x80000000 and not 0xD800 <= wc <= 0xDFFF:
        data = _wide_utf8(wc)
        text = chr(wc) if wc < 0x110000 else data.decode("utf-8", "surrogateescape")
    else:
        data = bytes([uval & 0xFF])
        text = data.decode("latin-1" if bytes_mode else "utf-8", "strict" if bytes_mode else "surrogateescape")
    pad = " " * max(0, int(width or 0) - len(data))
    return text + pad if "-" in flags else pad + text


def _wide_utf8(code: int) -> bytes:
    """UTF-8 as glibc writes it, up to 31 bits (the forms past U+10FFFF RFC 2279 had)."""
    if code < 0x80:
        return bytes([code])
    for n, top in ((2, 0x7FF), (3, 0xFFFF), (4, 0x1FFFFF), (5, 0x3FFFFFF), (6, 0x7FFFFFFF)):
        if code <= top:
            tail = [0x80 | (code >> (6 * i) & 0x3F) for i in range(n - 1)][::-1]
            lead = (0xFF << (8 - n) & 0xFF) | code >> (6 * (n - 1))
            return bytes([lead] + tail)
    return b""


def _out_of_range(flags: str, width: str | None, prec: str | None, v: float) -> str:
    return ("%" + flags + (width or "") + ("." + prec if prec is not None else "") + "g") % v


ONCE = (None,)


def namespace(runtime: Runtime) -> dict:
    global _runtime
    _runtime = runtime
    ns = {
        "R": runtime, "num": num, "tostr": tostr, "outstr": outstr, "truth": truth,
        "compare": compare, "getitem": getitem, "setitem": setitem, "incitem": incitem, "fieldindex": fieldindex,
        "div": div, "mod": mod, "power": power, "trunc": trunc, "math": math,
        "math_sqrt": math_sqrt, "math_exp": math_exp, "math_log": math_log, "math_sin": math_sin,
        "math_cos": math_cos, "substr": substr, "dynrx": dynrx, "rxmatch": rxmatch, "substitute": substitute,
        "gensub": gensub, "sprintf": sprintf, "cat": cat, "cats": cats, "StrNum": StrNum, "ForKey": ForKey,
        "UNINIT": UNINIT,
        "NextRecord": NextRecord, "AwkExit": AwkExit, "numkey": numkey, "copyval": copyval,
        "ONCE": ONCE, "OUT": runtime.out.append, "time": time,
        "asort_": asort_, "asorti_": asorti_, "strtonum": strtonum, "bits_and": bits_and,
        "bits_or": bits_or, "bits_xor": bits_xor, "bits_lshift": bits_lshift,
        "bits_rshift": bits_rshift, "bits_compl": bits_compl,
        "array_in_scalar": array_in_scalar, "scalar_as_array": scalar_as_array, "sread": sread, "swrite": swrite,
        "aref": aref, "sread_g": sread_g, "swrite_g": swrite_g, "aref_g": aref_g, "pass_g": pass_g, "dlen": dlen,
        "dlen_g": dlen_g, "scalar_if_untyped": scalar_if_untyped,
    }
    ns["NS"] = ns
    return ns
