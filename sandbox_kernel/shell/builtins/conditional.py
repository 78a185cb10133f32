"""test and [: conditional expressions of arguments."""
from __future__ import annotations

import re
import stat as st

from ...chars import isdigits
from ...vfs import FSError
from ..state import ShellError
from .output import err
from .registry import builtin


def unary_test(sh, op: str, operand: str, fds: dict) -> bool:
    fs = sh.fs
    cwd = sh.cwd
    if op == "-z":
        return operand == ""
    if op == "-n":
        return operand != ""
    if op == "-v":
        m = re.fullmatch(r"([A-Za-z_][A-Za-z_0-9]*)\[(.*)\]", operand)
        if m:
            var = sh.lookup_var(m.group(1))
            if var is None or not isinstance(var.value, dict):
                return var is not None and var.value is not None and m.group(2) in ("0", "@", "*")
            key = m.group(2)
            if key in ("@", "*"):
                return bool(var.value)
            return (key if var.assoc else sh.arith(key)) in var.value
        var = sh.lookup_var(operand)
        if var is None:
            return isdigits(operand) and 0 < int(operand) <= len(sh.positional)
        return var.value is not None and (not isinstance(var.value, dict) or bool(var.value) and (0 in var.value or var.assoc))
    if op == "-o":
        return bool(sh.options.get(operand))
    if op == "-R":
        var = sh.lookup_var(operand)
        return var is not None and var.nameref
    if op == "-t":
        return False
    if operand.startswith("/dev/fd/") or operand in ("/dev/stdin", "/dev/stdout", "/dev/stderr"):
        return op in ("-e", "-c", "-r", "-w")
    follow = op not in ("-L", "-h")
    try:
        stat = fs.stat(operand, cwd) if follow else fs.lstat(operand, cwd)
    except (FSError, OSError):
        return False
    mode = stat.st_mode
    if op in ("-e", "-a"):
        return True
    if op == "-f":
        return st.S_ISREG(mode)
    if op == "-d":
        return st.S_ISDIR(mode)
    if op in ("-L", "-h"):
        return st.S_ISLNK(mode)
    if op == "-s":
        return stat.st_size > 0
    if op == "-r":
        return fs.access(operand, 4, cwd)
    if op == "-w":
        return fs.access(operand, 2, cwd)
    if op == "-x":
        return fs.access(operand, 1, cwd)
    if op == "-c":
        return st.S_ISCHR(mode)
    if op == "-b":
        return st.S_ISBLK(mode)
    if op == "-p":
        return st.S_ISFIFO(mode)
    if op == "-S":
        return st.S_ISSOCK(mode)
    if op == "-g":
        return bool(mode & st.S_ISGID)
    if op == "-u":
        return bool(mode & st.S_ISUID)
    if op == "-k":
        return bool(mode & st.S_ISVTX)
    if op == "-O":
        return stat.st_uid == 1000
    if op == "-G":
        return stat.st_gid == 1000
    if op == "-N":
        return stat.st_mtime > stat.st_atime
    return False


def binary_test(sh, op: str, left: str, right: str) -> bool:
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return left < right
    if op == ">":
        return left > right
    fs = sh.fs
    if op in ("-nt", "-ot"):
        try:
            a = fs.stat(left, sh.cwd).st_mtime
        except OSError:
            a = None
        try:
            b = fs.stat(right, sh.cwd).st_mtime
        except OSError:
            b = None
        if op == "-nt":
            return a is not None and (b is None or a > b)
        return b is not None and (a is None or a < b)
    if op == "-ef":
        try:
            return fs.stat(left, sh.cwd).st_ino == fs.stat(right, sh.cwd).st_ino
        except OSError:
            return False
    raise ShellError(f"{op}: binary operator expected", 2)


_UNARY_OPS = frozenset({"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-n", "-o", "-p", "-r", "-s",
                        "-t", "-u", "-v", "-w", "-x", "-z", "-G", "-L", "-N", "-O", "-R", "-S"})

_BINARY_OPS = frozenset({"=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"})


class _TestError(Exception):
    pass


def _test_int(s: str) -> int:
    t = s.strip()
    if not re.fullmatch(r"[-+]?[0-9]+", t):
        raise _TestError(f"{s}: integer expression expected")
    return int(t)


