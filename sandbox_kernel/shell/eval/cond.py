"""Conditional expressions: ``[[ ... ]]`` and the arguments of test/[, over one set of
unary and binary tests."""
from __future__ import annotations

import stat as st
from collections.abc import Awaitable, Callable

from ...lazy import TYPE_CHECKING, lazy_compile, lazy_import
from ...vfs import FSError
from .. import pattern as pat
from .arith import evaluate as arith_evaluate
from ..state import ArithError, ShellError, TestError
from ..syntax.ast import DQ, CondAnd, CondBinary, CondNot, CondOr, CondUnary, CondWord, Lit, Quoted, Word
from .word import quoted_default

if TYPE_CHECKING:
    from ...commands._lib.bounded import Bounds
    from .interp import Runtime, Shell
    from .runs import RunView

posix_regex = lazy_import("...commands._lib.posix_regex", __package__)  # [[ =~ ]] only: regex is ~10 ms

INTEGER_OPS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
TEST_UNARY_OPS = frozenset({"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-n", "-o", "-p", "-r", "-s",
                            "-t", "-u", "-v", "-w", "-x", "-z", "-G", "-L", "-N", "-O", "-R", "-S"})
TEST_BINARY_OPS = frozenset({"=", "==", "!=", "<", ">", "-nt", "-ot", "-ef"}) | INTEGER_OPS


def unary_test(sh: Shell, op: str, operand: str) -> bool:
    """``-f file``, ``-z text``, ``-v name`` ...: the operators test and [[ ]] share."""
    fs = sh.fs
    cwd = sh.cwd
    if op == "-z":
        return operand == ""
    if op == "-n":
        return operand != ""
    if op == "-v":
        return sh.is_set(operand)
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


def binary_test(sh: Shell, op: str, left: str, right: str) -> bool:
    """The string and file comparisons test and [[ ]] share (``=``, ``<``, ``-nt`` ...)."""
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


def compare_integers(op: str, a: int, b: int) -> bool:
    if op == "-eq":
        return a == b
    if op == "-ne":
        return a != b
    if op == "-lt":
        return a < b
    if op == "-le":
        return a <= b
    if op == "-gt":
        return a > b
    return a >= b


# ----------------------------------------------------------------------------- test / [
_TEST_INT = lazy_compile(r"[-+]?[0-9]+")


def _test_int(s: str) -> int:
    if s.isascii() and s.isdigit():
        return int(s)
    t = s.strip()
    if not _TEST_INT.fullmatch(t):
        raise TestError(f"{s}: integer expression expected")
    return int(t)


def evaluate_test(sh: Shell, args: list[str]) -> bool:
    """The arguments of test or [ (without the closing ]) as a condition; raises TestError."""
    if len(args) == 3 and args[1] in TEST_BINARY_OPS:
        # the commonest form, as expr_by_count reads it
        op = args[1]
        if op in INTEGER_OPS:
            return compare_integers(op, _test_int(args[0]), _test_int(args[2]))
        return binary_test(sh, op, args[0], args[2])
    return TestExpression(sh, args).parse()


class TestExpression:
    """The arguments of test or [ as an expression (POSIX's rules by argument count first)."""

    def __init__(self, sh: Shell, args: list[str]) -> None:
        self.sh = sh
        self.args = args
        self.pos = 0

    def peek(self, k: int = 0):
        j = self.pos + k
        return self.args[j] if j < len(self.args) else None

    def parse(self) -> bool:
        n = len(self.args)
        if n == 0:
            return False
        result = self.expr_by_count(n)
        if self.pos < n:
            raise TestError(f"{self.args[self.pos]}: unexpected argument" if n > 4 else "too many arguments")
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
            if a[0] in TEST_UNARY_OPS:
                self.pos = 2
                return self.unary(a[0], a[1])
            raise TestError(f"{a[0]}: unary operator expected")
        if n == 3:
            if a[1] in TEST_BINARY_OPS:
                self.pos = 3
                return self.binary(a[1], a[0], a[2])
            if a[1] in ("-a", "-o"):
                self.pos = 3
                return (a[0] != "" and a[2] != "") if a[1] == "-a" else (a[0] != "" or a[2] != "")
            if a[0] == "!":
                self.pos = 1
                sub = TestExpression(self.sh, a[1:])
                r = sub.parse()
                self.pos = 3
                return not r
            if a[0] == "(" and a[2] == ")":
                self.pos = 3
                return a[1] != ""
            raise TestError(f"{a[1]}: binary operator expected")
        if n == 4:
            if a[0] == "!":
                sub = TestExpression(self.sh, a[1:])
                r = sub.parse()
                self.pos = 4
                return not r
            if a[0] == "(" and a[3] == ")":
                sub = TestExpression(self.sh, a[1:3])
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
            raise TestError("argument expected")
        if tok == "(":
            self.pos += 1
            r = self.or_expr()
            if self.peek() != ")":
                raise TestError("`)' expected")
            self.pos += 1
            return r
        nxt = self.peek(1)
        if nxt is not None and nxt in TEST_BINARY_OPS and self.peek(2) is not None:
            self.pos += 3
            return self.binary(nxt, tok, self.args[self.pos - 1])
        if tok in TEST_UNARY_OPS and nxt is not None:
            self.pos += 2
            return self.unary(tok, nxt)
        self.pos += 1
        return tok != ""

    def unary(self, op: str, operand: str) -> bool:
        return unary_test(self.sh, op, operand)

    def binary(self, op: str, left: str, right: str) -> bool:
        if op in INTEGER_OPS:
            return compare_integers(op, _test_int(left), _test_int(right))
        return binary_test(self.sh, op, left, right)


