"""jq: a JSON processor implementing the jq language (paths, pipes, generators, reduce/foreach,
try/catch, label/break, def with closures, destructuring, assignment operators, regexes,
@formats, dates) with jq 1.6's output formatting, messages' shape and exit statuses."""
from __future__ import annotations

import base64
import calendar
import json
import math
import time as _time
from typing import Any, Iterator

import regex

from ..chars import isdigits
from ..vfs import FSError
from .registry import CommandContext, command

# ============================================================================ values

DBL_MAX = 1.7976931348623157e+308


class JqError(Exception):
    """A jq runtime error carrying the error value (usually a message string)."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value


class BreakOut(Exception):
    def __init__(self, label: object) -> None:
        super().__init__()
        self.label = label


class HaltSignal(Exception):
    def __init__(self, status: int, message: Any = None, has_message: bool = False) -> None:
        super().__init__(status)
        self.status = status
        self.message = message
        self.has_message = has_message


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if v is True or v is False:
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def format_number(x: float) -> str:
    """jq 1.6's number text: shortest round-trip digits, exponent outside a fixed window."""
    x = float(x)
    if x != x:
        return "null"
    if x > DBL_MAX:
        x = DBL_MAX
    elif x < -DBL_MAX:
        x = -DBL_MAX
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    text = repr(abs(x))
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    lead_zeros = len(whole + frac) - len((whole + frac).lstrip("0"))
    decpt = len(whole) + (int(exp) if exp else 0) - lead_zeros
    digits = digits.rstrip("0") or "0"
    sign = "-" if x < 0 else ""
    n = len(digits)
    if decpt <= -4 or decpt > n + 15:
        e = decpt - 1
        body = digits[0] + ("." + digits[1:] if n > 1 else "")
        return f"{sign}{body}e{'-' if e < 0 else '+'}{abs(e):02d}"
    if decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    if decpt >= n:
        return f"{sign}{digits}{'0' * (decpt - n)}"
    return f"{sign}{digits[:decpt]}.{digits[decpt:]}"


def _escape_string(s: str, ascii_only: bool = False) -> str:
    text = json.dumps(s, ensure_ascii=ascii_only)
    return text.replace("\x7f", "\\u007f")


def dump(v: Any, indent: int | str = 0, sort_keys: bool = False, ascii_only: bool = False,
         level: int = 0) -> str:
    """JSON text the way jq prints it (indent 0 = compact)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return format_number(v)
    if isinstance(v, str):
        return _escape_string(v, ascii_only)
    pad = indent if isinstance(indent, str) else " " * indent
    if isinstance(v, list):
        if not v:
            return "[]"
        if not pad:
            return "[" + ",".join(dump(x, indent, sort_keys, ascii_only) for x in v) + "]"
        inner = pad * (level + 1)
        return "[\n" + ",\n".join(inner + dump(x, indent, sort_keys, ascii_only, level + 1) for x in v) \
            + "\n" + pad * level + "]"
    if not v:
        return "{}"
    keys = sorted(v) if sort_keys else list(v)
    if not pad:
        return "{" + ",".join(_escape_string(k, ascii_only) + ":" + dump(v[k], indent, sort_keys, ascii_only)
                              for k in keys) + "}"
    inner = pad * (level + 1)
    return "{\n" + ",\n".join(inner + _escape_string(k, ascii_only) + ": " +
                              dump(v[k], indent, sort_keys, ascii_only, level + 1) for k in keys) \
        + "\n" + pad * level + "}"


def _short(v: Any) -> str:
    """A value abbreviated for error messages, as jq does."""
    text = dump(v)
    if len(text) > 14:
        text = text[:11] + "..."
    return text


def _desc(v: Any) -> str:
    return f"{type_name(v)} ({_short(v)})"


def sort_key(v: Any):
    if v is None:
        return (0,)
    if v is False:
        return (1,)
    if v is True:
        return (2,)
    if isinstance(v, (int, float)):
        return (3, v if v == v else -math.inf)
    if isinstance(v, str):
        return (4, v)
    if isinstance(v, list):
        return (5, tuple(sort_key(x) for x in v))
    keys = sorted(v)
    return (6, tuple(keys), tuple(sort_key(v[k]) for k in keys))


def equal(a: Any, b: Any) -> bool:
    return sort_key(a) == sort_key(b)


def truthy(v: Any) -> bool:
    return not (v is None or v is False)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# ============================================================================ lexer

class JqSyntaxError(Exception):
    pass


KEYWORDS = {"def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try",
            "catch", "label", "import", "include", "and", "or", "__loc__"}
_OPS = ["?//", "|=", "+=", "-=", "*=", "/=", "%=", "//=", "==", "!=", "<=", ">=", "//", "..",
        "|", ",", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]", "{", "}", ":",
        ";", "?", "."]


class Token:
    __slots__ = ("kind", "value", "pos")

    def __init__(self, kind: str, value: Any, pos: int) -> None:
        self.kind = kind
        self.value = value
        self.pos = pos

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.value!r})"


def _scan_string(src: str, i: int) -> tuple[list, int]:
    """Parse a string literal starting at the quote; -> (parts, end index). Parts are str or
    ('interp', source) for \\( ... )."""
    assert src[i] == '"'
    i += 1
    parts: list = []
    buf: list[str] = []
    while True:
        if i >= len(src):
            raise JqSyntaxError("unterminated string literal")
        ch = src[i]
        if ch == '"':
            if buf or not parts:
                parts.append("".join(buf))
            return parts, i + 1
        if ch == "\\":
            nxt = src[i + 1:i + 2]
            if nxt == "(":
                if buf:
                    parts.append("".join(buf))
                    buf = []
                depth = 1
                j = i + 2
                while depth:
                    if j >= len(src):
                        raise JqSyntaxError("unterminated string interpolation")
                    c = src[j]
                    if c == '"':
                        _, j = _scan_string(src, j)
                        continue
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                    j += 1
                parts.append(("interp", src[i + 2:j - 1]))
                i = j
                continue
            simple = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", '"': '"', "\\": "\\",
                      "/": "/"}
            if nxt in simple:
                buf.append(simple[nxt])
                i += 2
                continue
            if nxt == "u":
                hexits = src[i + 2:i + 6]
                try:
                    code = int(hexits, 16)
                except ValueError:
                    raise JqSyntaxError("invalid \\u escape") from None
                i += 6
                if 0xD800 <= code < 0xDC00 and src[i:i + 2] == "\\u":
                    try:
                        low = int(src[i + 2:i + 6], 16)
                    except ValueError:
                        low = 0
                    if 0xDC00 <= low < 0xE000:
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                buf.append(chr(code))
                continue
            raise JqSyntaxError(f"invalid escape \\{nxt}")
        buf.append(ch)
        i += 1


def tokenize(src: str) -> list[Token]:
    tokens = []
    i = 0
    n = len(src)
    while i < n:
        ch = src[i]
        if ch in " \t\r\n":
            i += 1
            continue
        if ch == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if ch == '"':
            parts, j = _scan_string(src, i)
            tokens.append(Token("STR", parts, i))
            i = j
            continue
        if isdigits(ch) or (ch == "." and i + 1 < n and isdigits(src[i + 1])):
            m = regex.match(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", src[i:])
            tokens.append(Token("NUM", float(m.group()), i))
            i += len(m.group())
            continue
        if ch.isalpha() or ch == "_":
            m = regex.match(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*", src[i:])
            word = m.group()
            tokens.append(Token("KW" if word in KEYWORDS else "IDENT", word, i))
            i += len(word)
            continue
        if ch == "$":
            m = regex.match(r"\$(__loc__|[A-Za-z_][A-Za-z0-9_]*)", src[i:])
            if not m:
                raise JqSyntaxError("unexpected '$'")
            tokens.append(Token("VAR", m.group(1), i))
            i += len(m.group())
            continue
        if ch == "@":
            m = regex.match(r"@([A-Za-z0-9_]+)", src[i:])
            if not m:
                raise JqSyntaxError("unexpected '@'")
            tokens.append(Token("FORMAT", m.group(1), i))
            i += len(m.group())
            continue
        if ch == "." and i + 1 < n and (src[i + 1].isalpha() or src[i + 1] == "_"):
            m = regex.match(r"\.([A-Za-z_][A-Za-z0-9_]*)", src[i:])
            tokens.append(Token("FIELD", m.group(1), i))
            i += len(m.group())
            continue
        for op in _OPS:
            if src.startswith(op, i):
                tokens.append(Token("OP", op, i))
                i += len(op)
                break
        else:
            raise JqSyntaxError(f"unexpected INVALID_CHARACTER '{ch}'")
    tokens.append(Token("EOF", None, n))
    return tokens


# ============================================================================ parser
# AST nodes are tuples: (kind, ...)

class Parser:
    def __init__(self, src: str) -> None:
        self.src = src
        self.tokens = tokenize(src)
        self.i = 0

    def peek(self, k: int = 0) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def next(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def at(self, kind: str, value: Any = None) -> bool:
        tok = self.peek()
        return tok.kind == kind and (value is None or tok.value == value)

    def at_op(self, *values: str) -> bool:
        tok = self.peek()
        return tok.kind == "OP" and tok.value in values

    def expect_op(self, value: str) -> None:
        tok = self.next()
        if tok.kind != "OP" or tok.value != value:
            raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}, expecting '{value}'")

    def expect_kw(self, value: str) -> None:
        tok = self.next()
        if tok.kind != "KW" or tok.value != value:
            raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}, expecting {value}")

    @staticmethod
    def _describe(tok: Token) -> str:
        if tok.kind == "EOF":
            return "$end"
        if tok.kind == "OP":
            return f"'{tok.value}'"
        if tok.kind == "IDENT":
            return f"IDENT {tok.value}"
        return f"{tok.kind} {tok.value!r}"

    def parse_program(self):
        node = self.parse_pipe()
        if not self.at("EOF"):
            raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}, expecting $end")
        return node

    def parse_pipe(self):
        if self.at("KW", "def"):
            fdef = self.parse_def()
            body = self.parse_pipe()
            return ("defs", fdef, body)
        lhs = self.parse_comma()
        if self.at_op("|"):
            self.next()
            return ("pipe", lhs, self.parse_pipe())
        return lhs

    def parse_def(self):
        self.expect_kw("def")
        tok = self.next()
        if tok.kind not in ("IDENT", "KW"):
            raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}, expecting IDENT")
        params = []
        if self.at_op("("):
            self.next()
            while True:
                p = self.next()
                if p.kind == "VAR":
                    params.append("$" + p.value)
                elif p.kind in ("IDENT", "KW"):
                    params.append(p.value)
                else:
                    raise JqSyntaxError(f"syntax error, unexpected {self._describe(p)}")
                if self.at_op(";"):
                    self.next()
                    continue
                self.expect_op(")")
                break
        self.expect_op(":")
        body = self.parse_pipe()
        self.expect_op(";")
        return (tok.value, tuple(params), body)

    def parse_comma(self):
        node = self.parse_alt()
        while self.at_op(","):
            self.next()
            node = ("comma", node, self.parse_alt())
        return node

    def parse_alt(self):
        lhs = self.parse_assign()
        if self.at_op("//"):
            self.next()
            return ("alt", lhs, self.parse_alt())
        return lhs

    def parse_assign(self):
        lhs = self.parse_or()
        if self.at_op("=", "|=", "+=", "-=", "*=", "/=", "%=", "//="):
            op = self.next().value
            rhs = self.parse_alt()
            return ("assign", op, lhs, rhs)
        return lhs

    def parse_or(self):
        node = self.parse_and()
        while self.at("KW", "or"):
            self.next()
            node = ("or", node, self.parse_and())
        return node

    def parse_and(self):
        node = self.parse_cmp()
        while self.at("KW", "and"):
            self.next()
            node = ("and", node, self.parse_cmp())
        return node

    def parse_cmp(self):
        node = self.parse_add()
        if self.at_op("==", "!=", "<", "<=", ">", ">="):
            op = self.next().value
            node = ("binop", op, node, self.parse_add())
            if self.at_op("==", "!=", "<", "<=", ">", ">="):
                raise JqSyntaxError(f"syntax error, unexpected '{self.peek().value}'")
        return node

    def parse_add(self):
        node = self.parse_mul()
        while self.at_op("+", "-"):
            op = self.next().value
            node = ("binop", op, node, self.parse_mul())
        return node

    def parse_mul(self):
        node = self.parse_unary()
        while self.at_op("*", "/", "%"):
            op = self.next().value
            rhs = self.parse_unary()
            # jq folds constant arithmetic at compile time and rejects a literal zero divisor
            if op == "/" and node[0] == "literal" and rhs[0] == "literal" \
                    and _num(node[1]) and rhs[1] == 0 and _num(rhs[1]):
                raise JqSyntaxError("Division by zero?")
            node = ("binop", op, node, rhs)
        return node

    def parse_unary(self):
        if self.at_op("-"):
            self.next()
            return ("neg", self.parse_unary())
        return self.parse_postfix()

    def parse_postfix(self):
        node = self.parse_postfix_no_as()
        if self.at("KW", "as"):
            self.next()
            patterns = [self.parse_pattern()]
            while self.at_op("?//"):
                self.next()
                patterns.append(self.parse_pattern())
            self.expect_op("|")
            body = self.parse_pipe()
            return ("as", node, patterns, body)
        return node

    def parse_bracket_suffix(self, node):
        self.expect_op("[")
        if self.at_op("]"):
            self.next()
            return ("iterate", node)
        if self.at_op(":"):
            self.next()
            hi = self.parse_pipe()
            self.expect_op("]")
            return ("slice", node, None, hi)
        idx = self.parse_pipe()
        if self.at_op(":"):
            self.next()
            hi = None if self.at_op("]") else self.parse_pipe()
            self.expect_op("]")
            return ("slice", node, idx, hi)
        self.expect_op("]")
        return ("index", node, idx)

    def parse_pattern(self):
        if self.at("VAR"):
            return ("pvar", self.next().value)
        if self.at_op("["):
            self.next()
            elems = []
            if not self.at_op("]"):
                while True:
                    elems.append(self.parse_pattern())
                    if self.at_op(","):
                        self.next()
                        continue
                    break
            self.expect_op("]")
            return ("parray", elems)
        if self.at_op("{"):
            self.next()
            entries = []
            while True:
                if self.at("VAR"):
                    name = self.next().value
                    sub = None
                    if self.at_op(":"):
                        self.next()
                        sub = self.parse_pattern()
                    entries.append((("literal", name), name, sub))
                else:
                    if self.at("IDENT") or self.at("KW"):
                        key = ("literal", self.next().value)
                    elif self.at("STR"):
                        key = self.parse_string_literal(None)
                    elif self.at_op("("):
                        self.next()
                        key = self.parse_pipe()
                        self.expect_op(")")
                    else:
                        raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}")
                    self.expect_op(":")
                    entries.append((key, None, self.parse_pattern()))
                if self.at_op(","):
                    self.next()
                    continue
                break
            self.expect_op("}")
            return ("pobject", entries)
        raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}")

    def parse_string_literal(self, fmt: str | None):
        tok = self.next()
        parts = []
        for part in tok.value:
            if isinstance(part, tuple):
                parts.append(Parser(part[1]).parse_program())
            else:
                parts.append(part)
        if all(isinstance(p, str) for p in parts):
            return ("literal", "".join(parts))
        return ("string", parts, fmt)

    def parse_term(self):
        tok = self.peek()
        if tok.kind == "NUM":
            self.next()
            return ("literal", tok.value)
        if tok.kind == "STR":
            return self.parse_string_literal(None)
        if tok.kind == "FORMAT":
            self.next()
            if self.at("STR"):
                return self.parse_string_literal(tok.value)
            return ("format", tok.value)
        if tok.kind == "FIELD":
            self.next()
            return ("index", ("identity",), ("literal", tok.value))
        if tok.kind == "VAR":
            self.next()
            if tok.value == "__loc__":
                return ("literal", {"file": "<top-level>", "line": 1})
            return ("var", tok.value)
        if tok.kind == "KW":
            return self.parse_keyword_term(tok)
        if tok.kind == "IDENT" and tok.value == "break" and self.peek(1).kind == "VAR":
            self.next()
            return ("break", self.next().value)
        if tok.kind == "IDENT":
            self.next()
            args = []
            if self.at_op("("):
                self.next()
                while True:
                    args.append(self.parse_pipe())
                    if self.at_op(";"):
                        self.next()
                        continue
                    self.expect_op(")")
                    break
            return ("call", tok.value, tuple(args))
        if tok.kind == "OP":
            v = tok.value
            if v == ".":
                self.next()
                if self.at("STR"):
                    return ("index", ("identity",), self.parse_string_literal(None))
                return ("identity",)
            if v == "..":
                self.next()
                return ("call", "recurse", ())
            if v == "(":
                self.next()
                node = self.parse_pipe()
                self.expect_op(")")
                return ("paren", node)
            if v == "[":
                self.next()
                if self.at_op("]"):
                    self.next()
                    return ("literal_array",)
                node = self.parse_pipe()
                self.expect_op("]")
                return ("collect", node)
            if v == "{":
                return self.parse_object()
            if v == "-":
                self.next()
                return ("neg", self.parse_postfix())
        raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}")

    def parse_keyword_term(self, tok):
        kw = tok.value
        if kw == "if":
            self.next()
            cond = self.parse_pipe()
            self.expect_kw("then")
            then = self.parse_pipe()
            if self.at("KW", "elif"):
                # elif is an if nested in the else branch
                self.tokens[self.i] = Token("KW", "if", self.peek().pos)
                other = self.parse_keyword_term(self.peek())
                return ("if", cond, then, other)
            # jq 1.6 requires the else branch
            self.expect_kw("else")
            other = self.parse_pipe()
            self.expect_kw("end")
            return ("if", cond, then, other)
        if kw == "try":
            self.next()
            body = self.parse_postfix_no_as()
            handler = None
            if self.at("KW", "catch"):
                self.next()
                handler = self.parse_postfix_no_as()
            return ("try", body, handler)
        if kw in ("reduce", "foreach"):
            self.next()
            source = self.parse_postfix_no_as()
            self.expect_kw("as")
            pattern = self.parse_pattern()
            self.expect_op("(")
            init = self.parse_pipe()
            self.expect_op(";")
            update = self.parse_pipe()
            extract = None
            if kw == "foreach" and self.at_op(";"):
                self.next()
                extract = self.parse_pipe()
            self.expect_op(")")
            if kw == "reduce":
                return ("reduce", source, pattern, init, update)
            return ("foreach", source, pattern, init, update, extract)
        if kw == "label":
            self.next()
            name = self.next()
            if name.kind != "VAR":
                raise JqSyntaxError("syntax error, expecting label variable")
            self.expect_op("|")
            body = self.parse_pipe()
            return ("label", name.value, body)
        if kw == "def":
            fdef = self.parse_def()
            body = self.parse_pipe()
            return ("defs", fdef, body)
        if kw in ("and", "or", "__loc__"):
            raise JqSyntaxError(f"syntax error, unexpected {kw}")
        raise JqSyntaxError(f"syntax error, unexpected {kw}")

    def parse_postfix_no_as(self):
        node = self.parse_term()
        while True:
            if self.at("FIELD"):
                node = ("index", node, ("literal", self.next().value))
            elif self.at_op(".") and self.peek(1).kind == "STR":
                self.next()
                node = ("index", node, self.parse_string_literal(None))
            elif self.at_op(".") and self.peek(1).kind == "OP" and self.peek(1).value == "[":
                self.next()
                node = self.parse_bracket_suffix(node)
            elif self.at_op("["):
                node = self.parse_bracket_suffix(node)
            elif self.at_op("?"):
                self.next()
                node = ("try", node, None)
            else:
                return node

    def parse_object(self):
        self.expect_op("{")
        entries = []
        if self.at_op("}"):
            self.next()
            return ("object", entries)
        while True:
            tok = self.peek()
            if tok.kind == "VAR":
                self.next()
                entries.append((("literal", tok.value), ("var", tok.value)))
            else:
                if tok.kind in ("IDENT", "KW"):
                    self.next()
                    key = ("literal", tok.value)
                elif tok.kind == "NUM":
                    raise JqSyntaxError("syntax error, unexpected LITERAL, expecting '}'")
                elif tok.kind == "STR":
                    key = self.parse_string_literal(None)
                elif tok.kind == "FORMAT":
                    self.next()
                    key = self.parse_string_literal(tok.value) if self.at("STR") else ("format", tok.value)
                elif tok.kind == "OP" and tok.value == "(":
                    self.next()
                    key = self.parse_pipe()
                    self.expect_op(")")
                else:
                    raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}")
                if self.at_op(":"):
                    self.next()
                    value = self.parse_object_value()
                else:
                    if key[0] != "literal":
                        if key[0] == "string":
                            value = ("index", ("identity",), key)
                        else:
                            raise JqSyntaxError("syntax error, unexpected '}'")
                    else:
                        value = ("index", ("identity",), key)
                entries.append((key, value))
            if self.at_op(","):
                self.next()
                continue
            self.expect_op("}")
            return ("object", entries)

    def parse_object_value(self):
        """An object value: pipes of comma-free expressions (a comma ends the entry)."""
        node = self.parse_alt()
        while self.at_op("|"):
            self.next()
            node = ("pipe", node, self.parse_alt())
        return node


# ============================================================================ interpreter

class Env:
    """Variables and function definitions, chained to the enclosing scope."""

    __slots__ = ("vars", "funcs", "parent")

    def __init__(self, parent: "Env | None" = None) -> None:
        self.vars: dict[str, Any] = {}
        self.funcs: dict[tuple[str, int], Any] = {}
        self.parent = parent

    def lookup_var(self, name: str):
        env = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        raise KeyError(name)

    def lookup_func(self, key):
        env = self
        while env is not None:
            f = env.funcs.get(key)
            if f is not None:
                return f
            env = env.parent
        return None

    def child(self) -> "Env":
        return Env(self)


class Closure:
    """A user function: parameters, body, and the scope it was defined in."""

    __slots__ = ("name", "params", "body", "env")

    def __init__(self, name, params, body, env) -> None:
        self.name = name
        self.params = params
        self.body = body
        self.env = env


class FilterArg:
    """A filter passed as an argument: evaluated in the caller's scope."""

    __slots__ = ("node", "env")

    def __init__(self, node, env) -> None:
        self.node = node
        self.env = env


