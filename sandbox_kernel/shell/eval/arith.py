"""Shell arithmetic: C operators over 64-bit signed integers, as in ``$(( ))``, ``(( ))``,
``let``, array indices and ``declare -i``.

Expressions are parsed once into closures (cached by text) and then evaluated against a
variable store that offers ``arith_get(name, index) -> str``, ``arith_set(name, index, int)``,
``arith_step(name, delta) -> int | None`` (``name++``/``name--`` done at once: the old value, or
None when the general way must do it) and ``arith_number(name) -> int | None`` (a plain
variable holding a decimal number, read at once; None: ``arith_get`` and the general way).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from ...chars import isdigits
from ...lazy import TYPE_CHECKING, lazy_compile
from ..state import ArithError

MASK = (1 << 64) - 1
SIGN = 1 << 63


def wrap(n: int) -> int:
    n &= MASK
    return n - (1 << 64) if n & SIGN else n


_TOKEN = lazy_compile(r"""
    \s*(?:
      (?P<num>[0-9][0-9a-zA-Z@_\#]*)
    | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
    | (?P<op><<=|>>=|\*\*=|\+\+|--|\*\*|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\^=|\|=|[-+*/%<>=!~&^|?:,()\[\]])
    )""", re.X)


def _tokenize(text: str) -> tuple[list[tuple[str, str]], list[int]]:
    """The tokens of ``text`` and where each starts (the end token: at the end)."""
    tokens = []
    starts = []
    pos = 0
    n = len(text)
    while True:
        while pos < n and text[pos] in " \t\n":
            pos += 1
        if pos >= n:
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ArithError(text, "syntax error: invalid arithmetic operator", text[pos:])
        kind = m.lastgroup or ""  # (a group matched)
        tokens.append((kind, m.group(kind)))
        starts.append(m.start(kind))
        pos = m.end()
        if kind == "name" and pos < n and text[pos] == "[":
            # a subscript is kept as text: evaluated (or used as a key) when the element is
            end = _subscript_end(text, pos)
            if end < 0:
                raise ArithError(text, "syntax error: `]' expected", text[pos:])
            tokens.append(("sub", text[pos + 1:end]))
            starts.append(pos)
            pos = end + 1
    tokens.append(("end", ""))
    starts.append(n)
    return tokens, starts


def _subscript_end(text: str, pos: int) -> int:
    """Index of the ``]`` closing the ``[`` at ``pos`` (nested brackets and quotes skipped)."""
    depth = 0
    i = pos
    n = len(text)
    while i < n:
        c = text[i]
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i
        elif c in "'\"":
            j = text.find(c, i + 1)
            if j < 0:
                return -1
            i = j
        elif c == "\\":
            i += 1
        i += 1
    return -1


def parse_number(text: str, expr: str | None = None) -> int:
    """An integer constant as bash reads one: a digit, then letters, digits, ``@ _ #``.

    A leading ``0`` means octal and ``0x`` hex (then ``#`` is "invalid number"); ``B#digits``
    takes a decimal base from 2 to 64, digits ``0-9a-zA-Z@_`` (letters fold below base 37)."""
    def fail(message: str) -> ArithError:
        return ArithError(expr or text, message, text)

    base = 10
    based = False
    i = 0
    if text[0] == "0" and len(text) > 1:
        based = True
        if text[1] in "xX":
            base, i = 16, 2
        else:
            base, i = 8, 1
    value = 0
    n = len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch == "#":
            if based:
                raise fail("invalid number")
            if not 2 <= value <= 64:
                raise fail("invalid arithmetic base")
            if i >= n or text[i] == "#":
                raise fail("invalid integer constant")
            base, value, based = value, 0, True
            continue
        if "0" <= ch <= "9":
            d = ord(ch) - 48
        elif "a" <= ch <= "z":
            d = ord(ch) - 87
        elif "A" <= ch <= "Z":
            d = ord(ch) - 29 if base > 36 else ord(ch) - 55
        elif ch == "@":
            d = 62
        else:  # "_"
            d = 63
        if d >= base:
            raise fail("value too great for base")
        value = value * base + d
    return wrap(value)


# binary operator -> precedence (higher binds tighter)
_BINARY = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
    "*": 10, "/": 10, "%": 10, "**": 11,
}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "**="}

if TYPE_CHECKING:
    from typing import NoReturn, Protocol
    from ..api import Key

    class ArithEnv(Protocol):
        """The variable store an expression reads and writes (the shell's: eval/variables.py)."""

        #: how deep the evaluation of variables holding expressions has gone
        arith_depth: int
        #: the target's value while a compound assignment (``x += 1``) computes
        arith_current: int

        def arith_get(self, name: str, index: Key | None) -> str: ...

        def arith_set(self, name: str, index: Key | None, value: int) -> None: ...

        def arith_step(self, name: str, delta: int) -> int | None: ...

        def arith_key(self, name: str, raw: str) -> Key: ...

Evaluator = Callable[["ArithEnv"], int]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens, self.starts = _tokenize(text)
        self.pos = 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos]

    def take(self) -> tuple[str, str]:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def fail(self, message: str = "syntax error: operand expected") -> NoReturn:
        # bash names the text from the failing token on; at the end, from the last token on
        at = min(self.pos, len(self.tokens) - 1)
        if self.tokens[at][0] == "end" and at > 0:
            at -= 1
        raise ArithError(self.text, message, self.text[self.starts[at]:])

    def parse(self) -> Evaluator:
        if self.peek()[0] == "end":
            return lambda env: 0
        fn = self.comma()
        if self.peek()[0] != "end":
            self.fail("syntax error in expression")
        return fn

    def comma(self) -> Evaluator:
        fn = self.assign()
        while self.peek() == ("op", ","):
            self.take()
            left, right = fn, self.assign()

            def fn(env, left=left, right=right):
                left(env)
                return right(env)
        return fn

    def assign(self) -> Evaluator:
        start = self.pos
        kind, value = self.peek()
        if kind == "name":
            name = value
            self.take()
            index = self._index()
            op = self.peek()
            if op[0] == "op" and op[1] in _ASSIGN:
                self.take()
                rhs = self.assign()
                return _make_assign(name, index, op[1], rhs, self.text)
            self.pos = start
        return self.ternary()

    def ternary(self) -> Evaluator:
        cond = self.binary(1)
        if self.peek() == ("op", "?"):
            self.take()
            yes = self.comma()
            if self.take() != ("op", ":"):
                self.fail("syntax error: `:' expected for conditional expression")
            no = self.assign_or_ternary()
            return lambda env: yes(env) if cond(env) else no(env)
        return cond

    def assign_or_ternary(self) -> Evaluator:
        return self.assign()

    def binary(self, min_prec: int) -> Evaluator:
        left = self.unary()
        while True:
            kind, op = self.peek()
            prec = _BINARY.get(op) if kind == "op" else None
            if prec is None or prec < min_prec:
                return left
            self.take()
            # ** is right-associative
            right = self.binary(prec if op == "**" else prec + 1)
            left = _make_binary(op, left, right, self.text)

    def unary(self) -> Evaluator:
        kind, op = self.peek()
        if kind == "op":
            if op in ("++", "--"):
                self.take()
                k, name = self.take()
                if k != "name":
                    self.fail()
                index = self._index()
                delta = 1 if op == "++" else -1

                def pre(env, name=name, index=index, delta=delta):
                    idx = _resolve_index(env, name, index)
                    value = wrap(_value(env, name, idx, self.text) + delta)
                    env.arith_set(name, idx, value)
                    return value
                return pre
            if op in ("-", "+", "!", "~"):
                self.take()
                operand = self.unary()
                if op == "-":
                    return lambda env: wrap(-operand(env))
                if op == "+":
                    return operand
                if op == "!":
                    return lambda env: 0 if operand(env) else 1
                return lambda env: wrap(~operand(env))
        return self.postfix()

    def _index(self) -> str | None:
        kind, raw = self.peek()
        if kind == "sub":
            self.take()
            return raw
        return None

    def postfix(self) -> Evaluator:
        kind, value = self.take()
        if kind == "num":
            return _constant(parse_number(value, self.text))
        if kind == "op" and value == "(":
            inner = self.comma()
            if self.take() != ("op", ")"):
                self.pos -= 1
                self.fail("missing `)'")
            return inner
        if kind == "name":
            name = value
            index = self._index()
            nk, nv = self.peek()
            if nk == "op" and nv in ("++", "--"):
                self.take()
                delta = 1 if nv == "++" else -1

                text = self.text
                if index is None:
                    def post_scalar(env) -> int:
                        # i++ of a variable: the store's own step (a loop's), else _value's
                        # decimal case inline
                        old = env.arith_step(name, delta)
                        if old is not None:
                            return old
                        raw = env.arith_get(name, None)
                        if raw.isdigit() and raw.isascii() and (raw[0] != "0" or len(raw) == 1):
                            old = int(raw)
                            if old >= SIGN:
                                old = wrap(old)
                        else:
                            old = _value(env, name, None, text)
                        new = old + delta
                        env.arith_set(name, None, new if _LOW <= new < SIGN else wrap(new))
                        return old
                    return post_scalar

                def post(env, name=name, index=index, delta=delta):
                    idx = env.arith_key(name, index)
                    old = _value(env, name, idx, text)
                    env.arith_set(name, idx, wrap(old + delta))
                    return old
                return post
            text = self.text
            if index is None:
                def variable(env) -> int:
                    n = env.arith_number(name)  # the commonest value: a plain decimal number
                    return n if n is not None else _value(env, name, None, text)
                return variable
            return lambda env: _value(env, name, _resolve_index(env, name, index), text)
        self.pos -= 1
        self.fail()


def _resolve_index(env: ArithEnv, name: str, index: str | None) -> Key | None:
    """The element a subscript names: the store evaluates it (an index) or expands it (a key)."""
    if index is None:
        return None
    return env.arith_key(name, index)


def _value(env: ArithEnv, name: str, index: Key | None, expr: str) -> int:
    raw = env.arith_get(name, index)
    if not raw:
        return 0
    if raw.isdigit() and raw.isascii() and (raw[0] != "0" or len(raw) == 1):
        n = int(raw)  # the commonest value: a plain decimal number
        return n if n < SIGN else wrap(n)
    raw = raw.strip()
    if isdigits(raw) and (raw[0] != "0" or len(raw) == 1):
        return wrap(int(raw))
    if raw[:1] == "-" and isdigits(raw[1:]) and raw[1:2] != "0":
        return wrap(int(raw))
    depth = getattr(env, "arith_depth", 0)
    if depth > 1000:
        raise ArithError(expr, "expression recursion level exceeded", name)
    env.arith_depth = depth + 1
    try:
        return evaluate(raw, env)
    finally:
        env.arith_depth = depth


def _constant(n: int) -> Evaluator:
    """A number in the expression (``constant`` says which: operators fold it in)."""
    def constant(env) -> int:
        return n
    constant.value = n  # type: ignore[attr-defined]
    return constant


_LOW = -SIGN


def _make_binary(op: str, left: Evaluator, right: Evaluator, text: str) -> Evaluator:
    # a result in range needs no wrap (the commonest case: the comparison is cheaper than a call)
    c = getattr(right, "value", None)
    if op == "+":
        if c is not None:
            def add_constant(env) -> int:
                r = left(env) + c
                return r if _LOW <= r < SIGN else wrap(r)
            return add_constant

        def add(env) -> int:
            r = left(env) + right(env)
            return r if _LOW <= r < SIGN else wrap(r)
        return add
    if op == "-":
        def subtract(env) -> int:
            r = left(env) - right(env)
            return r if _LOW <= r < SIGN else wrap(r)
        return subtract
    if op == "*":
        if c is not None:
            def multiply_constant(env) -> int:
                r = left(env) * c
                return r if _LOW <= r < SIGN else wrap(r)
            return multiply_constant

        def multiply(env) -> int:
            r = left(env) * right(env)
            return r if _LOW <= r < SIGN else wrap(r)
        return multiply
    if op in ("/", "%") and c is not None and c > 0:
        # a positive constant divisor: no division by 0, C's truncation toward 0 by hand
        if op == "%":
            def remainder_constant(env) -> int:
                a = left(env)
                return a % c if a >= 0 else -(-a % c)
            return remainder_constant

        def divide_constant(env) -> int:
            a = left(env)
            return a // c if a >= 0 else -(-a // c)
        return divide_constant
    if op in ("/", "%"):
        def div(env):
            a = left(env)
            b = right(env)
            if b == 0:
                raise ArithError(text, "division by 0", _last_operand(text))
            q = abs(a) // abs(b)
            if (a < 0) != (b < 0):
                q = -q
            return wrap(q) if op == "/" else wrap(a - q * b)
        return div
    if op == "**":
        def power(env):
            a = left(env)
            b = right(env)
            if b < 0:
                raise ArithError(text, "exponent less than 0", str(b))
            return wrap(pow(a, b, 1 << 64))
        return power
    if op == "<<":
        return lambda env: wrap(left(env) << (right(env) & 63))
    if op == ">>":
        return lambda env: left(env) >> (right(env) & 63)
    if op == "&":
        return lambda env: left(env) & right(env)
    if op == "|":
        return lambda env: left(env) | right(env)
    if op == "^":
        return lambda env: left(env) ^ right(env)
    if op == "&&":
        return lambda env: 1 if left(env) and right(env) else 0
    if op == "||":
        return lambda env: 1 if left(env) or right(env) else 0
    if c is not None:
        # a comparison with a constant (a loop's i < 100): one call less
        if op == "==":
            return lambda env: 1 if left(env) == c else 0
        if op == "!=":
            return lambda env: 1 if left(env) != c else 0
        if op == "<":
            return lambda env: 1 if left(env) < c else 0
        if op == ">":
            return lambda env: 1 if left(env) > c else 0
        if op == "<=":
            return lambda env: 1 if left(env) <= c else 0
        if op == ">=":
            return lambda env: 1 if left(env) >= c else 0
    if op == "==":
        return lambda env: 1 if left(env) == right(env) else 0
    if op == "!=":
        return lambda env: 1 if left(env) != right(env) else 0
    if op == "<":
        return lambda env: 1 if left(env) < right(env) else 0
    if op == ">":
        return lambda env: 1 if left(env) > right(env) else 0
    if op == "<=":
        return lambda env: 1 if left(env) <= right(env) else 0
    if op == ">=":
        return lambda env: 1 if left(env) >= right(env) else 0
    raise ArithError(text, "syntax error in expression", op)


def _last_operand(text: str) -> str:
    m = re.search(r"[/%]\s*([^/%]*)$", text)
    return m.group(1).lstrip() if m else text


def _make_assign(name: str, index, op: str, rhs: Evaluator, text: str) -> Evaluator:
    if op == "=":
        def assign(env):
            idx = _resolve_index(env, name, index)
            value = rhs(env)
            env.arith_set(name, idx, value)
            return value
        return assign
    binop = _make_binary(op[:-1], lambda env: env.arith_current, rhs, text)

    def update(env):
        idx = _resolve_index(env, name, index)
        env.arith_current = _value(env, name, idx, text)
        value = binop(env)
        env.arith_set(name, idx, value)
        return value
    return update


_CACHE: dict[str, Evaluator] = {}


def compile_expr(text: str) -> Evaluator:
    fn = _CACHE.get(text)
    if fn is None:
        fn = _Parser(text).parse()
        if len(_CACHE) > 5000:
            _CACHE.clear()
        _CACHE[text] = fn
    return fn


def evaluate(text: str, env: ArithEnv) -> int:
    """Evaluate ``text``; raises ArithError."""
    return compile_expr(text)(env)
