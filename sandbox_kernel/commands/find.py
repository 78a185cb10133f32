"""find: walk directory trees and evaluate GNU find expressions."""
from __future__ import annotations

import math
import re
import stat as st
import time
from dataclasses import dataclass, field
from typing import Callable

from ..chars import isdigits
from ..vfs import FSError, Stat
from ..wildcard import fnmatch
from ._lib.dates import DateError, local_datetime, parse_timestamp
from ._lib.fsutil import (group_id, group_name, join_path, mode_string, parse_mode, user_id,
    user_name)
from ._lib.posix_regex import Bounds, RegexError, RegexStopped, compile_posix
from ._lib.printf import apply_width, interpret_escapes
from ._lib.quoting import quote, strerror
from .options import ArgCursor
from .registry import CommandContext, command

FIND_HELP = """\
Usage: find [-H] [-L] [-P] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:

operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

positional options (always true): -daystart -follow -regextype

normal options (always true, specified before other expressions):
      -depth --help -maxdepth LEVELS -mindepth LEVELS -mount -noleaf
      -xdev -ignore_readdir_race -noignore_readdir_race

tests (N can be +N or -N or N): -amin N -anewer FILE -atime N -cmin N
      -cnewer FILE -ctime N -empty -false -gid N -group NAME
      -ilname PATTERN -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -newerXY REFERENCE (X, Y: a c m; Y may be t for a date: -newermt '2024-01-01')
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

actions: -delete -print0 -printf FORMAT -prune -print -quit -ls
      -exec COMMAND ; -exec COMMAND {} + -execdir COMMAND ; -execdir COMMAND {} +
      -fprint FILE -fprint0 FILE -fprintf FILE FORMAT

The sandbox walks directories in sorted order."""


class FindError(Exception):
    """Bad expression: message printed as ``find: MESSAGE``, status 1."""


# ----------------------------------------------------------------------------- patterns
REGEX_TYPES = ["findutils-default", "ed", "emacs", "gnu-awk", "grep", "posix-awk", "awk",
               "posix-basic", "posix-egrep", "egrep", "posix-extended", "posix-minimal-basic",
               "sed"]


def _bracket_end(pattern: str, start: int) -> int:
    """Index of the ``]`` closing the regex bracket expression at ``start`` (len(pattern) if
    none): a ``]`` first in the list, and ``[:class:]``, ``[.x.]``, ``[=x=]`` inside, do not close it."""
    n = len(pattern)
    j = start + 1
    if j < n and pattern[j] == "^":
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    while j < n and pattern[j] != "]":
        if pattern[j] == "[" and j + 1 < n and pattern[j + 1] in ":.=":
            close = pattern.find(pattern[j + 1] + "]", j + 2)
            j = close + 2 if close >= 0 else j + 1
        else:
            j += 1
    return j


def _emacs_to_ere(pattern: str) -> str:
    out = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt in "()|":
                out.append(nxt)
            elif nxt in "{}":
                out.append("\\" + nxt)
            else:
                out.append("\\" + nxt)
            i += 2
            continue
        if ch in "(){}|":
            out.append("\\" + ch)
        elif ch == "[":
            j = _bracket_end(pattern, i)
            out.append(pattern[i:j + 1])
            i = j + 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def compile_find_regex(pattern: str, regex_type: str, ignore_case: bool, bounds: Bounds | None = None):
    if regex_type in ("findutils-default", "emacs", "gnu-awk", "posix-awk", "awk"):
        source, extended = _emacs_to_ere(pattern) if regex_type in ("findutils-default", "emacs") \
            else pattern, True
    elif regex_type in ("posix-basic", "posix-minimal-basic", "ed", "sed", "grep"):
        source, extended = pattern, False
    else:
        source, extended = pattern, True
    try:
        return compile_posix(source, extended, ignore_case=ignore_case, bounds=bounds)
    except RegexError as e:
        raise FindError(f"Invalid regular expression {quote(pattern, 'locale')}: {e}") from None


# ----------------------------------------------------------------------------- expression tree
@dataclass
class Node:
    kind: str                      # "and" "or" "not" "comma" "test"
    children: list["Node"] = field(default_factory=list)
    name: str = ""
    func: Callable | None = None   # async (walker, item) -> bool for tests/actions
    is_action: bool = False


@dataclass
class Item:
    path: str          # as printed
    start: str         # the starting point it came from
    depth: int
    lst: Stat          # lstat
    st: Stat           # stat used for tests (followed under -L)
    name: str

    @property
    def is_dir(self) -> bool:
        return st.S_ISDIR(self.st.st_mode)