class Interpreter:
    def __init__(self, ctx_env: dict[str, str], inputs: "InputSource", stderr_lines: list) -> None:
        self.environ = ctx_env
        self.inputs = inputs
        self.stderr_lines = stderr_lines
        self.steps = 0
        self.check = None

    def tick(self) -> None:
        """Count work in loops that do not go through eval (native builtins), so an
        interrupt or the wall-time limit can stop them."""
        self.steps += 1
        if self.check is not None and self.steps % 4096 == 0:
            self.check()

    # ---------------------------------------------------------------- evaluation
    def eval(self, node, inp, env: Env) -> Iterator[Any]:
        kind = node[0]
        self.steps += 1
        if self.check is not None and self.steps % 4096 == 0:
            self.check()
        if kind == "identity":
            yield inp
        elif kind == "literal":
            yield node[1]
        elif kind == "literal_array":
            yield []
        elif kind == "paren":
            yield from self.eval(node[1], inp, env)
        elif kind == "pipe":
            for v in self.eval(node[1], inp, env):
                yield from self.eval(node[2], v, env)
        elif kind == "comma":
            yield from self.eval(node[1], inp, env)
            yield from self.eval(node[2], inp, env)
        elif kind == "index":
            for target in self.eval(node[1], inp, env):
                for key in self.eval(node[2], inp, env):
                    yield index_value(target, key)
        elif kind == "slice":
            for target in self.eval(node[1], inp, env):
                for hi in (self.eval(node[3], inp, env) if node[3] is not None else [None]):
                    for lo in (self.eval(node[2], inp, env) if node[2] is not None else [None]):
                        yield slice_value(target, lo, hi)
        elif kind == "iterate":
            for target in self.eval(node[1], inp, env):
                yield from iterate_value(target)
        elif kind == "collect":
            yield list(self.eval(node[1], inp, env))
        elif kind == "object":
            yield from self.build_object(node[1], 0, {}, inp, env)
        elif kind == "neg":
            for v in self.eval(node[1], inp, env):
                if not _num(v):
                    raise JqError(f"{_desc(v)} cannot be negated")
                yield -v
        elif kind == "binop":
            op = node[1]
            for rhs in self.eval(node[3], inp, env):
                for lhs in self.eval(node[2], inp, env):
                    yield binop(op, lhs, rhs)
        elif kind == "and":
            for lhs in self.eval(node[1], inp, env):
                if not truthy(lhs):
                    yield False
                    continue
                for rhs in self.eval(node[2], inp, env):
                    yield truthy(rhs)
        elif kind == "or":
            for lhs in self.eval(node[1], inp, env):
                if truthy(lhs):
                    yield True
                    continue
                for rhs in self.eval(node[2], inp, env):
                    yield truthy(rhs)
        elif kind == "alt":
            found = False
            try:
                for v in self.eval(node[1], inp, env):
                    if truthy(v):
                        found = True
                        yield v
            except JqError:
                pass
            if not found:
                yield from self.eval(node[2], inp, env)
        elif kind == "if":
            for cond in self.eval(node[1], inp, env):
                if truthy(cond):
                    yield from self.eval(node[2], inp, env)
                elif node[3] is not None:
                    yield from self.eval(node[3], inp, env)
                else:
                    yield inp
        elif kind == "try":
            try:
                for v in self.eval(node[1], inp, env):
                    yield v
            except JqError as e:
                if node[2] is not None:
                    if e.value == "__jq_break__":
                        raise
                    yield from self.eval(node[2], e.value, env)
        elif kind == "var":
            try:
                yield env.lookup_var(node[1])
            except KeyError:
                if node[1] == "ENV":
                    yield dict(self.environ)
                else:
                    raise JqError(f"${node[1]} is not defined") from None
        elif kind == "string":
            yield from self.interpolate(node[1], node[2], 0, "", inp, env)
        elif kind == "format":
            yield apply_format(node[1], inp)
        elif kind == "as":
            for value in self.eval(node[1], inp, env):
                yield from self.bind_patterns(node[2], value, inp, env, node[3])
        elif kind == "reduce":
            _, source, pattern, init, update = node
            for acc in self.eval(init, inp, env):
                for value in self.eval(source, inp, env):
                    for scope in self.destructure(pattern, value, inp, env):
                        last = None
                        have = False
                        for out in self.eval(update, acc, scope):
                            last = out
                            have = True
                        acc = last if have else None
                yield acc
        elif kind == "foreach":
            _, source, pattern, init, update, extract = node
            for acc in self.eval(init, inp, env):
                for value in self.eval(source, inp, env):
                    for scope in self.destructure(pattern, value, inp, env):
                        for out in self.eval(update, acc, scope):
                            acc = out
                            if extract is None:
                                yield out
                            else:
                                yield from self.eval(extract, out, scope)
        elif kind == "label":
            token = object()
            scope = env.child()
            scope.vars["*label*" + node[1]] = token
            try:
                yield from self.eval(node[2], inp, scope)
            except BreakOut as b:
                if b.label is not token:
                    raise
        elif kind == "defs":
            name, params, body = node[1]
            scope = env.child()
            scope.funcs[(name, len(params))] = Closure(name, params, body, scope)
            yield from self.eval(node[2], inp, scope)
        elif kind == "call":
            yield from self.call(node[1], node[2], inp, env)
        elif kind == "break":
            try:
                token = env.lookup_var("*label*" + node[1])
            except KeyError:
                raise JqError(f"$*label-{node[1]} is not defined") from None
            raise BreakOut(token)
        elif kind == "assign":
            yield from self.assign(node[1], node[2], node[3], inp, env)
        else:
            raise JqError(f"unknown node {kind}")

    def build_object(self, entries, i, acc, inp, env):
        if i == len(entries):
            yield dict(acc)
            return
        key_node, value_node = entries[i]
        for key in self.eval(key_node, inp, env):
            if not isinstance(key, str):
                raise JqError("Object keys must be strings")
            for value in self.eval(value_node, inp, env):
                nxt = dict(acc)
                nxt[key] = value
                yield from self.build_object(entries, i + 1, nxt, inp, env)

    def interpolate(self, parts, fmt, i, acc, inp, env):
        if i == len(parts):
            yield acc
            return
        part = parts[i]
        if isinstance(part, str):
            yield from self.interpolate(parts, fmt, i + 1, acc + part, inp, env)
            return
        for v in self.eval(part, inp, env):
            text = apply_format(fmt, v) if fmt else (v if isinstance(v, str) else dump(v))
            yield from self.interpolate(parts, fmt, i + 1, acc + text, inp, env)

    # ---------------------------------------------------------------- patterns
    def bind_patterns(self, patterns, value, inp, env, body):
        if len(patterns) == 1:
            for scope in self.destructure(patterns[0], value, inp, env):
                yield from self.eval(body, inp, scope)
            return
        # ?// alternatives: the first pattern whose body does not error
        all_vars = set()
        for p in patterns:
            all_vars |= _pattern_vars(p)
        for n, p in enumerate(patterns):
            try:
                for scope in self.destructure(p, value, inp, env):
                    for name in all_vars:
                        scope.vars.setdefault(name, None)
                    yield from self.eval(body, inp, scope)
                return
            except JqError:
                if n == len(patterns) - 1:
                    raise

    def destructure(self, pattern, value, inp, env) -> Iterator[Env]:
        kind = pattern[0]
        if kind == "pvar":
            scope = env.child()
            scope.vars[pattern[1]] = value
            yield scope
        elif kind == "parray":
            yield from self._destructure_seq(
                [(("literal", float(i)), None, sub) for i, sub in enumerate(pattern[1])], value, inp, env, 0)
        else:
            yield from self._destructure_seq(pattern[1], value, inp, env, 0)

    def _destructure_seq(self, entries, value, inp, env, i):
        if i == len(entries):
            yield env
            return
        key_node, var_name, sub = entries[i]
        for key in self.eval(key_node, inp, env):
            if value is not None and not isinstance(value, (list, dict)):
                raise JqError(f"Cannot index {type_name(value)} with "
                              f"{'number' if _num(key) else 'string ' + json.dumps(key)}")
            item = index_value(value, key)
            scope = env
            if var_name is not None:
                scope = env.child()
                scope.vars[var_name] = item
            if sub is None:
                yield from self._destructure_seq(entries, value, inp, scope, i + 1)
            else:
                for inner in self.destructure(sub, item, inp, scope):
                    yield from self._destructure_seq(entries, value, inp, inner, i + 1)

    # ---------------------------------------------------------------- functions
    def call(self, name, args, inp, env):
        arity = len(args)
        fn = env.lookup_func((name, arity))
        if isinstance(fn, FilterArg):
            yield from self.eval(fn.node, inp, fn.env)
            return
        if isinstance(fn, Closure):
            yield from self.call_closure(fn, args, inp, env)
            return
        native = NATIVE.get((name, arity))
        if native is not None:
            yield from native(self, args, inp, env)
            return
        raise JqError(f"{name}/{arity} is not defined")

    def call_closure(self, fn: Closure, args, inp, env):
        scope = fn.env.child()
        scope.funcs[(fn.name, len(fn.params))] = fn
        value_params = []
        for param, arg in zip(fn.params, args):
            if param.startswith("$"):
                value_params.append((param[1:], arg))
                # a $param is also callable as a filter
                scope.funcs[(param[1:], 0)] = FilterArg(arg, env)
            else:
                scope.funcs[(param, 0)] = FilterArg(arg, env)
        if not value_params:
            yield from self.eval(fn.body, inp, scope)
            return
        yield from self._bind_values(value_params, 0, scope, fn.body, inp, env)

    def _bind_values(self, params, i, scope, body, inp, env):
        if i == len(params):
            yield from self.eval(body, inp, scope)
            return
        name, arg = params[i]
        for value in self.eval(arg, inp, env):
            inner = scope.child()
            inner.vars[name] = value
            yield from self._bind_values(params, i + 1, inner, body, inp, env)

    # ---------------------------------------------------------------- paths
    def paths(self, node, inp, env, base=()) -> Iterator[tuple[tuple, Any]]:
        """(path, value) pairs of a path expression applied to ``inp`` (at ``base``)."""
        kind = node[0]
        if kind == "identity":
            yield base, inp
        elif kind == "paren":
            yield from self.paths(node[1], inp, env, base)
        elif kind == "pipe":
            for p, v in self.paths(node[1], inp, env, base):
                yield from self.paths(node[2], v, env, p)
        elif kind == "comma":
            yield from self.paths(node[1], inp, env, base)
            yield from self.paths(node[2], inp, env, base)
        elif kind == "index":
            for p, target in self.paths(node[1], inp, env, base):
                for key in self.eval(node[2], inp, env):
                    if isinstance(key, list):
                        raise JqError("Cannot update field at object index of array")
                    yield p + (key,), index_value(target, key)
        elif kind == "slice":
            for p, target in self.paths(node[1], inp, env, base):
                for hi in (self.eval(node[3], inp, env) if node[3] is not None else [None]):
                    for lo in (self.eval(node[2], inp, env) if node[2] is not None else [None]):
                        yield p + ({"start": lo, "end": hi},), slice_value(target, lo, hi)
        elif kind == "iterate":
            for p, target in self.paths(node[1], inp, env, base):
                if isinstance(target, list):
                    for i, v in enumerate(target):
                        yield p + (float(i),), v
                elif isinstance(target, dict):
                    for k, v in target.items():
                        yield p + (k,), v
                elif target is None:
                    continue
                else:
                    raise JqError(f"Cannot iterate over {_desc(target)}")
        elif kind == "if":
            for cond in self.eval(node[1], inp, env):
                if truthy(cond):
                    yield from self.paths(node[2], inp, env, base)
                elif node[3] is not None:
                    yield from self.paths(node[3], inp, env, base)
                else:
                    yield base, inp
        elif kind == "alt":
            found = False
            try:
                for p, v in self.paths(node[1], inp, env, base):
                    if truthy(v):
                        found = True
                        yield p, v
            except JqError:
                pass
            if not found:
                yield from self.paths(node[2], inp, env, base)
        elif kind == "try":
            try:
                for pv in self.paths(node[1], inp, env, base):
                    yield pv
            except JqError as e:
                if node[2] is not None:
                    raise JqError("Invalid path expression") from e
        elif kind == "as":
            for value in self.eval(node[1], inp, env):
                for scope in self.destructure(node[2][0], value, inp, env):
                    yield from self.paths(node[3], inp, scope, base)
        elif kind == "defs":
            name, params, body = node[1]
            scope = env.child()
            scope.funcs[(name, len(params))] = Closure(name, params, body, scope)
            yield from self.paths(node[2], inp, scope, base)
        elif kind == "label":
            token = object()
            scope = env.child()
            scope.vars["*label*" + node[1]] = token
            try:
                yield from self.paths(node[2], inp, scope, base)
            except BreakOut as b:
                if b.label is not token:
                    raise
        elif kind == "reduce":
            _, source, pattern, init, update = node
            for acc_path, acc in self.paths(init, inp, env, base):
                for value in self.eval(source, inp, env):
                    for scope in self.destructure(pattern, value, inp, env):
                        last = None
                        for pv in self.paths(update, acc, scope, acc_path):
                            last = pv
                        if last is None:
                            acc_path, acc = base, None
                        else:
                            acc_path, acc = last
                yield acc_path, acc
        elif kind == "call":
            yield from self.call_paths(node[1], node[2], inp, env, base)
        elif kind == "literal" and node[1] is None:
            yield base, None
        else:
            value = next(iter(self.eval(node, inp, env)), None)
            raise JqError(f"Invalid path expression with result {_short(value)}")

    def call_paths(self, name, args, inp, env, base):
        arity = len(args)
        fn = env.lookup_func((name, arity))
        if isinstance(fn, FilterArg):
            yield from self.paths(fn.node, inp, fn.env, base)
            return
        if isinstance(fn, Closure):
            scope = fn.env.child()
            scope.funcs[(fn.name, arity)] = fn
            binds = []
            for param, arg in zip(fn.params, args):
                if param.startswith("$"):
                    binds.append((param[1:], arg))
                    scope.funcs[(param[1:], 0)] = FilterArg(arg, env)
                else:
                    scope.funcs[(param, 0)] = FilterArg(arg, env)
            yield from self._paths_bind(binds, 0, scope, fn.body, inp, env, base)
            return
        native = NATIVE_PATHS.get((name, arity))
        if native is not None:
            yield from native(self, args, inp, env, base)
            return
        if (name, arity) in NATIVE:
            value = next(iter(NATIVE[(name, arity)](self, args, inp, env)), None)
            raise JqError(f"Invalid path expression with result {_short(value)}")
        raise JqError(f"{name}/{arity} is not defined")

    def _paths_bind(self, binds, i, scope, body, inp, env, base):
        if i == len(binds):
            yield from self.paths(body, inp, scope, base)
            return
        name, arg = binds[i]
        for value in self.eval(arg, inp, env):
            inner = scope.child()
            inner.vars[name] = value
            yield from self._paths_bind(binds, i + 1, inner, body, inp, env, base)

    def path_list(self, node, inp, env) -> list[tuple]:
        return [p for p, _ in self.paths(node, inp, env)]

    def iter_paths(self, node, inp, env):
        return self.paths(node, inp, env)

    # ---------------------------------------------------------------- assignment
    def assign(self, op, lhs, rhs, inp, env):
        if op == "|=":
            result = inp
            for p in self.path_list(lhs, inp, env):
                old = getpath(result, p)
                new = next(iter(self.eval(rhs, old, env)), _MISSING)
                if new is _MISSING:
                    result = delpaths(result, [p])
                else:
                    result = setpath(result, p, new)
            yield result
            return
        for value in self.eval(rhs, inp, env):
            result = inp
            for p in self.path_list(lhs, inp, env):
                if op == "=":
                    result = setpath(result, p, value)
                elif op == "//=":
                    old = getpath(result, p)
                    result = setpath(result, p, old if truthy(old) else value)
                else:
                    result = setpath(result, p, binop(op[0], getpath(result, p), value))
            yield result