class _TestParser:
    def __init__(self, sh, args: list[str], fds) -> None:
        self.sh = sh
        self.args = args
        self.pos = 0
        self.fds = fds

    def peek(self, k: int = 0):
        j = self.pos + k
        return self.args[j] if j < len(self.args) else None

    def parse(self) -> bool:
        n = len(self.args)
        if n == 0:
            return False
        result = self.expr_by_count(n)
        if self.pos < n:
            raise _TestError(f"{self.args[self.pos]}: unexpected argument" if n > 4 else "too many arguments")
        return result

    def expr_by_count(self, n: int) -> bool:
        a = self.args
        # POSIX rules for small argument counts
        if n == 1:
            self.pos = 1
            return a[0] != ""
        if n == 2:
            if a[0] == "!":
                self.pos = 2
                return a[1] == ""
            if a[0] in _UNARY_OPS:
                self.pos = 2
                return self.unary(a[0], a[1])
            raise _TestError(f"{a[0]}: unary operator expected")
        if n == 3:
            if a[1] in _BINARY_OPS:
                self.pos = 3
                return self.binary(a[1], a[0], a[2])
            if a[1] in ("-a", "-o"):
                self.pos = 3
                return (a[0] != "" and a[2] != "") if a[1] == "-a" else (a[0] != "" or a[2] != "")
            if a[0] == "!":
                self.pos = 1
                sub = _TestParser(self.sh, a[1:], self.fds)
                r = sub.parse()
                self.pos = 3
                return not r
            if a[0] == "(" and a[2] == ")":
                self.pos = 3
                return a[1] != ""
            raise _TestError(f"{a[1]}: binary operator expected")
        if n == 4:
            if a[0] == "!":
                sub = _TestParser(self.sh, a[1:], self.fds)
                r = sub.parse()
                self.pos = 4
                return not r
            if a[0] == "(" and a[3] == ")":
                sub = _TestParser(self.sh, a[1:3], self.fds)
                r = sub.parse()
                self.pos = 4
                return r
        return self.or_expr()

    def or_expr(self) -> bool:
        left = self.and_expr()
        while self.peek() == "-o":
            self.pos += 1
            right = self.and_expr()
            left = left or right
        return left

    def and_expr(self) -> bool:
        left = self.not_expr()
        while self.peek() == "-a":
            self.pos += 1
            right = self.not_expr()
            left = left and right
        return left

    def not_expr(self) -> bool:
        if self.peek() == "!":
            self.pos += 1
            return not self.not_expr()
        return self.primary()

    def primary(self) -> bool:
        tok = self.peek()
        if tok is None:
            raise _TestError("argument expected")
        if tok == "(":
            self.pos += 1
            r = self.or_expr()
            if self.peek() != ")":
                raise _TestError("`)' expected")
            self.pos += 1
            return r
        nxt = self.peek(1)
        if nxt is not None and nxt in _BINARY_OPS and self.peek(2) is not None:
            self.pos += 3
            return self.binary(nxt, tok, self.args[self.pos - 1])
        if tok in _UNARY_OPS and nxt is not None:
            self.pos += 2
            return self.unary(tok, nxt)
        self.pos += 1
        return tok != ""

    def unary(self, op: str, operand: str) -> bool:
        if op == "-a":
            op = "-e"
        return unary_test(self.sh, op, operand, self.fds)

    def binary(self, op: str, left: str, right: str) -> bool:
        if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            a, b = _test_int(left), _test_int(right)
            return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
        return binary_test(self.sh, op, left, right)


async def _run_test(sh, name: str, args: list[str], fds) -> int:
    try:
        return 0 if _TestParser(sh, args, fds).parse() else 1
    except _TestError as e:
        await err(sh, fds, name, str(e))
        return 2
    except ShellError as e:
        await err(sh, fds, name, e.message)
        return 2


@builtin("test", usage="test [expr]", text="""
Evaluate conditional expression. Exits with a status of 0 (true) or 1 (false) depending on
the evaluation of EXPR. File operators: -e -f -d -s -r -w -x -L -h -b -c -p -S -nt -ot -ef.
String operators: -z -n = != < >. Integer comparisons: -eq -ne -lt -le -gt -ge.
Other: -v VAR (variable is set), -o OPTION, ! EXPR, EXPR -a EXPR, EXPR -o EXPR, ( EXPR ).""")
async def b_test(sh, argv, fds):
    return await _run_test(sh, "test", argv[1:], fds)


@builtin("[", usage="[ arg... ]", text="Evaluate conditional expression. This is a synonym for the \"test\" builtin, but the last argument must be a literal `]', to match the opening `['.")
async def b_bracket(sh, argv, fds):
    if argv[-1] != "]":
        await err(sh, fds, "[", "missing `]'")
        return 2
    return await _run_test(sh, "[", argv[1:-1], fds)