class Parser(ArgCursor):
    def __init__(self, ctx: CommandContext, walker: "Walker", args: list[str]) -> None:
        super().__init__(args)
        self.ctx = ctx
        self.w = walker
        self.has_action = False
        self.regex_type = "findutils-default"
        self.warnings: list[str] = []
        self.bounds = Bounds.of(ctx)  # name and regex matches stop with the run

    def arg(self, option: str) -> str:
        if self.pos >= len(self.args):
            raise FindError(f"missing argument to `{option}'")
        return self.take()

    def parse(self) -> Node | None:
        if not self.args:
            return None
        node = self.parse_comma()
        if self.pos < len(self.args):
            tok = self.peek()
            if tok == ")":
                raise FindError("you have too many ')'")
            raise FindError(f"paths must precede expression: `{tok}'")
        return node

    def parse_comma(self) -> Node:
        left = self.parse_or()
        while self.peek() == ",":
            self.take()
            if self.peek() is None:
                raise FindError("expected an expression after ','")
            left = Node("comma", [left, self.parse_or()])
        return left

    def parse_or(self) -> Node:
        left = self.parse_and()
        while self.peek() in ("-o", "-or"):
            op = self.take()
            if self.peek() in (None, ")", ","):
                raise FindError(f"expected an expression after '{op}'")
            left = Node("or", [left, self.parse_and()])
        return left

    def parse_and(self) -> Node:
        left = self.parse_not()
        while True:
            tok = self.peek()
            if tok in ("-a", "-and"):
                op = self.take()
                if self.peek() in (None, ")", ",", "-o", "-or"):
                    raise FindError(f"expected an expression after '{op}'")
                left = Node("and", [left, self.parse_not()])
            elif tok is not None and tok not in (")", "-o", "-or", ","):
                left = Node("and", [left, self.parse_not()])
            else:
                return left

    def parse_not(self) -> Node:
        tok = self.peek()
        if tok in ("!", "-not"):
            self.take()
            if self.peek() in (None, ")"):
                raise FindError(f"expected an expression after '{tok}'")
            return Node("not", [self.parse_not()])
        return self.parse_primary()

    def parse_primary(self) -> Node:
        tok = self.take()
        if tok == "(":
            if self.peek() is None:
                raise FindError("invalid expression; expected to find a ')' but didn't see one. "
                                "Perhaps you need an extra predicate after '('")
            if self.peek() == ")":
                raise FindError("invalid expression; empty parentheses are not allowed.")
            inner = self.parse_comma()
            if self.peek() != ")":
                raise FindError("invalid expression; I was expecting to find a ')' somewhere "
                                "but did not see one.")
            self.take()
            return inner
        if tok == ")":
            raise FindError("invalid expression; you have used a binary operator ')' with nothing before it.")
        if tok in ("-o", "-or", "-a", "-and", ","):
            raise FindError(f"invalid expression; you have used a binary operator '{tok}' with nothing before it.")
        builder = PRIMARIES.get(tok)
        if builder is None and re.fullmatch(r"-newer[acmB][acmBt]", tok):
            builder = p_newer_xy
        if builder is None:
            if tok.startswith("-") and len(tok) > 1:
                raise FindError(f"unknown predicate `{tok}'")
            raise FindError(f"paths must precede expression: `{tok}'")
        return builder(self, tok)


# ---- helpers for numeric arguments
def _parse_n(text: str, option: str) -> tuple[str, float]:
    m = re.fullmatch(r"([+-]?)([0-9]+(?:\.[0-9]+)?)", text)
    if not m:
        raise FindError(f"invalid argument `{text}' to `{option}'")
    return m.group(1), float(m.group(2))


def _compare(sign: str, value: float, n: float) -> bool:
    if sign == "+":
        return value > n
    if sign == "-":
        return value < n
    return value == n


def _test(func, name: str = "") -> Node:
    return Node("test", func=func, name=name)


def _action(parser: Parser, func, name: str) -> Node:
    parser.has_action = True
    return Node("test", func=func, name=name, is_action=True)


def p_name(p: Parser, opt: str) -> Node:
    pat = p.arg(opt)
    nocase = opt == "-iname"

    async def f(w, it: Item) -> bool:
        return fnmatch(pat, it.name, nocase=nocase)
    return _test(f, opt)


def p_path(p: Parser, opt: str) -> Node:
    pat = p.arg(opt)
    nocase = opt.startswith("-i")

    async def f(w, it: Item) -> bool:
        return fnmatch(pat, it.path, nocase=nocase)
    return _test(f, opt)


def p_lname(p: Parser, opt: str) -> Node:
    pat = p.arg(opt)
    nocase = opt == "-ilname"

    async def f(w, it: Item) -> bool:
        if not st.S_ISLNK(it.lst.st_mode):
            return False
        try:
            return fnmatch(pat, w.fs.readlink(it.path, w.cwd), nocase=nocase)
        except FSError:
            return False
    return _test(f, opt)


def p_regex(p: Parser, opt: str) -> Node:
    pat = p.arg(opt)
    rx = compile_find_regex(pat, p.regex_type, opt == "-iregex", p.bounds)

    async def f(w, it: Item) -> bool:
        return rx.fullmatch(it.path) is not None
    return _test(f, opt)