_MISSING = object()


def _pattern_vars(pattern) -> set:
    kind = pattern[0]
    if kind == "pvar":
        return {pattern[1]}
    if kind == "parray":
        out = set()
        for sub in pattern[1]:
            out |= _pattern_vars(sub)
        return out
    out = set()
    for _key, var, sub in pattern[1]:
        if var:
            out.add(var)
        if sub is not None:
            out |= _pattern_vars(sub)
    return out


# ============================================================================ value operations

def _int_index(key: float) -> int | None:
    if not math.isfinite(key):
        return None
    if key != int(key):
        return None
    return int(key)


def index_value(target: Any, key: Any) -> Any:
    if isinstance(key, str):
        if isinstance(target, dict):
            return target.get(key)
        if target is None:
            return None
        raise JqError(f"Cannot index {type_name(target)} with \"{key}\"")
    if _num(key):
        if isinstance(target, list):
            i = _int_index(key)
            if i is None:
                return None
            if i < 0:
                i += len(target)
            return target[i] if 0 <= i < len(target) else None
        if target is None:
            return None
        raise JqError(f"Cannot index {type_name(target)} with number")
    if isinstance(key, dict) and (target is None or isinstance(target, (list, str))):
        return slice_value(target, key.get("start"), key.get("end"))
    if isinstance(key, list) and isinstance(target, list):
        return _indices(target, key)
    if key is None and isinstance(target, dict):
        raise JqError("Cannot index object with null")
    raise JqError(f"Cannot index {type_name(target)} with {type_name(key)}")


