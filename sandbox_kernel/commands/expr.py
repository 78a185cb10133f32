"""expr: evaluate an expression given as separate arguments (GNU semantics)."""
from __future__ import annotations

from ..chars import isdigits
from ._lib.posix_regex import Bounds, RegexError, RegexStopped, compile_posix
from ..locales import utf8_locale
from .options import ArgCursor
from .registry import CommandContext, command

EXPR_HELP = """\
Usage: expr EXPRESSION
Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \\( and \\) or null; if
\\( and \\) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred."""


class ExprError(Exception):
    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _q(s: str) -> str:
    return "'" + s + "'"


def _is_integer(s) -> bool:
    if isinstance(s, int):
        return True
    body = s[1:] if s.startswith("-") else s
    return isdigits(body) and body.isascii()


def _to_int(v) -> int:
    if isinstance(v, int):
        return v
    if not _is_integer(v):
        raise ExprError("non-integer argument")
    return int(v)


def is_null(v) -> bool:
    if isinstance(v, int):
        return v == 0
    if v == "":
        return True
    body = v[1:] if v.startswith("-") else v
    return body != "" and set(body) == {"0"}


def _text(v) -> str:
    return str(v) if isinstance(v, int) else v


class _Parser(ArgCursor):
    """expr's grammar, by recursive descent over the argument words; ``bounds`` stop its
    regex matches with the run."""

    def __init__(self, args: list[str], bounds: Bounds | None = None) -> None:
        super().__init__(args)
        self.bounds = bounds

    def need_operand(self) -> None:
        if self.pos >= len(self.args):
            raise ExprError(f"syntax error: missing argument after {_q(self.args[self.pos - 1])}")

    def parse(self):
        value = self.or_expr()
        if self.pos < len(self.args):
            raise ExprError(f"syntax error: unexpected argument {_q(self.args[self.pos])}")
        return value

    def or_expr(self):
        left = self.and_expr()
        while self.peek() == "|":
            self.take()
            self.need_operand()
            right = self.and_expr()
            if is_null(left):
                left = right if not is_null(right) else 0
        return left

    def and_expr(self):
        left = self.comparison()
        while self.peek() == "&":
            self.take()
            self.need_operand()
            right = self.comparison()
            if is_null(left) or is_null(right):
                left = 0
        return left

    def comparison(self):
        left = self.additive()
        while self.peek() in ("<", "<=", "=", "==", "!=", ">=", ">"):
            op = self.take()
            self.need_operand()
            right = self.additive()
            if _is_integer(left) and _is_integer(right):
                a, b = int(left), int(right)
            else:
                a = _text(left).encode("utf-8", "surrogateescape")
                b = _text(right).encode("utf-8", "surrogateescape")
            result = {"<": a < b, "<=": a <= b, "=": a == b, "==": a == b, "!=": a != b,
                      ">=": a >= b, ">": a > b}[op]
            left = 1 if result else 0
        return left

    def additive(self):
        left = self.multiplicative()
        while self.peek() in ("+", "-"):
            op = self.take()
            self.need_operand()
            right = self.multiplicative()
            a, b = _to_int(left), _to_int(right)
            left = a + b if op == "+" else a - b
        return left

    def multiplicative(self):
        left = self.match_expr()
        while self.peek() in ("*", "/", "%"):
            op = self.take()
            self.need_operand()
            right = self.match_expr()
            a, b = _to_int(left), _to_int(right)
            if op == "*":
                left = a * b
                continue
            if b == 0:
                raise ExprError("division by zero")
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            left = q if op == "/" else a - b * q
        return left

    def match_expr(self):
        left = self.primary()
        while self.peek() == ":":
            self.take()
            self.need_operand()
            right = self.primary()
            left = regex_match(_text(left), _text(right), self.bounds)
        return left

    def primary(self):
        tok = self.peek()
        if tok is None:
            if self.pos == 0:
                raise ExprError("missing operand")
            raise ExprError(f"syntax error: missing argument after {_q(self.args[self.pos - 1])}")
        if tok == "(":
            self.take()
            self.need_operand()
            value = self.or_expr()
            close = self.peek()
            if close != ")":
                if close is None:
                    raise ExprError(f"syntax error: expecting ')' after {_q(self.args[self.pos - 1])}")
                raise ExprError(f"syntax error: expecting ')' instead of {_q(close)}")
            self.take()
            return value
        if tok == ")":
            raise ExprError("syntax error: unexpected ')'")
        if tok == "+":
            self.take()
            self.need_operand()
            return self.take()
        if tok == "length":
            self.take()
            self.need_operand()
            return len(_text(self.primary()))
        if tok == "match":
            self.take()
            self.need_operand()
            s = _text(self.primary())
            self.need_operand()
            r = _text(self.primary())
            return regex_match(s, r, self.bounds)
        if tok == "index":
            self.take()
            self.need_operand()
            s = _text(self.primary())
            self.need_operand()
            chars = _text(self.primary())
            positions = [s.find(c) for c in set(chars) if c in s]
            return min(positions) + 1 if positions else 0
        if tok == "substr":
            self.take()
            self.need_operand()
            s = _text(self.primary())
            self.need_operand()
            p = _text(self.primary())
            self.need_operand()
            n = _text(self.primary())
            if not (_is_integer(p) and _is_integer(n)):
                return ""
            start, length = int(p), int(n)
            if start < 1 or length < 1 or start > len(s):
                return ""
            return s[start - 1:start - 1 + length]
        return self.take()


def regex_match(string: str, pattern: str, bounds: Bounds | None = None):
    try:
        rx = compile_posix(pattern, bounds=bounds)
    except RegexError as e:
        raise ExprError(str(e)) from None
    m = rx.match(string)
    if rx.groups:
        if m is None or m.group(1) is None:
            return ""
        return m.group(1)
    return len(m.group(0)) if m else 0


@command("expr", help=EXPR_HELP)
async def expr(ctx: CommandContext) -> int:
    args = list(ctx.args)
    if args[:1] == ["--"]:
        args = args[1:]
    # work on characters in a UTF-8 locale, on bytes (one latin-1 character each) otherwise
    utf8 = utf8_locale(ctx.env)
    if not utf8:
        args = [a.encode("utf-8", "surrogateescape").decode("latin-1") for a in args]
    if not args:
        await ctx.error("missing operand")
        await ctx.err("Try 'expr --help' for more information.\n")
        return 2
    try:
        value = _Parser(args, Bounds.of(ctx)).parse()
    except ExprError as e:
        await ctx.error(e.message)
        return e.status
    except RegexStopped as e:
        await ctx.error(f"regular expression '{e.pattern}' stopped: {e.describe()}")
        ctx.check()
        return 3
    except RecursionError:
        await ctx.error("expression too deeply nested")
        return 2
    text = _text(value)
    await ctx.out((text if utf8 else text.encode("latin-1").decode("utf-8", "surrogateescape")) + "\n")
    return 1 if is_null(value) else 0