def p_regextype(p: Parser, opt: str) -> Node:
    kind = p.arg(opt)
    if kind not in REGEX_TYPES:
        raise FindError(f"Unknown regular expression type {quote(kind, 'locale')}; valid types are " +
                        ", ".join(quote(t, 'locale') for t in REGEX_TYPES) + ".")
    p.regex_type = kind
    return _test(_true)


_TYPE_TESTS = {"f": st.S_ISREG, "d": st.S_ISDIR, "l": st.S_ISLNK, "c": st.S_ISCHR,
               "b": st.S_ISBLK, "p": st.S_ISFIFO, "s": st.S_ISSOCK}


def p_type(p: Parser, opt: str) -> Node:
    text = p.arg(opt)
    letters = text.split(",")
    for letter in letters:
        if letter == "D":
            continue
        if letter not in _TYPE_TESTS:
            if len(letter) != 1:
                raise FindError(f"Must separate multiple arguments to {opt} using: ','")
            raise FindError(f"Unknown argument to {opt}: {letter}")
    tests = [_TYPE_TESTS[x] for x in letters if x in _TYPE_TESTS]

    async def f(w, it: Item) -> bool:
        if opt == "-xtype":
            if st.S_ISLNK(it.lst.st_mode):
                try:
                    mode = w.fs.stat(it.path, w.cwd).st_mode
                except FSError:
                    mode = it.lst.st_mode
            else:
                mode = it.lst.st_mode
            if w.follow and st.S_ISLNK(it.lst.st_mode) and it.st is not it.lst:
                mode = it.lst.st_mode
        else:
            mode = it.st.st_mode
        return any(t(mode) for t in tests)
    return _test(f, opt)


_SIZE_UNITS = {"c": 1, "w": 2, "b": 512, "k": 1024, "M": 1024 ** 2, "G": 1024 ** 3}


def p_size(p: Parser, opt: str) -> Node:
    text = p.arg(opt)
    m = re.fullmatch(r"([+-]?)([0-9]+)([a-zA-Z]?)", text)
    if not m:
        raise FindError(f"invalid argument `{text}' to `{opt}'" if not re.fullmatch(r"[+-]?[0-9]+.*", text)
                        else f"invalid -size type `{text[-1]}'")
    sign, num, unit = m.group(1), int(m.group(2)), m.group(3) or "b"
    if unit not in _SIZE_UNITS:
        raise FindError(f"invalid -size type `{unit}'")
    size = _SIZE_UNITS[unit]

    async def f(w, it: Item) -> bool:
        units = math.ceil(it.st.st_size / size)
        return _compare(sign, units, num)
    return _test(f, opt)


def p_time(p: Parser, opt: str) -> Node:
    text = p.arg(opt)
    sign, n = _parse_n(text, opt)
    field_name = {"a": "st_atime", "c": "st_ctime", "m": "st_mtime"}[opt[1]]
    minutes = opt.endswith("min")

    async def f(w, it: Item) -> bool:
        delta = w.reference_time - getattr(it.st, field_name)
        if minutes:
            unit = 60
            if sign == "+":
                return delta > n * unit
            if sign == "-":
                return delta < n * unit
            return (n - 1) * unit < delta <= n * unit
        days = math.floor(delta / 86400)
        return _compare(sign, days, n)
    return _test(f, opt)


def p_newer(p: Parser, opt: str) -> Node:
    ref = p.arg(opt)
    try:
        rs = p.w.fs.stat(ref, p.w.cwd)
    except FSError as e:
        raise FindError(f"{quote(ref, 'locale')}: {strerror(e)}") from None
    mine = {"-newer": "st_mtime", "-anewer": "st_atime", "-cnewer": "st_ctime"}[opt]

    async def f(w, it: Item) -> bool:
        return getattr(it.st, mine) > rs.st_mtime
    return _test(f, opt)


_TIME_FIELDS = {"a": "st_atime", "c": "st_ctime", "m": "st_mtime"}


def p_newer_xy(p: Parser, opt: str) -> Node:
    """-newerXY REF: the file's X time is newer than REF's Y time (Y=t: REF is a date)."""
    x, y = opt[-2], opt[-1]
    ref = p.arg(opt)
    if "B" in (x, y):
        raise FindError("This system does not provide a way to find the birth time of a file.")
    if y == "t":
        try:
            when = parse_timestamp(ref, p.w.ctx.env)
        except DateError:
            raise FindError(f"I cannot figure out how to interpret {quote(ref, 'locale')} as a date or time") from None
    else:
        try:
            when = getattr(p.w.fs.stat(ref, p.w.cwd), _TIME_FIELDS[y])
        except FSError as e:
            raise FindError(f"{quote(ref, 'locale')}: {strerror(e)}") from None
    attr = _TIME_FIELDS[x]

    async def f(w, it: Item) -> bool:
        return getattr(it.st, attr) > when
    return _test(f, opt)