def _indices(seq: list, sub: list) -> Any:
    if not sub:
        return None
    out = []
    for i in range(len(seq) - len(sub) + 1):
        if all(equal(seq[i + k], sub[k]) for k in range(len(sub))):
            out.append(float(i))
    return out


def _slice_bounds(length: int, lo: Any, hi: Any) -> tuple[int, int]:
    def conv(v, default):
        if v is None:
            return default
        if not _num(v):
            raise JqError("Start and end indices of an array slice must be numbers")
        v = math.floor(v) if v == v else 0
        if v < 0:
            v += length
        return max(0, min(length, int(v)))
    start = conv(lo, 0)
    end = conv(hi, length)
    return start, max(start, end)


def slice_value(target: Any, lo: Any, hi: Any) -> Any:
    if target is None:
        return None
    if isinstance(target, (list, str)):
        start, end = _slice_bounds(len(target), lo, hi)
        return target[start:end]
    raise JqError(f"Cannot index {type_name(target)} with object")


def iterate_value(target: Any) -> Iterator[Any]:
    if isinstance(target, list):
        yield from target
    elif isinstance(target, dict):
        yield from target.values()
    else:
        raise JqError(f"Cannot iterate over {_desc(target)}")


def _deep_merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def binop(op: str, a: Any, b: Any) -> Any:
    if op == "+":
        if a is None:
            return b
        if b is None:
            return a
        if _num(a) and _num(b):
            return a + b
        if isinstance(a, str) and isinstance(b, str):
            return a + b
        if isinstance(a, list) and isinstance(b, list):
            return a + b
        if isinstance(a, dict) and isinstance(b, dict):
            out = dict(a)
            out.update(b)
            return out
        raise JqError(f"{_desc(a)} and {_desc(b)} cannot be added")
    if op == "-":
        if _num(a) and _num(b):
            return a - b
        if isinstance(a, list) and isinstance(b, list):
            return [x for x in a if not any(equal(x, y) for y in b)]
        raise JqError(f"{_desc(a)} and {_desc(b)} cannot be subtracted")
    if op == "*":
        if _num(a) and _num(b):
            return a * b
        if isinstance(a, str) and _num(b) or isinstance(b, str) and _num(a):
            s, n = (a, b) if isinstance(a, str) else (b, a)
            count = int(n) if math.isfinite(n) else 0
            return s * count if count > 0 else None
        if isinstance(a, dict) and isinstance(b, dict):
            return _deep_merge(a, b)
        raise JqError(f"{_desc(a)} and {_desc(b)} cannot be multiplied")
    if op == "/":
        if _num(a) and _num(b):
            if b == 0:
                raise JqError(f"{_desc(a)} and {_desc(b)} cannot be divided because the divisor is zero")
            return a / b
        if isinstance(a, str) and isinstance(b, str):
            return _split_string(a, b)
        raise JqError(f"{_desc(a)} and {_desc(b)} cannot be divided")
    if op == "%":
        if _num(a) and _num(b):
            ia, ib = _to_intmax(a), _to_intmax(b)
            if ib == 0:
                raise JqError(f"{_desc(a)} and {_desc(b)} cannot be divided (remainder) because the divisor is zero")
            r = abs(ia) % abs(ib)
            return float(-r if ia < 0 else r)
        raise JqError(f"{_desc(a)} and {_desc(b)} cannot be divided")
    if op == "==":
        return equal(a, b)
    if op == "!=":
        return not equal(a, b)
    ka, kb = sort_key(a), sort_key(b)
    if op == "<":
        return ka < kb
    if op == "<=":
        return ka <= kb
    if op == ">":
        return ka > kb
    if op == ">=":
        return ka >= kb
    raise JqError(f"unknown operator {op}")


def _to_intmax(x: float) -> int:
    if x != x:
        return 0
    if x >= 9.2e18:
        return 2 ** 63 - 1
    if x <= -9.2e18:
        return -(2 ** 63)
    return int(x)


def _split_string(s: str, sep: str) -> list:
    if s == "":
        return []
    if sep == "":
        return list(s)
    return s.split(sep)


def getpath(value: Any, path) -> Any:
    for key in path:
        if value is None:
            return None
        try:
            value = index_value(value, key)
        except JqError:
            raise JqError(f"Cannot index {type_name(value)} with "
                          f"{'number' if _num(key) else json.dumps(key) if isinstance(key, str) else type_name(key)}") from None
    return value


def setpath(value: Any, path, new: Any) -> Any:
    if not path:
        return new
    key, rest = path[0], path[1:]
    if isinstance(key, str):
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise JqError(f"Cannot index {type_name(value)} with \"{key}\"")
        out = dict(value)
        out[key] = setpath(value.get(key), rest, new)
        return out
    if _num(key):
        if value is None:
            value = []
        if not isinstance(value, list):
            raise JqError(f"Cannot index {type_name(value)} with number")
        i = int(key) if math.isfinite(key) else 0
        if i < 0:
            i += len(value)
            if i < 0:
                raise JqError("Out of bounds negative array index")
        out = list(value)
        if i >= len(out):
            out.extend([None] * (i + 1 - len(out)))
        out[i] = setpath(out[i], rest, new)
        return out
    if isinstance(key, dict):
        if value is None:
            value = []
        if not isinstance(value, list):
            raise JqError(f"Cannot update field at object index of {type_name(value)}")
        start, end = _slice_bounds(len(value), key.get("start"), key.get("end"))
        replacement = setpath(value[start:end], rest, new)
        if not isinstance(replacement, list):
            raise JqError("A slice of an array can only be assigned another array")
        return value[:start] + replacement + value[end:]
    raise JqError("Invalid path component")


def delpaths(value: Any, paths) -> Any:
    for path in sorted(paths, key=lambda p: sort_key(list(p)), reverse=True):
        value = _delpath(value, tuple(path))
    return value


def _delpath(value: Any, path) -> Any:
    if not path:
        return None
    if value is None:
        return None
    key, rest = path[0], path[1:]
    if rest:
        child = index_value(value, key)
        if child is None:
            return value
        return setpath(value, (key,), _delpath(child, rest))
    if isinstance(key, str):
        if not isinstance(value, dict):
            raise JqError(f"Cannot delete field at object index of {type_name(value)}")
        out = dict(value)
        out.pop(key, None)
        return out
    if _num(key):
        if not isinstance(value, list):
            raise JqError(f"Cannot delete field at index of {type_name(value)}")
        i = int(key)
        if i < 0:
            i += len(value)
        if 0 <= i < len(value):
            return value[:i] + value[i + 1:]
        return value
    if isinstance(key, dict):
        if not isinstance(value, list):
            raise JqError(f"Cannot delete slice of {type_name(value)}")
        start, end = _slice_bounds(len(value), key.get("start"), key.get("end"))
        return value[:start] + value[end:]
    raise JqError("Invalid path component")


def tostring(v: Any) -> str:
    return v if isinstance(v, str) else dump(v)


# ============================================================================ formats

def apply_format(name: str, v: Any) -> str:
    if name == "text":
        return tostring(v)
    if name == "json":
        return dump(v)
    if name == "csv" or name == "tsv":
        if not isinstance(v, list):
            raise JqError(f"{_desc(v)} cannot be {name}-formatted, only an array can be")
        cells = []
        for x in v:
            if _num(x):
                cells.append(format_number(x))
            elif x is True or x is False:
                cells.append("true" if x else "false")
            elif x is None:
                cells.append("")
            elif isinstance(x, str):
                if name == "csv":
                    cells.append('"' + x.replace('"', '""') + '"')
                else:
                    cells.append(x.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                                 .replace("\r", "\\r"))
            else:
                raise JqError(f"{_desc(x)} is not valid in a csv row")
        return ("," if name == "csv" else "\t").join(cells)
    if name == "html":
        s = tostring(v)
        return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("'", "&apos;").replace('"', "&quot;"))
    if name == "uri":
        s = tostring(v)
        out = []
        for byte in s.encode("utf-8"):
            c = chr(byte)
            if c.isascii() and (c.isalnum() or c in "-_.~"):
                out.append(c)
            else:
                out.append(f"%{byte:02X}")
        return "".join(out)
    if name == "sh":
        items = v if isinstance(v, list) else [v]
        out = []
        for x in items:
            if isinstance(x, (list, dict)):
                raise JqError(f"{_desc(x)} can not be escaped for shell")
            if isinstance(x, str):
                out.append("'" + x.replace("'", "'\\''") + "'")
            else:
                out.append(dump(x))
        return " ".join(out)
    if name == "base64":
        return base64.b64encode(tostring(v).encode("utf-8", "surrogatepass")).decode()
    if name == "base64d":
        s = tostring(v)
        raw = s.encode("utf-8", "surrogatepass")
        raw = raw.rstrip(b"=")
        raw += b"=" * (-len(raw) % 4)
        try:
            data = base64.b64decode(raw)
        except ValueError:
            raise JqError(f"{_desc(v)} is not valid base64 data") from None
        return data.decode("utf-8", "replace")
    if name == "base32":
        return base64.b32encode(tostring(v).encode("utf-8")).decode()
    raise JqError(f"{name} is not a valid format")


# ============================================================================ builtins

NATIVE: dict = {}
NATIVE_PATHS: dict = {}


def native(name: str, arity: int = 0):
    def register(fn):
        NATIVE[(name, arity)] = fn
        return fn
    return register