# ----------------------------------------------------------------------------- [[ ]]
#: xtrace of one ``[[ ]]`` test as it runs: gets the test's text (``-n hi``, ``hi == \\h*``)
CondTracer = Callable[[str], Awaitable[None]]


def _shown(value: str) -> str:
    return value if value else "''"


def _every_char_escaped(text: str) -> str:
    return "".join("\\" + c for c in text)


async def eval_cond(sh: Shell, expr, tracer: CondTracer | None = None) -> bool:
    """The value of a ``[[ ]]`` expression (words expanded by ``sh``); with ``tracer``, each
    test is shown once its words are expanded, as bash's xtrace shows it."""
    tp = type(expr)
    if tp is CondAnd:
        return await eval_cond(sh, expr.left, tracer) and await eval_cond(sh, expr.right, tracer)
    if tp is CondOr:
        return await eval_cond(sh, expr.left, tracer) or await eval_cond(sh, expr.right, tracer)
    if tp is CondNot:
        inner = tracer
        if tracer is not None and type(expr.expr) in (CondWord, CondUnary, CondBinary):
            async def inner(text: str) -> None:
                await tracer("! " + text)
        return not await eval_cond(sh, expr.expr, inner)
    if tp is CondWord:
        value = await sh.expand_word(expr.word)
        if tracer is not None:
            await tracer(f"-n {_shown(value)}")
        return value != ""
    if tp is CondUnary:
        operand = await sh.expand_word(expr.operand)
        if tracer is not None:
            await tracer(f"{expr.op} {_shown(operand)}")
        return unary_test(sh, expr.op, operand)
    if tp is CondBinary:
        left = await sh.expand_word(expr.left)
        op = expr.op
        if op in ("=", "!="):
            if tracer is None:
                pattern = await sh.expand_pattern(expr.right)
            else:
                # every quoted character escaped, as bash shows it (and matches the same)
                pattern = await sh.expand_pattern(expr.right, _every_char_escaped)
                await tracer(f"{_shown(left)} {expr.written or op} {_shown(pattern)}")
            # [[ == ]] matches as if extglob were on (bash 5.2)
            result = pat.match(pattern, left, True, sh.shopts["nocasematch"], sh.pattern_budget(),
                               not left.isascii() and sh.byte_locale())
            return result if op == "=" else not result
        if op == "=~":
            source = await regex_source(sh, expr.right)
            if tracer is not None:
                await tracer(f"{_shown(left)} =~ {_shown(source)}")
            return regex_match(sh, left, source)
        right = await sh.expand_word(expr.right)
        if tracer is not None:
            await tracer(f"{_shown(left)} {op} {_shown(right)}")
        if op in INTEGER_OPS:
            return compare_integers(op, cond_integer(sh, left), cond_integer(sh, right))
        return binary_test(sh, op, left, right)
    raise ShellError("bad conditional expression")


def cond_integer(sh: Shell, text: str) -> int:
    """An integer operand of ``[[ ]]``: an arithmetic expression (empty is 0). An error in it
    fails the test with status 1 ("[[: ..."), not the command line as in $((...))."""
    if not text.strip():
        return 0
    try:
        return arith_evaluate(text, sh)
    except ArithError as e:
        raise ShellError(f"[[: {e.message}", 1) from None
    except RecursionError:
        raise ShellError(f"[[: {text}: expression recursion level exceeded", 1) from None