def p_empty(p: Parser, opt: str) -> Node:
    async def f(w, it: Item) -> bool:
        if st.S_ISREG(it.st.st_mode):
            return it.st.st_size == 0
        if st.S_ISDIR(it.st.st_mode):
            try:
                return not w.fs.listdir(it.path, w.cwd)
            except FSError:
                return False
        return False
    return _test(f, opt)


def p_perm(p: Parser, opt: str) -> Node:
    text = p.arg(opt)
    kind, body = "", text
    if text[:1] in "-/" and len(text) > 1:
        kind, body = text[0], text[1:]
    mode = parse_mode(body, 0, False, 0) if body else None
    if mode is None:
        raise FindError(f"invalid mode {quote(text, 'locale')}")

    async def f(w, it: Item) -> bool:
        bits = it.st.st_mode & 0o7777
        if kind == "-":
            return bits & mode == mode
        if kind == "/":
            return mode == 0 or bits & mode != 0
        return bits == mode
    return _test(f, opt)


# -user/-uid and -group/-gid: (numeric option, stat field, name lookup, unknown-name message)
_OWNER_TESTS = {
    "-user": ("-uid", "st_uid", user_id, "is not the name of a known user"),
    "-group": ("-gid", "st_gid", group_id, "is not the name of an existing group"),
}
_OWNER_TESTS["-uid"] = _OWNER_TESTS["-user"]
_OWNER_TESTS["-gid"] = _OWNER_TESTS["-group"]


def p_owner(p: Parser, opt: str) -> Node:
    text = p.arg(opt)
    numeric_opt, attr, lookup, unknown = _OWNER_TESTS[opt]
    if opt == numeric_opt:
        sign, n = _parse_n(text, opt)

        async def f(w, it: Item) -> bool:
            return _compare(sign, getattr(it.st, attr), n)
        return _test(f, opt)
    owner = lookup(p.w.fs, text)
    if owner is None:
        raise FindError(f"{quote(text, 'locale')} {unknown}")

    async def g(w, it: Item) -> bool:
        return getattr(it.st, attr) == owner
    return _test(g, opt)


def p_nouser(p: Parser, opt: str) -> Node:
    async def f(w, it: Item) -> bool:
        if opt == "-nouser":
            return user_name(w.fs, it.st.st_uid) == str(it.st.st_uid)
        return group_name(w.fs, it.st.st_gid) == str(it.st.st_gid)
    return _test(f, opt)


def p_links(p: Parser, opt: str) -> Node:
    sign, n = _parse_n(p.arg(opt), opt)
    attr = "st_nlink" if opt == "-links" else "st_ino"

    async def f(w, it: Item) -> bool:
        return _compare(sign, getattr(it.st, attr), n)
    return _test(f, opt)


def p_samefile(p: Parser, opt: str) -> Node:
    ref = p.arg(opt)
    try:
        ino = p.w.fs.stat(ref, p.w.cwd).st_ino
    except FSError as e:
        raise FindError(f"{quote(ref, 'locale')}: {strerror(e)}") from None

    async def f(w, it: Item) -> bool:
        return it.st.st_ino == ino
    return _test(f, opt)


def p_access(p: Parser, opt: str) -> Node:
    bit = {"-readable": 4, "-writable": 2, "-executable": 1}[opt]

    async def f(w, it: Item) -> bool:
        return w.fs.access(it.path, bit, w.cwd)
    return _test(f, opt)


async def _true(w, it) -> bool:
    return True


async def _false(w, it) -> bool:
    return False


def p_const(p: Parser, opt: str) -> Node:
    return _test(_true if opt == "-true" else _false, opt)


def p_global(p: Parser, opt: str) -> Node:
    w = p.w
    if opt in ("-maxdepth", "-mindepth"):
        text = p.arg(opt)
        if not isdigits(text):
            raise FindError(f"Expected a positive decimal integer argument to {opt}, but got {quote(text, 'locale')}")
        if opt == "-maxdepth":
            w.maxdepth = int(text)
        else:
            w.mindepth = int(text)
    elif opt in ("-depth", "-d"):
        w.depth_first = True
    elif opt == "-follow":
        w.follow = True
    elif opt == "-daystart":
        dt = local_datetime(w.reference_time, w.ctx.env)
        w.reference_time = dt.replace(hour=0, minute=0, second=0, microsecond=0).timestamp() + 86400
    return _test(_true, opt)


def p_print(p: Parser, opt: str) -> Node:
    end = "\0" if opt == "-print0" else "\n"

    async def f(w, it: Item) -> bool:
        await w.emit(it.path + end)
        return True
    return _action(p, f, opt)