def simple(name: str):
    """A zero-argument builtin that maps one input to one output."""
    def register(fn):
        def gen(interp, args, inp, env):
            yield fn(inp)
        NATIVE[(name, 0)] = gen
        return fn
    return register


def with_values(name: str, arity: int):
    """A builtin whose arguments are values (cartesian product of their outputs)."""
    def register(fn):
        def gen(interp, args, inp, env):
            def product(i, acc):
                if i == len(args):
                    yield fn(inp, *acc)
                    return
                for v in interp.eval(args[i], inp, env):
                    yield from product(i + 1, acc + [v])
            yield from product(0, [])
        NATIVE[(name, arity)] = gen
        return fn
    return register


@native("empty")
def _empty(interp, args, inp, env):
    return iter(())


NATIVE_PATHS[("empty", 0)] = lambda interp, args, inp, env, base: iter(())


@native("null")
def _null(interp, args, inp, env):
    yield None


@native("true")
def _true(interp, args, inp, env):
    yield True


@native("false")
def _false(interp, args, inp, env):
    yield False


@native("not")
def _not(interp, args, inp, env):
    yield not truthy(inp)


@native("error")
def _error0(interp, args, inp, env):
    raise JqError(inp)
    yield  # pragma: no cover


@native("error", 1)
def _error1(interp, args, inp, env):
    for msg in interp.eval(args[0], inp, env):
        raise JqError(msg)
    return
    yield  # pragma: no cover


@native("path", 1)
def _path(interp, args, inp, env):
    for p, _ in interp.iter_paths(args[0], inp, env):
        yield list(p)


@native("getpath", 1)
def _getpath(interp, args, inp, env):
    for path in interp.eval(args[0], inp, env):
        if not isinstance(path, list):
            raise JqError("Path must be specified as an array")
        try:
            yield getpath(inp, path)
        except JqError:
            yield None


def _getpath_paths(interp, args, inp, env, base):
    for path in interp.eval(args[0], inp, env):
        if not isinstance(path, list):
            raise JqError("Path must be specified as an array")
        try:
            value = getpath(inp, path)
        except JqError:
            value = None
        yield base + tuple(path), value


NATIVE_PATHS[("getpath", 1)] = _getpath_paths


@native("setpath", 2)
def _setpath(interp, args, inp, env):
    for value in interp.eval(args[1], inp, env):
        for path in interp.eval(args[0], inp, env):
            if not isinstance(path, list):
                raise JqError("Path must be specified as an array")
            yield setpath(inp, path, value)


@native("delpaths", 1)
def _delpaths(interp, args, inp, env):
    for paths in interp.eval(args[0], inp, env):
        if not isinstance(paths, list) or not all(isinstance(p, list) for p in paths):
            raise JqError("Paths must be specified as an array")
        yield delpaths(inp, paths)


@native("del", 1)
def _del(interp, args, inp, env):
    yield delpaths(inp, interp.path_list(args[0], inp, env))


@native("paths")
def _paths(interp, args, inp, env):
    for p, _ in _walk_paths(inp, ()):
        if p:
            yield list(p)


def _walk_paths(value, base):
    """Pre-order (path, value) of every node, like `path(..)`, without deep recursion."""
    stack = [(base, value)]
    while stack:
        path, v = stack.pop()
        yield path, v
        if isinstance(v, list):
            stack.extend(reversed([(path + (float(i),), x) for i, x in enumerate(v)]))
        elif isinstance(v, dict):
            stack.extend(reversed([(path + (k,), x) for k, x in v.items()]))


@native("recurse")
def _recurse(interp, args, inp, env):
    for _, v in _walk_paths(inp, ()):
        yield v


NATIVE_PATHS[("recurse", 0)] = lambda interp, args, inp, env, base: _walk_paths(inp, base)


def _preorder(roots, children, tick=None):
    """Each value, then (depth first) its children; an explicit stack, so deep data cannot
    exhaust Python's recursion limit."""
    stack = [iter(roots)]
    while stack:
        try:
            v = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        if tick is not None:
            tick()
        yield v
        stack.append(iter(children(v)))


@native("recurse", 1)
def _recurse1(interp, args, inp, env):
    yield from _preorder([inp], lambda v: interp.eval(args[0], v, env), interp.tick)


def _recurse1_paths(interp, args, inp, env, base):
    yield from _preorder([(base, inp)], lambda pv: interp.paths(args[0], pv[1], env, pv[0]))


NATIVE_PATHS[("recurse", 1)] = _recurse1_paths


@native("recurse", 2)
def _recurse2(interp, args, inp, env):
    yield from _preorder([inp], lambda v: (x for x in interp.eval(args[0], v, env)
                                       if any(truthy(c) for c in interp.eval(args[1], x, env))))


@native("select", 1)
def _select(interp, args, inp, env):
    for cond in interp.eval(args[0], inp, env):
        if truthy(cond):
            yield inp


def _select_paths(interp, args, inp, env, base):
    for cond in interp.eval(args[0], inp, env):
        if truthy(cond):
            yield base, inp


NATIVE_PATHS[("select", 1)] = _select_paths


@native("limit", 2)
def _limit(interp, args, inp, env):
    for n in interp.eval(args[0], inp, env):
        if not _num(n):
            raise JqError(f"Invalid limit: {_desc(n)}")
        # jq 1.6 emits the first output even for a limit of 0 or less
        n = max(n, 1)
        count = 0
        for v in interp.eval(args[1], inp, env):
            yield v
            count += 1
            if count >= n:
                break


@native("first", 1)
def _first1(interp, args, inp, env):
    for v in interp.eval(args[0], inp, env):
        yield v
        return


def _first1_paths(interp, args, inp, env, base):
    for pv in interp.paths(args[0], inp, env, base):
        yield pv
        return


NATIVE_PATHS[("first", 1)] = _first1_paths


@native("isempty", 1)
def _isempty(interp, args, inp, env):
    for _ in interp.eval(args[0], inp, env):
        yield False
        return
    yield True


@native("range", 1)
def _range1(interp, args, inp, env):
    for n in interp.eval(args[0], inp, env):
        i = 0.0
        while i < n:
            interp.tick()
            yield i
            i += 1


@native("range", 2)
def _range2(interp, args, inp, env):
    for lo in interp.eval(args[0], inp, env):
        for hi in interp.eval(args[1], inp, env):
            i = lo
            while i < hi:
                interp.tick()
                yield i
                i += 1


@native("range", 3)
def _range3(interp, args, inp, env):
    for lo in interp.eval(args[0], inp, env):
        for hi in interp.eval(args[1], inp, env):
            for step in interp.eval(args[2], inp, env):
                i = lo
                if step > 0:
                    while i < hi:
                        interp.tick()
                        yield i
                        i += step
                elif step < 0:
                    while i > hi:
                        interp.tick()
                        yield i
                        i += step
                elif lo < hi:
                    while True:
                        interp.tick()
                        yield lo


@native("while", 2)
def _while(interp, args, inp, env):
    v = inp
    while True:
        interp.tick()
        if not any(truthy(c) for c in interp.eval(args[0], v, env)):
            return
        yield v
        nxt = next(iter(interp.eval(args[1], v, env)), _MISSING)
        if nxt is _MISSING:
            return
        v = nxt


@native("until", 2)
def _until(interp, args, inp, env):
    v = inp
    while True:
        interp.tick()
        if any(truthy(c) for c in interp.eval(args[0], v, env)):
            yield v
            return
        nxt = next(iter(interp.eval(args[1], v, env)), _MISSING)
        if nxt is _MISSING:
            return
        v = nxt


@native("repeat", 1)
def _repeat(interp, args, inp, env):
    # jq 1.6: def repeat(f): def _repeat: f | (., _repeat); _repeat;
    yield from _preorder(interp.eval(args[0], inp, env), lambda v: interp.eval(args[0], v, env), interp.tick)


@native("input")
def _input(interp, args, inp, env):
    value = interp.inputs.next_value()
    if value is _MISSING:
        raise JqError("No more inputs")
    yield value


@native("inputs")
def _inputs(interp, args, inp, env):
    while True:
        value = interp.inputs.next_value()
        if value is _MISSING:
            return
        yield value


@native("debug")
def _debug(interp, args, inp, env):
    interp.stderr_lines.append(dump(["DEBUG:", inp]) + "\n")
    yield inp


@native("stderr")
def _stderr(interp, args, inp, env):
    interp.stderr_lines.append(dump(inp))
    yield inp


@native("input_filename")
def _input_filename(interp, args, inp, env):
    yield interp.inputs.current_name


@native("input_line_number")
def _input_line_number(interp, args, inp, env):
    yield 0.0


@native("halt")
def _halt(interp, args, inp, env):
    raise HaltSignal(0)
    yield  # pragma: no cover


@native("halt_error")
def _halt_error(interp, args, inp, env):
    raise HaltSignal(5, inp, True)
    yield  # pragma: no cover


@native("halt_error", 1)
def _halt_error1(interp, args, inp, env):
    for code in interp.eval(args[0], inp, env):
        if not _num(code):
            raise JqError("halt_error/1: number required")
        raise HaltSignal(int(code), inp, True)
    return
    yield  # pragma: no cover


@native("env")
def _env(interp, args, inp, env):
    yield dict(interp.environ)


@native("builtins")
def _builtins(interp, args, inp, env):
    yield [f"{n}/{a}" for (n, a) in NATIVE] + \
        [f"{n}/{a}" for (n, a) in PRELUDE_NAMES]


@native("now")
def _now(interp, args, inp, env):
    yield _time.time()


@native("length")
def _length(interp, args, inp, env):
    v = inp
    if v is None:
        yield 0.0
    elif v is True or v is False:
        raise JqError(f"{_desc(v)} has no length")
    elif _num(v):
        yield abs(v)
    else:
        yield float(len(v))


@simple("utf8bytelength")
def _utf8bytelength(v):
    if not isinstance(v, str):
        raise JqError(f"{_desc(v)} only strings have UTF-8 byte length")
    return float(len(v.encode("utf-8", "surrogatepass")))


@simple("keys")
def _keys(v):
    if isinstance(v, dict):
        return sorted(v)
    if isinstance(v, list):
        return [float(i) for i in range(len(v))]
    raise JqError(f"{_desc(v)} has no keys")


@simple("keys_unsorted")
def _keys_unsorted(v):
    if isinstance(v, dict):
        return list(v)
    if isinstance(v, list):
        return [float(i) for i in range(len(v))]
    raise JqError(f"{_desc(v)} has no keys")


@with_values("has", 1)
def _has(v, key):
    if isinstance(v, dict) and isinstance(key, str):
        return key in v
    if isinstance(v, list) and _num(key):
        return 0 <= key < len(v)
    raise JqError(f"Cannot check whether {type_name(v)} has a {type_name(key)} key")


def _contains(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and _contains(a[k], bv) for k, bv in b.items())
    if isinstance(a, list) and isinstance(b, list):
        return all(any(_contains(x, y) for x in a) for y in b)
    if isinstance(a, str) and isinstance(b, str):
        return b in a
    if type_name(a) == type_name(b):
        return equal(a, b)
    raise JqError(f"{_desc(a)} and {_desc(b)} cannot have their containment checked")


@with_values("contains", 1)
def _contains1(v, b):
    return _contains(v, b)


@simple("type")
def _type(v):
    return type_name(v)


@simple("tostring")
def _tostring(v):
    return tostring(v)


@simple("tojson")
def _tojson(v):
    return dump(v)


def parse_json_text(text: str) -> Any:
    decoder = json.JSONDecoder(parse_int=float, parse_constant=_parse_constant)
    try:
        value, end = decoder.raw_decode(text.strip())
    except json.JSONDecodeError as e:
        raise JqError(f"{e.msg} at line {e.lineno}, column {e.colno} (while parsing '{text}')") from None
    if text.strip()[end:].strip():
        raise JqError(f"Unexpected extra JSON values (while parsing '{text}')")
    return value


def _parse_constant(name: str) -> Any:
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]


@simple("fromjson")
def _fromjson(v):
    if not isinstance(v, str):
        raise JqError(f"{_desc(v)} only strings can be parsed")
    return parse_json_text(v)


@simple("tonumber")
def _tonumber(v):
    if _num(v):
        return v
    if isinstance(v, str):
        try:
            if not regex.fullmatch(r"\s*-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*|\s*(nan|-?infinity)\s*", v, regex.I):
                raise ValueError
            return float(v)
        except ValueError:
            raise JqError(f"Cannot parse '{v}' as JSON") from None
    raise JqError(f"{_desc(v)} cannot be parsed as a number")