async def regex_source(sh: Shell, word: Word) -> str:
    """The ERE of ``=~ word``: quoted parts escaped so they match literally."""
    pieces: list[str] = []
    for i, p in enumerate(word.parts):
        if type(p) is Lit:
            if i == 0 and p.text.startswith("~"):
                # a leading tilde expands, and its directory matches literally
                tilde = sh.tilde_pieces(p.text, True, False)
                if tilde is not None:
                    pieces.extend(ere_escape(t) if expanded else t for t, expanded in tilde)
                    continue
            pieces.append(p.text)
        elif quoted_default(p):
            value = await sh.param_default(p, lambda w: regex_source(sh, w))
            if isinstance(value, list):
                value = " ".join(value)
            pieces.append(value or "")
        else:
            value = await sh.expand_word(Word([p]))
            if type(p) is Quoted or type(p) is DQ:
                pieces.append(ere_escape(value))
            else:
                pieces.append(value)
    return "".join(pieces)


def regex_match(sh: Shell, text: str, source: str) -> bool:
    """``text =~ source``; sets BASH_REMATCH."""
    try:
        rx = _compiled_regex(sh, source)
        m = rx.search(text)
    except posix_regex.RegexError:
        sh.set_match_groups([])
        raise ShellError("", 2)
    except posix_regex.RegexTimeout:
        sh.set_match_groups([])
        sh.check_cancel()  # an interrupt or the wall time ends the run as anywhere else
        raise ShellError(f"regular expression `{source}' took too long to match", 2)
    if m is None:
        sh.set_match_groups([])
        return False
    groups = [m.group(0)] + [g if g is not None else "" for g in m.groups()]
    sh.set_match_groups(groups)
    return True


#: compiled [[ =~ ]] regexes by (source, nocasematch): a loop matches the same ones again
_REGEXES: dict = {}


def _compiled_regex(sh: Shell, source: str):
    """The compiled ``source``, its calls bound to this run: they stop at the run's wall time
    and on interrupt, like every command's (bound again when another run uses it)."""
    nocase = sh.shopts["nocasematch"]
    rx = _REGEXES.get((source, nocase))
    if rx is None:
        if not _ere_valid(source):
            raise posix_regex.RegexError(source)
        if len(_REGEXES) >= 256:
            _REGEXES.clear()
        rx = _REGEXES[(source, nocase)] = posix_regex.compile_posix(source, extended=True, ignore_case=nocase,
                                                                    bounds=_run_bounds(sh.rt))
    elif rx.bounds is not _run_bounds(sh.rt):
        rx.bind(_run_bounds(sh.rt))
    return rx


def _run_bounds(rt: Runtime | RunView) -> Bounds:
    bounds = rt.regex_bounds
    if bounds is None or bounds.deadline != rt.deadline or bounds.cancel is not rt.cancel:
        bounds = rt.regex_bounds = posix_regex.Bounds(rt.deadline, rt.cancel)
    return bounds


_INTERVAL = lazy_compile(r"\{(?:[0-9]+(?:,[0-9]*)?|,[0-9]+)\}")


def _ere_valid(source: str) -> bool:
    """What glibc's regcomp (bash's) rejects and our translator would take: a repetition
    (``* + ? {``) with nothing before it, and a ``{`` that starts no interval."""
    at_start = True
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c == "\\":
            i += 2
            at_start = False
            continue
        if c == "[":
            j = i + 1
            if j < n and source[j] == "^":
                j += 1
            if j < n and source[j] == "]":
                j += 1
            while j < n and source[j] != "]":
                j = source.find(":]", j + 2) + 2 if source.startswith("[:", j) else j + 1
                if j <= 1:
                    return False
            if j >= n:
                return False
            i = j + 1
            at_start = False
            continue
        if c in "*+?{":
            if at_start:
                return False
            if c == "{":
                m = _INTERVAL.match(source, i)
                if m is None:
                    return False
                i = m.end()
                continue
        at_start = c in "(|^"
        i += 1
    return True


def ere_escape(text: str) -> str:
    """``text`` matching itself in an ERE (quoted parts of ``=~``'s pattern)."""
    return "".join("\\" + c if c in ".[]()*+?{}|^$\\" else c for c in text)