def p_fprint(p: Parser, opt: str) -> Node:
    target = p.arg(opt)
    fmt = p.arg(opt) if opt == "-fprintf" else None
    p.w.open_fprint(target)
    end = "\0" if opt == "-fprint0" else "\n"

    async def f(w, it: Item) -> bool:
        text = render_printf(w, it, fmt) if fmt is not None else it.path + end
        w.write_file(target, text)
        return True
    return _action(p, f, opt)


_PRINTF_DIRECTIVES = set("%aAbcCdDfFgGhHiklmMnpPsStTuUyYZ")


def _printf_warnings(fmt: str) -> list[str]:
    warnings = []
    for m in re.finditer(r"%[-+ #0]*[0-9]*(?:\.[0-9]+)?(.?)", fmt):
        ch = m.group(1)
        if ch and ch not in _PRINTF_DIRECTIVES:
            warnings.append(f"warning: unrecognized format directive `%{ch}'")
    return warnings


def p_printf(p: Parser, opt: str) -> Node:
    fmt = p.arg(opt)
    p.warnings.extend(_printf_warnings(fmt))

    async def f(w, it: Item) -> bool:
        await w.emit(render_printf(w, it, fmt))
        return True
    return _action(p, f, opt)


def p_ls(p: Parser, opt: str) -> Node:
    async def f(w, it: Item) -> bool:
        s = it.lst
        blocks = (s.st_blocks + 1) // 2
        dt = local_datetime(s.st_mtime, w.ctx.env)
        recent = w.reference_time - 15778476 < s.st_mtime <= w.reference_time + 1
        when = f"{dt:%b} {dt.day:2d} " + (f"{dt:%H:%M}" if recent else f" {dt.year}")
        name = it.path
        if st.S_ISLNK(s.st_mode):
            try:
                name += " -> " + w.fs.readlink(it.path, w.cwd)
            except FSError:
                pass
        line = (f"{s.st_ino:>6} {blocks:>4} {mode_string(s.st_mode)} {s.st_nlink:>3} "
                f"{user_name(w.fs, s.st_uid):<8} {group_name(w.fs, s.st_gid):<8} "
                f"{s.st_size:>8} {when} {name}\n")
        await w.emit(line)
        return True
    return _action(p, f, opt)


def p_delete(p: Parser, opt: str) -> Node:
    p.w.depth_first = True

    async def f(w, it: Item) -> bool:
        if it.path in (".",):
            return True
        try:
            if st.S_ISDIR(it.lst.st_mode):
                w.fs.rmdir(it.path, w.cwd)
            else:
                w.fs.unlink(it.path, w.cwd)
        except FSError as e:
            await w.flush()
            await w.ctx.error(f"cannot delete {quote(it.path, 'locale')}: {strerror(e)}")
            w.status = 1
            return False
        return True
    return _action(p, f, opt)


def p_prune(p: Parser, opt: str) -> Node:
    async def f(w, it: Item) -> bool:
        if not w.depth_first:
            w.pruned = True
        return True
    return Node("test", func=f, name=opt)


def p_quit(p: Parser, opt: str) -> Node:
    async def f(w, it: Item) -> bool:
        w.quit = True
        return True
    return Node("test", func=f, name=opt)


def p_exec(p: Parser, opt: str) -> Node:
    cmd: list[str] = []
    batch = False
    while True:
        if p.pos >= len(p.args):
            raise FindError(f"missing argument to `{opt}'")
        tok = p.take()
        if tok == ";":
            break
        if tok == "+" and cmd and cmd[-1] == "{}":
            batch = True
            cmd.pop()
            break
        cmd.append(tok)
    if not cmd:
        raise FindError(f"missing argument to `{opt}'")
    if opt in ("-ok", "-okdir"):
        raise FindError(f"{opt} needs a terminal to ask for confirmation; use -exec")
    in_dir = opt == "-execdir"
    if batch:
        batch_state = p.w.new_batch(cmd, in_dir)

        async def fb(w, it: Item) -> bool:
            await w.add_to_batch(batch_state, it)
            return True
        return _action(p, fb, opt)

    async def f(w, it: Item) -> bool:
        if in_dir:
            argv = [a.replace("{}", "./" + it.name) for a in cmd]
            cwd = _parent_dir(it.path, w)
        else:
            argv = [a.replace("{}", it.path) for a in cmd]
            cwd = None
        status = await w.run(argv, cwd)
        return status == 0
    return _action(p, f, opt)


def _parent_dir(path: str, w: "Walker") -> str:
    full = w.fs.abspath(path, w.cwd)
    return full.rsplit("/", 1)[0] or "/"