@simple("ascii_downcase")
def _ascii_downcase(v):
    if not isinstance(v, str):
        raise JqError("explode input must be a string")
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in v)


@simple("ascii_upcase")
def _ascii_upcase(v):
    if not isinstance(v, str):
        raise JqError("explode input must be a string")
    return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in v)


@simple("explode")
def _explode(v):
    if not isinstance(v, str):
        raise JqError("explode input must be a string")
    return [float(ord(c)) for c in v]


@simple("implode")
def _implode(v):
    if not isinstance(v, list) or not all(_num(x) for x in v):
        raise JqError("implode input must be an array")
    return "".join(chr(int(x)) for x in v)


@with_values("ltrimstr", 1)
def _ltrimstr(v, prefix):
    if isinstance(v, str) and isinstance(prefix, str) and v.startswith(prefix):
        return v[len(prefix):]
    return v


@with_values("rtrimstr", 1)
def _rtrimstr(v, suffix):
    if isinstance(v, str) and isinstance(suffix, str) and suffix and v.endswith(suffix):
        return v[:-len(suffix)]
    return v


@with_values("startswith", 1)
def _startswith(v, prefix):
    if not isinstance(v, str) or not isinstance(prefix, str):
        raise JqError("startswith() requires string inputs")
    return v.startswith(prefix)


@with_values("endswith", 1)
def _endswith(v, suffix):
    if not isinstance(v, str) or not isinstance(suffix, str):
        raise JqError("endswith() requires string inputs")
    return v.endswith(suffix)


@with_values("split", 1)
def _split1(v, sep):
    if not isinstance(v, str) or not isinstance(sep, str):
        raise JqError("split input and separator must be strings")
    return _split_string(v, sep)


@with_values("join", 1)
def _join(v, sep):
    # jq 1.6: reduce .[] as $i (null; (if .==null then "" else .+$x end) +
    #         ($i | if .==null then "" elif type=="string" then . else tojson end)) // ""
    acc = None
    for x in iterate_value(v):
        text = "" if x is None else x if isinstance(x, str) else dump(x)
        acc = binop("+", "" if acc is None else binop("+", acc, sep), text)
    return acc if truthy(acc) else ""


@simple("add")
def _add(v):
    items = list(iterate_value(v)) if v is not None else []
    if v is None:
        raise JqError(f"Cannot iterate over {_desc(v)}")
    acc = None
    for x in items:
        acc = binop("+", acc, x)
    return acc


@simple("sort")
def _sort(v):
    if not isinstance(v, list):
        raise JqError(f"{_desc(v)} cannot be sorted, as it is not an array")
    return sorted(v, key=sort_key)


def _keyed(interp, args, inp, env):
    if not isinstance(inp, list):
        raise JqError(f"Cannot index {type_name(inp)} with number" if inp is not None
                      else f"Cannot iterate over {_desc(inp)}")
    return [(sort_key(list(interp.eval(args[0], x, env))), x) for x in inp]


@native("sort_by", 1)
def _sort_by(interp, args, inp, env):
    if not isinstance(inp, list):
        raise JqError(f"{_desc(inp)} cannot be sorted, as it is not an array")
    yield [x for _, x in sorted(_keyed(interp, args, inp, env), key=lambda kx: kx[0])]


@native("group_by", 1)
def _group_by(interp, args, inp, env):
    if not isinstance(inp, list):
        raise JqError(f"Cannot index {type_name(inp)} with number")
    groups: list = []
    last = object()
    for key, x in sorted(_keyed(interp, args, inp, env), key=lambda kx: kx[0]):
        if groups and key == last:
            groups[-1].append(x)
        else:
            groups.append([x])
            last = key
    yield groups


@native("unique_by", 1)
def _unique_by(interp, args, inp, env):
    if not isinstance(inp, list):
        raise JqError(f"Cannot index {type_name(inp)} with number")
    out = []
    last = object()
    for key, x in sorted(_keyed(interp, args, inp, env), key=lambda kx: kx[0]):
        if not out or key != last:
            out.append(x)
            last = key
    yield out


@simple("unique")
def _unique(v):
    if not isinstance(v, list):
        raise JqError(f"{_desc(v)} cannot be sorted, as it is not an array")
    out = []
    for x in sorted(v, key=sort_key):
        if not out or not equal(out[-1], x):
            out.append(x)
    return out


def _extreme(interp, args, inp, env, pick_max: bool):
    if not isinstance(inp, list):
        raise JqError(f"Cannot index {type_name(inp)} with number")
    if not inp:
        return None
    keyed = _keyed(interp, args, inp, env) if args else [(sort_key(x), x) for x in inp]
    best = keyed[0]
    for k, x in keyed[1:]:
        if (k >= best[0]) if pick_max else (k < best[0]):
            best = (k, x)
    return best[1]


NATIVE[("min", 0)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, False)])
NATIVE[("max", 0)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, True)])
NATIVE[("min_by", 1)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, False)])
NATIVE[("max_by", 1)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, True)])


@simple("reverse")
def _reverse(v):
    if v is None:
        return []
    if isinstance(v, str):
        return v[::-1]
    if not isinstance(v, list):
        raise JqError(f"Cannot index {type_name(v)} with number")
    return v[::-1]


@with_values("flatten", 1)
def _flatten1(v, depth):
    if depth < 0:
        raise JqError("flatten depth must not be negative")
    if not isinstance(v, list):
        raise JqError(f"Cannot iterate over {_desc(v)}")
    return _flatten(v, depth)


def _flatten(v, depth):
    out = []
    for x in v:
        if isinstance(x, list) and depth > 0:
            out.extend(_flatten(x, depth - 1))
        else:
            out.append(x)
    return out


@simple("flatten")
def _flatten0(v):
    if not isinstance(v, list):
        raise JqError(f"Cannot iterate over {_desc(v)}")
    return _flatten(v, 10 ** 9)


@simple("transpose")
def _transpose(v):
    if not isinstance(v, list):
        raise JqError(f"Cannot iterate over {_desc(v)}")
    width = max((len(row) for row in v if isinstance(row, list)), default=0)
    return [[row[i] if isinstance(row, list) and i < len(row) else None for row in v]
            for i in range(width)]


@simple("to_entries")
def _to_entries(v):
    if isinstance(v, dict):
        return [{"key": k, "value": x} for k, x in v.items()]
    if isinstance(v, list):
        return [{"key": float(i), "value": x} for i, x in enumerate(v)]
    raise JqError(f"{_desc(v)} has no keys")


@simple("from_entries")
def _from_entries(v):
    out = {}
    for entry in iterate_value(v):
        if not isinstance(entry, dict):
            raise JqError(f"Cannot index {type_name(entry)} with \"key\"")
        key = _MISSING
        for name in ("key", "k", "name", "Name", "K", "Key"):
            if truthy(entry.get(name)):
                key = entry[name]
                break
        if key is _MISSING:
            key = entry.get("key", entry.get("k"))
        if isinstance(key, (int, float)) and not isinstance(key, bool):
            key = format_number(key)
        elif key is True or key is False:
            key = "true" if key else "false"
        elif key is None:
            key = "null"
        elif not isinstance(key, str):
            raise JqError(f"Cannot use {_desc(key)} as object key")
        out[key] = entry["value"] if "value" in entry else entry.get("v")
    return out


@native("with_entries", 1)
def _with_entries(interp, args, inp, env):
    mapped = []
    for entry in _to_entries(inp):
        mapped.extend(interp.eval(args[0], entry, env))
    yield _from_entries(mapped)


@native("map", 1)
def _map(interp, args, inp, env):
    out = []
    for x in iterate_value(inp):
        out.extend(interp.eval(args[0], x, env))
    yield out


@native("tostream")
def _tostream(interp, args, inp, env):
    yield from _stream_events(inp)


def _stream_events(value):
    """[path, leaf] events, and [path] closing each non-empty array or object."""
    def walk(path, v):
        if isinstance(v, (list, dict)) and v:
            items = [(float(i), x) for i, x in enumerate(v)] if isinstance(v, list) else list(v.items())
            for key, x in items:
                yield from walk(path + [key], x)
            yield [path + [items[-1][0]]]
        else:
            yield [path, v]
    yield from walk([], value)


@simple("floor")
def _floor(v):
    return float(math.floor(_need_number(v, "floor"))) if math.isfinite(v) else v


def _need_number(v, name):
    if not _num(v):
        raise JqError(f"{_desc(v)} number required")
    return v


def _math1(name, fn):
    def impl(v):
        _need_number(v, name)
        try:
            return float(fn(v))
        except (ValueError, OverflowError):
            return math.nan
    simple(name)(impl)


for _name, _fn in {"sqrt": math.sqrt, "ceil": math.ceil, "round": lambda x: math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5),
                   "fabs": abs, "exp": math.exp, "exp2": lambda x: 2.0 ** x, "exp10": lambda x: 10.0 ** x,
                   "log": math.log, "log2": math.log2, "log10": math.log10, "sin": math.sin,
                   "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
                   "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
                   "trunc": math.trunc, "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
                   "significand": lambda x: math.frexp(x)[0] * 2 if x else 0.0,
                   "logb": lambda x: float(math.frexp(x)[1] - 1)}.items():
    _math1(_name, _fn)


@with_values("pow", 2)
def _pow(v, a, b):
    try:
        return float(math.pow(_need_number(a, "pow"), _need_number(b, "pow")))
    except (ValueError, OverflowError):
        return math.nan


@native("infinite")
def _infinite(interp, args, inp, env):
    yield math.inf


@native("nan")
def _nan(interp, args, inp, env):
    yield math.nan


@simple("isinfinite")
def _isinfinite(v):
    return math.isinf(_need_number(v, "isinfinite"))


@simple("isnan")
def _isnan(v):
    return math.isnan(_need_number(v, "isnan"))


@simple("isnormal")
def _isnormal(v):
    _need_number(v, "isnormal")
    return math.isfinite(v) and v != 0 and abs(v) >= 2.2250738585072014e-308


@native("indices", 1)
def _indices_fn(interp, args, inp, env):
    for i in interp.eval(args[0], inp, env):
        yield _indices_of(inp, i)


def _indices_of(v, i):
    if v is None:
        return None
    if isinstance(v, str) and isinstance(i, str):
        if not i:
            return None
        out = []
        start = 0
        while True:
            k = v.find(i, start)
            if k < 0:
                return out
            out.append(float(k))
            start = k + 1
    if isinstance(v, list):
        return _indices(v, i if isinstance(i, list) else [i])
    return index_value(v, i)


@native("index", 1)
def _index_fn(interp, args, inp, env):
    for i in interp.eval(args[0], inp, env):
        found = _indices_of(inp, i)
        yield found[0] if found else None


@native("rindex", 1)
def _rindex_fn(interp, args, inp, env):
    for i in interp.eval(args[0], inp, env):
        found = _indices_of(inp, i)
        yield found[-1] if found else None