PRIMARIES: dict[str, Callable[[Parser, str], Node]] = {
    "-name": p_name, "-iname": p_name, "-path": p_path, "-ipath": p_path,
    "-wholename": p_path, "-iwholename": p_path, "-lname": p_lname, "-ilname": p_lname,
    "-regex": p_regex, "-iregex": p_regex, "-regextype": p_regextype,
    "-type": p_type, "-xtype": p_type, "-size": p_size,
    "-mtime": p_time, "-atime": p_time, "-ctime": p_time,
    "-mmin": p_time, "-amin": p_time, "-cmin": p_time,
    "-newer": p_newer, "-anewer": p_newer, "-cnewer": p_newer,
    "-empty": p_empty, "-perm": p_perm, "-user": p_owner, "-uid": p_owner,
    "-group": p_owner, "-gid": p_owner, "-nouser": p_nouser, "-nogroup": p_nouser,
    "-links": p_links, "-inum": p_links, "-samefile": p_samefile,
    "-readable": p_access, "-writable": p_access, "-executable": p_access,
    "-true": p_const, "-false": p_const,
    "-maxdepth": p_global, "-mindepth": p_global, "-depth": p_global, "-d": p_global,
    "-follow": p_global, "-daystart": p_global, "-xdev": p_global, "-mount": p_global,
    "-noleaf": p_global, "-ignore_readdir_race": p_global, "-noignore_readdir_race": p_global,
    "-warn": p_global, "-nowarn": p_global,
    "-print": p_print, "-print0": p_print, "-printf": p_printf, "-ls": p_ls,
    "-fprint": p_fprint, "-fprint0": p_fprint, "-fprintf": p_fprint,
    "-delete": p_delete, "-prune": p_prune, "-quit": p_quit,
    "-exec": p_exec, "-execdir": p_exec, "-ok": p_exec, "-okdir": p_exec,
}


# ----------------------------------------------------------------------------- -printf
def _fmt_time(w, ts: float, spec: str) -> str:
    dt = local_datetime(ts, w.ctx.env)
    if spec == "@":
        return f"{ts:.10f}".rstrip("0").rstrip(".") if ts != int(ts) else f"{int(ts)}"
    if spec == "+":
        return dt.strftime("%Y-%m-%d+%H:%M:%S") + f".{int(round((ts % 1) * 1e9)) % 1000000000:09d}0"
    if spec == "T":
        return dt.strftime("%H:%M:%S") + f".{int(round((ts % 1) * 1e9)) % 1000000000:09d}0"
    if spec == "S":
        return dt.strftime("%S") + f".{int(round((ts % 1) * 1e9)) % 1000000000:09d}0"
    if spec == "k":
        return f"{dt.hour:2d}"
    if spec == "l":
        return f"{(dt.hour % 12) or 12:2d}"
    if spec == "e":
        return f"{dt.day:2d}"
    try:
        return dt.strftime("%" + spec)
    except ValueError:
        return "?"


def _ctime(w, ts: float) -> str:
    dt = local_datetime(ts, w.ctx.env)
    frac = f"{int(round((ts % 1) * 1e9)) % 1000000000:09d}0"
    return f"{dt:%a %b} {dt.day:2d} {dt:%H:%M:%S}.{frac} {dt.year}"


def render_printf(w: "Walker", it: Item, fmt: str) -> str:
    out = []
    i, n = 0, len(fmt)
    while i < n:
        ch = fmt[i]
        if ch == "\\":
            if fmt[i + 1:i + 2] == "c":
                w.stop_printf = True
                break
            m = re.match(r"\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)", fmt[i:], re.S)
            if m:
                out.append(interpret_escapes(m.group(0)) if m.group(0) != "\\0" else "\0")
                i += m.end()
                continue
            out.append("\\")
            i += 1
            continue
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        m = re.match(r"%([-+ #0]*)([0-9]*)(?:\.([0-9]+))?([ACT].|.)?", fmt[i:], re.S)
        i += m.end()
        flags, width, prec, spec = m.group(1), m.group(2), m.group(3) or "", m.group(4)
        if spec is None:
            out.append("%")
            continue
        value, numeric = _printf_value(w, it, spec)
        if value is None:
            out.append("%" + spec)
            continue
        out.append(apply_width(value, flags, width, prec, numeric))
    return "".join(out)