@native("splits", 1)
def _splits1(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        yield from _regex_split(inp, re_text, None)


@native("splits", 2)
def _splits2(interp, args, inp, env):
    for flags in interp.eval(args[1], inp, env):
        for re_text in interp.eval(args[0], inp, env):
            yield from _regex_split(inp, re_text, flags)


@with_values("split", 2)
def _split2(v, re_text, flags):
    return list(_regex_split(v, re_text, flags))


def _compile(re_text, flags):
    if not isinstance(re_text, str):
        raise JqError(f"{_desc(re_text)} cannot be matched, as it is not a string")
    if flags is not None and not isinstance(flags, str):
        raise JqError(f"{_desc(flags)} is not a string")
    opts = regex.V0
    global_ = False
    skip_empty = False
    for f in flags or "":
        if f == "g":
            global_ = True
        elif f == "i":
            opts |= regex.IGNORECASE
        elif f == "x":
            opts |= regex.VERBOSE
        elif f == "s":
            opts |= regex.DOTALL
        elif f == "n":
            skip_empty = True
        elif f in "pl":
            opts |= regex.DOTALL if f == "p" else 0
        else:
            raise JqError(f"{flags} is not a valid modifier string")
    try:
        return regex.compile(re_text, opts), global_, skip_empty
    except regex.error as e:
        raise JqError(f"{re_text} (at offset {getattr(e, 'pos', 0)}) is not a valid regex: {e}") from None


def _regex_split(v, re_text, flags):
    if not isinstance(v, str):
        raise JqError(f"{_desc(v)} cannot be matched, as it is not a string")
    prev = 0
    for m in _matches(v, re_text, flags, force_global=True):
        yield v[prev:m.start()]
        prev = m.end()
    yield v[prev:]


def _match_object(m) -> dict:
    caps = []
    names = {idx: name for name, idx in m.re.groupindex.items()}
    for g in range(1, (m.re.groups or 0) + 1):
        start = m.start(g)
        if start < 0:
            caps.append({"offset": -1.0, "length": 0.0, "string": None, "name": names.get(g)})
        else:
            caps.append({"offset": float(start), "length": float(m.end(g) - start),
                         "string": m.group(g), "name": names.get(g)})
    return {"offset": float(m.start()), "length": float(m.end() - m.start()),
            "string": m.group(0), "captures": caps}


def _matches(v, re_text, flags, force_global=False):
    if not isinstance(v, str):
        raise JqError(f"{_desc(v)} cannot be matched, as it is not a string")
    pattern, global_, skip_empty = _compile(re_text, flags)
    if global_ or force_global:
        for m in pattern.finditer(v):
            if m.end() == m.start() and (skip_empty or (v and m.start() == len(v))):
                # Oniguruma's global search finds no empty match at the very end
                continue
            yield m
    else:
        m = pattern.search(v)
        if m is not None:
            yield m


def _regex_args(interp, args, inp, env):
    """(regex, flags) pairs for test/match/capture/scan, which accept `re`, `re; flags`
    or an array [re, flags]."""
    if len(args) == 2:
        for flags in interp.eval(args[1], inp, env):
            for re_text in interp.eval(args[0], inp, env):
                yield re_text, flags
        return
    for re_text in interp.eval(args[0], inp, env):
        if isinstance(re_text, list):
            yield (re_text[0] if re_text else None), (re_text[1] if len(re_text) > 1 else None)
        else:
            yield re_text, None


def _register_regex(name, fn):
    for arity in (1, 2):
        NATIVE[(name, arity)] = fn


def _test(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        yield any(True for _ in _matches(inp, re_text, flags))


def _match(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        for m in _matches(inp, re_text, flags):
            yield _match_object(m)


def _capture(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        for m in _matches(inp, re_text, flags):
            yield _capture_object(m)


def _capture_object(m) -> dict:
    return {name: m.group(name) for name in sorted(m.re.groupindex, key=lambda n: m.re.groupindex[n])}


def _scan(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        for m in _matches(inp, re_text, flags, force_global=True):
            if m.re.groups:
                yield [m.group(g) for g in range(1, m.re.groups + 1)]
            else:
                yield m.group(0)


_register_regex("test", _test)
_register_regex("match", _match)
_register_regex("capture", _capture)
_register_regex("scan", _scan)


def _substitute(interp, args, inp, env, global_default: bool):
    flag_values = list(interp.eval(args[2], inp, env)) if len(args) == 3 else [None]
    for flags in flag_values:
        for re_text in interp.eval(args[0], inp, env):
            if not isinstance(inp, str):
                raise JqError(f"{_desc(inp)} cannot be matched, as it is not a string")
            fl = (flags or "") + ("g" if global_default else "")
            out = []
            prev = 0
            for m in _matches(inp, re_text, fl):
                out.append(inp[prev:m.start()])
                replacement = next(iter(interp.eval(args[1], _capture_object(m), env)), "")
                if not isinstance(replacement, str):
                    raise JqError(f"{_desc(replacement)} cannot be added to a string")
                out.append(replacement)
                prev = m.end()
            out.append(inp[prev:])
            yield "".join(out)


for _arity in (2, 3):
    NATIVE[("sub", _arity)] = lambda interp, args, inp, env: _substitute(interp, args, inp, env, False)
    NATIVE[("gsub", _arity)] = lambda interp, args, inp, env: _substitute(interp, args, inp, env, True)


@native("format", 1)
def _format(interp, args, inp, env):
    for name in interp.eval(args[0], inp, env):
        if not isinstance(name, str):
            raise JqError(f"{_desc(name)} is not a valid format")
        yield apply_format(name, inp)


# ---------------------------------------------------------------- dates

def _broken_down(t: float) -> list:
    st = _time.gmtime(math.floor(t))
    seconds = st.tm_sec + (t - math.floor(t))
    return [float(st.tm_year), float(st.tm_mon - 1), float(st.tm_mday), float(st.tm_hour),
            float(st.tm_min), float(seconds), float((st.tm_wday + 1) % 7), float(st.tm_yday - 1)]


def _struct_time(bd) -> _time.struct_time:
    if not isinstance(bd, list) or len(bd) < 6 or not all(_num(x) for x in bd[:6]):
        raise JqError("mktime requires array of 6 numbers")
    year, month, day, hour, minute, second = (int(x) for x in bd[:6])
    wday = int(bd[6]) if len(bd) > 6 and _num(bd[6]) else 0
    yday = int(bd[7]) if len(bd) > 7 and _num(bd[7]) else 0
    return _time.struct_time((year, month + 1, day, hour, minute, second, (wday - 1) % 7, yday + 1, 0))


@simple("gmtime")
def _gmtime(v):
    if not _num(v):
        raise JqError("gmtime() requires a number")
    return _broken_down(v)


@simple("localtime")
def _localtime(v):
    return _gmtime(v)


@simple("mktime")
def _mktime(v):
    if not isinstance(v, list):
        raise JqError("mktime requires array of 6 numbers")
    return float(calendar.timegm(_struct_time(v)))


@with_values("strftime", 1)
def _strftime(v, fmt):
    if _num(v):
        v = _broken_down(v)
    if not isinstance(fmt, str):
        raise JqError("strftime/1 requires a string format")
    if not isinstance(v, list):
        raise JqError("strftime/1 requires parsed datetime inputs")
    return _time.strftime(fmt, _struct_time(v))


NATIVE[("strflocaltime", 1)] = NATIVE[("strftime", 1)]


@with_values("strptime", 1)
def _strptime(v, fmt):
    if not isinstance(v, str):
        raise JqError("strptime/1 requires string inputs and arguments")
    try:
        st = _time.strptime(v, fmt)
    except ValueError:
        raise JqError(f"date \"{v}\" does not match format \"{fmt}\"") from None
    t = calendar.timegm(st)
    return _broken_down(t)


@simple("todate")
def _todate(v):
    return _strftime(v, "%Y-%m-%dT%H:%M:%SZ")


NATIVE[("todateiso8601", 0)] = NATIVE[("todate", 0)]


@simple("fromdateiso8601")
def _fromdateiso8601(v):
    return _mktime(_strptime(v, "%Y-%m-%dT%H:%M:%SZ"))


NATIVE[("fromdate", 0)] = NATIVE[("fromdateiso8601", 0)]


# ---------------------------------------------------------------- the prelude (jq-defined)

PRELUDE = r"""
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type|. == "array" or . == "object");
def scalars: select(type|. != "array" and . != "object");
def map_values(f): .[] |= f;
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def any(f): reduce (.[] | f) as $x (false; . or $x);
def all(f): reduce (.[] | f) as $x (true; . and $x);
def any(g; cond): isempty(first(g | cond | select(.))) | not;
def all(g; cond): isempty(first(g | cond | select(. | not)));
def first: .[0];
def last: .[-1];
def last(f): reduce f as $x (null; $x);
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): . as $in | if type == "object" then reduce keys_unsorted[] as $key ( {}; . + { ($key): ($in[$key] | walk(f)) } ) | f elif type == "array" then map( walk(f) ) | f else f end;
def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0]|length) > $n then setpath([0];.[0][$n:]) else empty end;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row|idx_expr|tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def GROUP_BY(f): group_by(f);
def UNIQUE_BY(f): [group_by(f)[] | .[0]];
def ascii(i): [i] | implode;
def todate(f): f | todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def date: todate;
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
def tojson(f): f | tojson;
def add(f): reduce f as $x (null; . + $x);
def splits($re; flags): split($re; flags) | .[];
def abs: if type == "number" and . < 0 then - . else . end;
def toarray: if type == "array" then . else [.] end;
def have_literal_numbers: true;
def have_decnum: false;
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
def scan($re; $flags): match($re; "g" + $flags) | if (.captures|length > 0) then [ .captures | .[] | .string ] else .string end;
"""


def _build_prelude() -> tuple[Env, list]:
    env = Env()
    names = []
    node = Parser(PRELUDE.strip() + " .").parse_program()
    while node[0] == "defs":
        name, params, body = node[1]
        env.funcs[(name, len(params))] = Closure(name, params, body, env)
        names.append((name, len(params)))
        node = node[2]
    return env, names


PRELUDE_ENV, PRELUDE_NAMES = _build_prelude()


def check_defined(node, scope: frozenset, variables: frozenset | None = None) -> None:
    """jq resolves every function call and variable at compile time: report unknown ones.
    ``variables`` None means variables are not checked."""
    if not isinstance(node, tuple) or not node:
        return
    kind = node[0]
    if kind == "var":
        if variables is not None and node[1] not in variables:
            raise JqSyntaxError(f"${node[1]} is not defined")
        return
    if kind == "as":
        check_defined(node[1], scope, variables)
        bound = variables
        for pattern in node[2]:
            _check_pattern(pattern, scope, variables)
            if bound is not None:
                bound = bound | _pattern_vars(pattern)
        check_defined(node[3], scope, bound)
        return
    if kind in ("reduce", "foreach"):
        check_defined(node[1], scope, variables)
        _check_pattern(node[2], scope, variables)
        check_defined(node[3], scope, variables)
        inner = None if variables is None else variables | _pattern_vars(node[2])
        for part in node[4:]:
            check_defined(part, scope, inner)
        return
    if kind == "label":
        check_defined(node[2], scope, variables)
        return
    if kind == "call":
        key = (node[1], len(node[2]))
        if key not in scope and key not in NATIVE and key not in PRELUDE_ENV.funcs:
            raise JqSyntaxError(f"{node[1]}/{len(node[2])} is not defined")
        for arg in node[2]:
            check_defined(arg, scope, variables)
        return
    if kind == "defs":
        name, params, body = node[1]
        inner = scope | {(name, len(params))} | {(p.lstrip("$"), 0) for p in params}
        inner_vars = None if variables is None else \
            variables | {p[1:] for p in params if p.startswith("$")}
        check_defined(body, inner, inner_vars)
        check_defined(node[2], scope | {(name, len(params))}, variables)
        return
    for part in node[1:]:
        if isinstance(part, tuple):
            check_defined(part, scope, variables)
        elif isinstance(part, list):
            for item in part:
                if isinstance(item, tuple):
                    if item and isinstance(item[0], str) and item[0] in _NODE_KINDS:
                        check_defined(item, scope, variables)
                    else:
                        for sub in item:
                            check_defined(sub, scope, variables)


def _check_pattern(pattern, scope, variables) -> None:
    """Object patterns may compute keys with expressions: check those."""
    if pattern[0] == "parray":
        for sub in pattern[1]:
            _check_pattern(sub, scope, variables)
    elif pattern[0] == "pobject":
        for key, _var, sub in pattern[1]:
            check_defined(key, scope, variables)
            if sub is not None:
                _check_pattern(sub, scope, variables)


def _calls(node, names: set) -> bool:
    """Whether the program calls any of ``names`` (anywhere, including in definitions)."""
    if isinstance(node, tuple):
        if node and node[0] == "call" and node[1] in names:
            return True
        return any(_calls(part, names) for part in node[1:])
    if isinstance(node, list):
        return any(_calls(part, names) for part in node)
    return False


_NODE_KINDS = {"identity", "literal", "literal_array", "paren", "pipe", "comma", "index", "slice",
               "iterate", "collect", "object", "neg", "binop", "and", "or", "alt", "if", "try",
               "var", "string", "format", "as", "reduce", "foreach", "label", "defs", "call",
               "assign", "break", "pvar", "parray", "pobject"}


# ============================================================================ input

class InputSource:
    """The stream of JSON values (or raw lines) jq reads, shared by the main loop and
    `input`/`inputs`."""

    def __init__(self, texts: list[tuple[str, str]], raw: bool, slurp: bool,
                 stream: bool = False) -> None:
        self.texts = texts
        self.raw = raw
        self.slurp = slurp
        self.stream = stream
        self.current_name = None
        self._iter = self._streamed() if stream and not raw else self._values()
        self.error: str | None = None

    def _values(self):
        if self.raw:
            if self.slurp:
                self.current_name = self.texts[-1][0] if self.texts else None
                yield "".join(t for _, t in self.texts)
                return
            for name, text in self.texts:
                self.current_name = name
                lines = text.split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                yield from lines
            return
        decoder = json.JSONDecoder(parse_int=float, parse_constant=_parse_constant)
        if self.slurp:
            values = []
            for name, text in self.texts:
                self.current_name = name
                for v in self._decode(decoder, text):
                    values.append(v)
                if self.error:
                    return
            yield values
            return
        for name, text in self.texts:
            self.current_name = name
            yield from self._decode(decoder, text)
            if self.error:
                return

    def _streamed(self):
        """--stream: each input becomes its [path, leaf] / [path] events (with -s, one
        array of all the events)."""
        slurp, self.slurp = self.slurp, False
        events = (event for value in self._values() for event in _stream_events(value))
        if slurp:
            yield list(events)
        else:
            yield from events

    def _decode(self, decoder, text):
        pos = 0
        n = len(text)
        while True:
            while pos < n and text[pos] in " \t\r\n":
                pos += 1
            if pos >= n:
                return
            try:
                value, end = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as e:
                line = text.count("\n", 0, e.pos) + 1
                col = e.pos - (text.rfind("\n", 0, e.pos) + 1)
                self.error = f"{_json_error_text(e)} at line {line}, column {col}"
                return
            except RecursionError:
                self.error = "Exceeds depth limit for parsing"
                return
            yield value
            pos = end

    def next_value(self):
        return next(self._iter, _MISSING)


def _json_error_text(e: json.JSONDecodeError) -> str:
    if "Expecting value" in e.msg:
        return "Invalid numeric literal" if e.pos < len(e.doc) and e.doc[e.pos].isalpha() else "Invalid literal"
    if "Unterminated string" in e.msg or "Expecting" in e.msg and e.pos >= len(e.doc.rstrip()):
        return "Unfinished JSON term at EOF"
    return e.msg


# ============================================================================ command

JQ_HELP = """Usage:	jq [OPTIONS] FILTER [FILES...]
	jq [OPTIONS] --args FILTER [ARGUMENTS...]
	jq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

Some of the options include:
  -c               compact instead of pretty-printed output;
  -n               use `null` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r but no newline after each output;
  -a               output ASCII with escapes for non-ASCII characters;
  -R               read raw input: each line is a string;
  -S               sort keys of objects on output;
  -f FILE          read the filter from FILE;
  --tab            use tabs for indentation;
  --indent n       use the given number of spaces (no more than 7) for indentation;
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
  --stream         parse the input in streaming fashion ([path, leaf] events);
  --               terminates argument processing;
"""


async def _usage(ctx: CommandContext, message: str) -> int:
    await ctx.err(f"jq: {message}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n")
    return 2


@command("jq", help=JQ_HELP)
async def jq(ctx: CommandContext) -> int:
    args = list(ctx.args)
    opts: dict[str, Any] = {"indent": 2, "tab": False, "compact": False, "raw": False,
                            "join": False, "ascii": False, "sort": False, "null_input": False,
                            "slurp": False, "raw_input": False, "exit_status": False,
                            "seq": False, "stream": False}
    named: dict[str, Any] = {}
    positional: list[Any] = []
    filter_text = None
    filter_file = None
    files: list[str] = []
    rest_mode = None  # "args" / "jsonargs"
    i = 0
    shorts = {"c": "compact", "r": "raw", "j": "join", "a": "ascii", "S": "sort",
              "n": "null_input", "s": "slurp", "R": "raw_input", "e": "exit_status",
              "C": None, "M": None, "h": "help"}
    longs = {"compact-output": "compact", "raw-output": "raw", "join-output": "join",
             "ascii-output": "ascii", "sort-keys": "sort", "null-input": "null_input",
             "slurp": "slurp", "raw-input": "raw_input", "exit-status": "exit_status",
             "color-output": None, "monochrome-output": None, "tab": "tab", "seq": "seq",
             "unbuffered": None, "stream": "stream"}
    try:
        while i < len(args):
            a = args[i]
            i += 1
            if a == "--":
                for rest in args[i:]:
                    if filter_text is None and filter_file is None:
                        filter_text = rest
                    elif rest_mode == "args":
                        positional.append(rest)
                    elif rest_mode == "jsonargs":
                        positional.append(parse_json_text(rest))
                    else:
                        files.append(rest)
                break
            if a.startswith("--") and len(a) > 2:
                name = a[2:]
                if name in longs:
                    if longs[name]:
                        opts[longs[name]] = True
                elif name == "indent":
                    if i >= len(args):
                        return await _usage(ctx, "--indent takes one parameter")
                    try:
                        n = int(args[i])
                    except ValueError:
                        return await _usage(ctx, "--indent takes a number")
                    if n > 7:
                        return await _usage(ctx, "Cannot indent more than 7 characters")
                    opts["indent"] = n
                    i += 1
                elif name in ("arg", "argjson", "slurpfile", "rawfile"):
                    if i + 1 >= len(args):
                        return await _usage(ctx, f"--{name} takes two parameters (e.g. --{name} varname value)")
                    var, value = args[i], args[i + 1]
                    i += 2
                    if name == "arg":
                        named[var] = value
                    elif name == "argjson":
                        try:
                            named[var] = parse_json_text(value)
                        except JqError:
                            return await _usage(ctx, "Invalid JSON text passed to --argjson")
                    else:
                        try:
                            data = ctx.fs.read_bytes(value, cwd=ctx.cwd).decode("utf-8", "replace")
                        except FSError as e:
                            await ctx.err(f"jq: error: Could not open {value}: {e.strerror}\n")
                            return 2
                        if name == "rawfile":
                            named[var] = data
                        else:
                            src = InputSource([(value, data)], False, False)
                            values = []
                            while True:
                                v = src.next_value()
                                if v is _MISSING:
                                    break
                                values.append(v)
                            if src.error:
                                await ctx.err(f"jq: Bad JSON in --slurpfile {var} {value}: {src.error}\n")
                                return 2
                            named[var] = values
                elif name in ("args", "jsonargs"):
                    rest_mode = name
                elif name == "from-file":
                    if i >= len(args):
                        return await _usage(ctx, "-f takes a parameter")
                    filter_file = args[i]
                    i += 1
                elif name == "help":
                    await ctx.out(JQ_HELP)
                    return 0
                elif name == "version":
                    await ctx.out("jq-1.6\n")
                    return 0
                else:
                    return await _usage(ctx, f"Unknown option: {a}")
                continue
            if a.startswith("-") and len(a) > 1 and all(ch in shorts or ch == "f" for ch in a[1:]):
                for ch in a[1:]:
                    if ch == "f":
                        if i >= len(args):
                            return await _usage(ctx, "-f takes a parameter")
                        filter_file = args[i]
                        i += 1
                    elif ch in shorts:
                        if shorts[ch] == "help":
                            await ctx.out(JQ_HELP)
                            return 0
                        if shorts[ch]:
                            opts[shorts[ch]] = True
                    else:
                        return await _usage(ctx, f"Unknown option: {a}")
                continue
            if filter_text is None and filter_file is None:
                filter_text = a
            elif rest_mode == "args":
                positional.append(a)
            elif rest_mode == "jsonargs":
                try:
                    positional.append(parse_json_text(a))
                except JqError:
                    return await _usage(ctx, "Invalid JSON text passed to --jsonargs")
            else:
                files.append(a)
    except JqError as e:
        return await _usage(ctx, str(e.value))
    if filter_file is not None:
        if filter_text is not None:
            files.insert(0, filter_text)
        try:
            filter_text = ctx.fs.read_bytes(filter_file, cwd=ctx.cwd).decode("utf-8", "replace")
        except FSError as e:
            await ctx.err(f"jq: error: Could not open {filter_file}: {e.strerror}\n")
            return 2
    if filter_text is None:
        # like jq when its input is not a terminal: the identity program
        filter_text = "."
    try:
        program = Parser(filter_text).parse_program()
        check_defined(program, frozenset(), frozenset(named) | {"ENV", "ARGS", "__loc__"})
    except (JqSyntaxError, RecursionError) as e:
        await ctx.err(f"jq: error: {e} at <top-level>, line 1:\n{filter_text}\njq: 1 compile error\n")
        return 3

    texts: list[tuple[str, str]] = []
    for name in files:
        try:
            texts.append((name, ctx.fs.read_bytes(name, cwd=ctx.cwd).decode("utf-8", "replace")))
        except FSError as e:
            await ctx.err(f"jq: error: Could not open {name}: {e.strerror}\n")
            return 2
    if not files:
        texts = [("<stdin>", "")]
    source = InputSource(texts, opts["raw_input"], opts["slurp"], opts["stream"])
    need_stdin = not files
    stdin_loaded = False

    async def ensure_stdin():
        nonlocal stdin_loaded
        if need_stdin and not stdin_loaded:
            data = await ctx.stdin.read()
            texts[0] = ("<stdin>", data.decode("utf-8", "replace"))
            stdin_loaded = True

    root = PRELUDE_ENV.child()
    root.vars["ENV"] = dict(ctx.env)
    for k, v in named.items():
        root.vars[k] = v
    root.vars["ARGS"] = {"positional": positional, "named": named}
    stderr_lines: list[str] = []
    interp = Interpreter(ctx.env, source, stderr_lines)
    interp.check = ctx.check

    indent: int | str = "\t" if opts["tab"] else (0 if opts["compact"] else opts["indent"])
    status = 0
    last_output = _MISSING

    async def emit(v: Any) -> None:
        nonlocal last_output
        last_output = v
        if (opts["raw"] or opts["join"]) and isinstance(v, str):
            text = v
        else:
            text = dump(v, indent, opts["sort"], opts["ascii"])
        if opts["seq"]:
            text = "\x1e" + text
        await ctx.out(text if opts["join"] else text + "\n")

    async def flush_stderr() -> None:
        if stderr_lines:
            await ctx.err("".join(stderr_lines))
            stderr_lines.clear()

    async def run_one(value: Any) -> bool:
        """Run the program on one input; False when jq must stop (halt)."""
        nonlocal status
        try:
            count = 0
            for out in interp.eval(program, value, root):
                await flush_stderr()
                await emit(out)
                count += 1
                if count % 256 == 0:
                    await ctx.checkpoint()
        except JqError as e:
            await flush_stderr()
            msg = e.value
            if msg is None:
                # jq 1.6 drops an uncaught error(null) silently
                return True
            where = "<stdin>:1" if source.current_name in (None, "<stdin>") else f"{source.current_name}:1"
            if opts["null_input"] and not files and not stdin_loaded:
                where = "<unknown>"
            if isinstance(msg, str):
                await ctx.err(f"jq: error (at {where}): {msg}\n")
            else:
                await ctx.err(f"jq: error (at {where}) (not a string): {dump(msg)}\n")
            status = 5
        except BreakOut:
            await flush_stderr()
            await ctx.err("jq: error (at <unknown>): break\n")
            status = 5
        except HaltSignal as h:
            await flush_stderr()
            if h.has_message:
                if isinstance(h.message, str):
                    await ctx.err(h.message)
                else:
                    await ctx.err(dump(h.message) + "\n")
            status = h.status
            raise
        except RecursionError:
            await ctx.err("jq: error: stack overflow (recursion too deep)\n")
            status = 5
        except (ValueError, TypeError, OverflowError, KeyError, IndexError, AttributeError) as e:
            # an internal slip must still look like a jq error, never a traceback
            await flush_stderr()
            await ctx.err(f"jq: error (at <stdin>:1): {e}\n")
            status = 5
        return True

    try:
        if opts["null_input"]:
            # like jq, read standard input only when the program asks for it
            if need_stdin and _calls(program, {"input", "inputs"}):
                await ensure_stdin()
            await run_one(None)
        else:
            await ensure_stdin()
            while True:
                value = source.next_value()
                if value is _MISSING:
                    break
                await run_one(value)
                await ctx.checkpoint()
            if source.error:
                await ctx.err(f"parse error: {source.error}\n")
                # jq 1.6 exits 4 after an input parse error, whatever happened before
                status = 4
    except HaltSignal as h:
        return h.status
    if opts["exit_status"] and status == 0:
        if last_output is _MISSING:
            return 4
        if not truthy(last_output):
            return 1
    return status