def _printf_value(w: "Walker", it: Item, spec: str) -> tuple[str | None, bool]:
    s = it.st
    if spec == "%":
        return "%", False
    if spec[0] in "ACT" and len(spec) == 2:
        ts = {"A": s.st_atime, "C": s.st_ctime, "T": s.st_mtime}[spec[0]]
        return _fmt_time(w, ts, spec[1]), False
    if spec == "p":
        return it.path, False
    if spec == "f":
        return it.name if it.depth or "/" in it.path.rstrip("/") else it.path.rstrip("/") or "/", False
    if spec == "h":
        stripped = it.path.rstrip("/")
        if "/" not in stripped:
            return ".", False
        head = stripped.rsplit("/", 1)[0]
        return head or "/", False
    if spec == "P":
        if it.depth == 0:
            return "", False
        rel = it.path[len(it.start):]
        return rel.lstrip("/"), False
    if spec == "H":
        return it.start, False
    if spec == "d":
        return str(it.depth), True
    if spec == "s":
        return str(s.st_size), True
    if spec == "m":
        return f"{s.st_mode & 0o7777:o}", True
    if spec == "M":
        return mode_string(s.st_mode), False
    if spec == "u":
        return user_name(w.fs, s.st_uid), False
    if spec == "g":
        return group_name(w.fs, s.st_gid), False
    if spec == "U":
        return str(s.st_uid), True
    if spec == "G":
        return str(s.st_gid), True
    if spec == "i":
        return str(s.st_ino), True
    if spec == "n":
        return str(s.st_nlink), True
    if spec == "k":
        return str((s.st_blocks + 1) // 2), True
    if spec == "b":
        return str(s.st_blocks), True
    if spec == "l":
        if st.S_ISLNK(it.lst.st_mode):
            try:
                return w.fs.readlink(it.path, w.cwd), False
            except FSError:
                return "", False
        return "", False
    if spec in ("y", "Y"):
        mode = it.lst.st_mode if spec == "y" else s.st_mode
        if spec == "Y" and st.S_ISLNK(it.lst.st_mode):
            try:
                mode = w.fs.stat(it.path, w.cwd).st_mode
            except FSError as e:
                return ("L" if e.errno == 40 else "N"), False
        for letter, test in _TYPE_TESTS.items():
            if test(mode):
                return letter, False
        return "U", False
    if spec in ("a", "c", "t"):
        ts = {"a": s.st_atime, "c": s.st_ctime, "t": s.st_mtime}[spec]
        return _ctime(w, ts), False
    if spec == "D":
        return "42", True
    if spec == "F":
        return "sandboxfs", False
    if spec == "S":
        blocks = s.st_blocks * 512
        return (f"{blocks / s.st_size:g}" if s.st_size else "1"), False
    return None, False


# ----------------------------------------------------------------------------- walking
class Walker:
    def __init__(self, ctx: CommandContext) -> None:
        self.ctx = ctx
        self.fs = ctx.fs
        self.cwd = ctx.cwd
        self.follow = False
        self.follow_args = False
        self.maxdepth: int | None = None
        self.mindepth = 0
        self.depth_first = False
        self.pruned = False
        self.quit = False
        self.stop_printf = False
        self.status = 0
        self.reference_time = time.time()
        self.out: list[str] = []
        self.out_size = 0
        self.batches: list[dict] = []
        self.fprint_files: dict[str, list[str]] = {}

    async def emit(self, text: str) -> None:
        self.out.append(text)
        self.out_size += len(text)
        if self.out_size > 32768:
            await self.flush()

    async def flush(self) -> None:
        if self.out:
            await self.ctx.out("".join(self.out))
            self.out.clear()
            self.out_size = 0

    def open_fprint(self, path: str) -> None:
        try:
            self.fs.write_bytes(path, b"", self.cwd)
        except FSError as e:
            raise FindError(f"{quote(path, 'locale')}: {strerror(e)}") from None
        self.fprint_files[path] = []

    def write_file(self, path: str, text: str) -> None:
        self.fs.write_bytes(path, text.encode("utf-8", "surrogateescape"), self.cwd, append=True)

    async def run(self, argv: list[str], cwd: str | None) -> int:
        await self.flush()
        if cwd is not None:
            saved = self.ctx.cwd
            self.ctx.cwd = cwd
            try:
                return await self.ctx.run(argv)
            finally:
                self.ctx.cwd = saved
        return await self.ctx.run(argv)

    def new_batch(self, cmd: list[str], in_dir: bool) -> dict:
        state = {"cmd": cmd, "in_dir": in_dir, "items": [], "dir": None, "size": 0}
        self.batches.append(state)
        return state

    async def add_to_batch(self, state: dict, it: Item) -> None:
        if state["in_dir"]:
            d = _parent_dir(it.path, self)
            if state["dir"] not in (None, d):
                await self.run_batch(state)
            state["dir"] = d
            state["items"].append("./" + it.name)
        else:
            state["items"].append(it.path)
        state["size"] += len(it.path) + 1
        if len(state["items"]) >= 5000 or state["size"] > 100_000:
            await self.run_batch(state)

    async def run_batch(self, state: dict) -> None:
        if not state["items"]:
            return
        argv = [a for a in state["cmd"]] + state["items"]
        status = await self.run(argv, state["dir"] if state["in_dir"] else None)
        if status != 0:
            self.status = 1
        state["items"] = []
        state["size"] = 0
        state["dir"] = None

    async def evaluate(self, node: Node, it: Item) -> bool:
        kind = node.kind
        if kind == "test":
            return await node.func(self, it)
        if kind == "and":
            return await self.evaluate(node.children[0], it) and not self.quit and \
                await self.evaluate(node.children[1], it)
        if kind == "or":
            return await self.evaluate(node.children[0], it) or (not self.quit and
                                                                 await self.evaluate(node.children[1], it))
        if kind == "not":
            return not await self.evaluate(node.children[0], it)
        await self.evaluate(node.children[0], it)
        if self.quit:
            return False
        return await self.evaluate(node.children[1], it)

    async def visit(self, expr: Node, it: Item) -> None:
        if it.depth >= self.mindepth:
            await self.evaluate(expr, it)

    async def walk(self, expr: Node, path: str, start: str, depth: int, lst: Stat, stt: Stat,
                   ancestors: tuple[int, ...]) -> None:
        if self.quit:
            return
        name = path.rstrip("/").rsplit("/", 1)[-1] if path.rstrip("/") else "/"
        it = Item(path, start, depth, lst, stt, name)
        self.pruned = False
        can_descend = st.S_ISDIR(stt.st_mode) and (self.maxdepth is None or depth < self.maxdepth)
        if not self.depth_first:
            if self.maxdepth is None or depth <= self.maxdepth:
                await self.visit(expr, it)
            if self.pruned or self.quit:
                return
        if can_descend:
            if stt.st_ino in ancestors:
                await self.flush()
                await self.ctx.error(f"File system loop detected; {quote(path, 'locale')} is part of the "
                                     "same file system loop as " + quote(start, 'locale') + ".")
                self.status = 1
            else:
                try:
                    names = self.fs.listdir(path, self.cwd)
                except FSError as e:
                    await self.flush()
                    await self.ctx.error(f"{quote(path, 'locale')}: {strerror(e)}")
                    self.status = 1
                    names = []
                for child_name in names:
                    if self.quit:
                        return
                    child = join_path(path, child_name)
                    try:
                        c_lst = self.fs.lstat(child, self.cwd)
                    except FSError as e:
                        await self.flush()
                        await self.ctx.error(f"{quote(child, 'locale')}: {strerror(e)}")
                        self.status = 1
                        continue
                    c_st = c_lst
                    if self.follow and st.S_ISLNK(c_lst.st_mode):
                        try:
                            c_st = self.fs.stat(child, self.cwd)
                        except FSError:
                            c_st = c_lst
                    await self.walk(expr, child, start, depth + 1, c_lst, c_st,
                                    ancestors + (stt.st_ino,))
                await self.ctx.checkpoint()
        if self.depth_first and not self.quit and (self.maxdepth is None or depth <= self.maxdepth):
            await self.visit(expr, it)


@command("find", help=FIND_HELP)
async def find(ctx: CommandContext) -> int:
    args = list(ctx.args)
    walker = Walker(ctx)
    # leading -H -L -P -O/-D options
    while args and args[0] in ("-H", "-L", "-P") or (args and re.fullmatch(r"-O[0-9]", args[0] or "")):
        opt = args.pop(0)
        if opt == "-L":
            walker.follow = True
            walker.follow_args = True
        elif opt == "-H":
            walker.follow, walker.follow_args = False, True
        elif opt == "-P":
            walker.follow = walker.follow_args = False
    if args and args[0] == "--":
        args.pop(0)
    paths = []
    while args and not (args[0].startswith("-") and len(args[0]) > 1 or args[0] in ("(", "!")):
        paths.append(args.pop(0))
    parser = Parser(ctx, walker, args)
    try:
        expr = parser.parse()
    except FindError as e:
        await ctx.error(str(e))
        return 1
    for warning in parser.warnings:
        await ctx.error(warning)
    if expr is None:
        expr = Node("test", func=_true)
    if not parser.has_action:
        print_node = p_print(parser, "-print")
        expr = Node("and", [expr, print_node])
    for path in paths or ["."]:
        if walker.quit:
            break
        await walker.flush()
        if path == "":
            await ctx.error("'': No such file or directory")
            walker.status = 1
            continue
        try:
            lst = ctx.fs.lstat(path, ctx.cwd)
        except FSError as e:
            await ctx.error(f"{quote(path, 'locale')}: {strerror(e)}")
            walker.status = 1
            continue
        stt = lst
        if (walker.follow or walker.follow_args) and st.S_ISLNK(lst.st_mode):
            try:
                stt = ctx.fs.stat(path, ctx.cwd)
            except FSError:
                stt = lst
        try:
            await walker.walk(expr, path, path, 0, lst, stt, ())
        except FindError as e:
            await walker.flush()
            await ctx.error(str(e))
            return 1
        except RegexStopped as e:
            await walker.flush()
            await ctx.error(f"pattern {quote(e.pattern, 'locale')} stopped: {e.describe()}")
            ctx.check()
            return 1
    for state in walker.batches:
        await walker.run_batch(state)
    await walker.flush()
    return walker.status

