"""jq programs to ASTs: tuples ``(kind, ...)``."""
from __future__ import annotations

import math
from typing import Any

from .formats import describe
from .lexer import JqSyntaxError, Token, tokenize
from .values import equal, is_number, sort_key

_NOTHING = object()

#: the binary operators jq 1.6 folds when both sides are constant numbers
_FOLD = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b if b else (math.copysign(math.inf, a) * math.copysign(1.0, b) if a else math.nan),
    "==": equal, "!=": lambda a, b: not equal(a, b), "<": lambda a, b: sort_key(a) < sort_key(b),
    "<=": lambda a, b: sort_key(a) <= sort_key(b), ">": lambda a, b: sort_key(a) > sort_key(b),
    ">=": lambda a, b: sort_key(a) >= sort_key(b),
}


#: lookups and the length of their nodes without the ``?`` flag
_PLAIN_LOOKUP = {"index": 3, "slice": 4, "iterate": 2}


#: the kinds of node single() may accept
_SINGLE_KINDS = frozenset({"index", "binop", "neg", "paren", "var"})
_SINGLE: dict = {}  # id(node) -> whether it is single
_SINGLE_NODES: dict = {}  # id(node) -> the node, kept so that its id stays its own


def single(node) -> bool:
    """Whether a node has exactly one output and no try in it (identity, constants,
    variables, plain lookups and arithmetic of those): it is evaluated as a value, with
    nothing for a downstream error to go back into."""
    known = _SINGLE.get(id(node))
    if known is not None:
        return known
    kind = node[0]
    if kind in ("identity", "literal", "var", "literal_array"):
        known = True
    elif kind == "index":
        known = len(node) == 3 and single(node[1]) and single(node[2])
    elif kind == "binop":
        known = single(node[2]) and single(node[3])
    elif kind in ("paren", "neg"):
        known = single(node[1])
    else:
        known = False
    if len(_SINGLE) > 100_000:
        _SINGLE.clear()
        _SINGLE_NODES.clear()
    _SINGLE[id(node)] = known
    _SINGLE_NODES[id(node)] = node
    return known


def constant(node) -> Any:
    """The value of an expression jq 1.6 knows at compile time (a literal, an array or object
    of them, folded arithmetic), else _NOTHING."""
    kind = node[0]
    if kind == "literal":
        return node[1]
    if kind == "literal_array":
        return []
    if kind == "paren":
        return constant(node[1])
    if kind == "collect":
        items = []
        stack = [node[1]]
        while stack:
            part = stack.pop()
            if part[0] == "comma":
                stack += [part[2], part[1]]
                continue
            value = constant(part)
            if value is _NOTHING:
                return _NOTHING
            items.append(value)
        return items
    if kind == "object":
        out = {}
        for key, value in node[1]:
            k, v = constant(key), constant(value)
            if not isinstance(k, str) or v is _NOTHING:
                return _NOTHING
            out[k] = v
        return out
    return _NOTHING


def _folded(op: str, lhs, rhs):
    """``lhs op rhs``, folded when both are constant numbers (jq 1.6 refuses a constant
    division whose result is infinite)."""
    a, b = constant(lhs), constant(rhs)
    if op in _FOLD and is_number(a) and is_number(b):
        value = _FOLD[op](a, b)
        if op == "/" and math.isinf(value):
            raise JqSyntaxError("Division by zero?")
        return ("literal", value)
    return ("binop", op, lhs, rhs)


def _object_key(node):
    """An object key: one known at compile time must be a string."""
    value = constant(node)
    if value is not _NOTHING and not isinstance(value, str):
        raise JqSyntaxError(f"Cannot use {describe(value)} as object key")
    return node


# AST nodes are tuples: (kind, ...)

class Import:
    """``import "path" as name META;`` (``as $name``: data), or ``include "path" META;``."""

    __slots__ = ("path", "alias", "is_data", "meta")

    def __init__(self, path: str, alias: str | None, is_data: bool, meta: dict | None) -> None:
        self.path = path
        self.alias = alias
        self.is_data = is_data
        self.meta = meta


class TopLevel:
    """A program or a module file: its metadata, imports and body."""

    def __init__(self) -> None:
        self.meta: Any = None
        self.imports: list[Import] = []
        self.body: tuple = ("identity",)
        self.only_definitions = False


class Parser:
    def __init__(self, src: str) -> None:
        self.src = src
        self.tokens = tokenize(src)
        self.i = 0
        self.post_term = False

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

    def parse_top(self) -> "TopLevel":
        """A whole program or module: ``module META;``, then imports and includes, then the
        body -- an expression, or only definitions (``def f: 1;``: the body is ``.``)."""
        top = TopLevel()
        if self.at("KW", "module"):
            self.next()
            meta = self.parse_pipe()
            value = constant(meta)
            if value is _NOTHING:
                raise JqSyntaxError("Module metadata must be constant")
            top.meta = value
            self.expect_op(";")
        while self.at("KW", "import") or self.at("KW", "include"):
            top.imports.append(self._parse_import())
        defs = []
        while self.at("KW", "def"):
            defs.append(self.parse_def())
        if self.at("EOF"):
            body: tuple = ("identity",)
            top.only_definitions = True
        else:
            body = self.parse_pipe()
            if not self.at("EOF"):
                raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}, expecting $end")
        for fdef in reversed(defs):
            body = ("defs", fdef, body)
        top.body = body
        return top

    def _parse_import(self) -> "Import":
        include = self.next().value == "include"
        if not self.at("STR"):
            raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}, expecting QQSTRING_START")
        path = self.parse_string_literal(None)
        if path[0] != "literal":
            raise JqSyntaxError("Import path must be constant")
        alias, is_data = None, False
        if not include:
            self.expect_kw("as")
            tok = self.next()
            if tok.kind == "VAR":
                alias, is_data = tok.value, True
            elif tok.kind == "IDENT":
                alias = tok.value
            else:
                raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}, expecting IDENT or '$'")
        meta = None
        if not self.at_op(";"):
            value = constant(self.parse_pipe())
            if value is _NOTHING:
                raise JqSyntaxError("Module metadata must be constant")
            if not isinstance(value, dict):
                raise JqSyntaxError("Module metadata must be an object")
            meta = value
        self.expect_op(";")
        return Import(path[1], alias, is_data, meta)

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

    _ASSIGN = ("=", "|=", "+=", "-=", "*=", "/=", "%=", "//=")

    def parse_assign(self):
        # jq 1.6: assignments bind tighter than // (.a = .b // 1 is (.a = .b) // 1) and do
        # not chain
        lhs = self.parse_or()
        if self.at_op(*self._ASSIGN):
            op = self.next().value
            rhs = self.parse_or()
            if self.at_op(*self._ASSIGN):
                raise JqSyntaxError(f"syntax error, unexpected {self.peek().value}")
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
            node = _folded(op, node, self.parse_add())
            if self.at_op("==", "!=", "<", "<=", ">", ">="):
                raise JqSyntaxError(f"syntax error, unexpected '{self.peek().value}'")
        return node

    def parse_add(self):
        node = self.parse_mul()
        while self.at_op("+", "-"):
            op = self.next().value
            node = _folded(op, node, self.parse_mul())
        return node

    def parse_mul(self):
        node = self.parse_unary()
        if node[0] == "neg":
            return node
        while self.at_op("*", "/", "%"):
            op = self.next().value
            rhs = self.parse_unary()
            node = _folded(op, node, rhs) if op != "%" else ("binop", op, node, rhs)
            if rhs[0] == "neg":
                break
        return node

    def parse_unary(self):
        # jq 1.6's unary minus takes the whole product after it: -1/0 is -(1/0)
        if self.at_op("-"):
            self.next()
            return ("neg", self.parse_mul())
        return self.parse_postfix()

    def parse_postfix(self):
        node = self.parse_postfix_no_as()
        if self.at("KW", "as"):
            if self.post_term:
                raise JqSyntaxError("syntax error, unexpected as, expecting $end")
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

    def _var_name(self) -> str:
        """A $name that binds a variable ($__loc__ cannot)."""
        tok = self.next()
        if tok.value == "__loc__":
            raise JqSyntaxError("syntax error, unexpected __loc__, expecting IDENT")
        return tok.value

    def parse_pattern(self):
        if self.at("VAR"):
            return ("pvar", self._var_name())
        if self.at_op("["):
            self.next()
            elems = []
            while True:
                if self.at_op("]"):
                    raise JqSyntaxError("syntax error, unexpected ']', expecting '$' or '[' or '{'")
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
                    name = self._var_name()
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
                        key = _object_key(self.parse_pipe())
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
        if tok.kind == "IDENT" and tok.value in ("true", "false", "null"):
            self.next()  # constants, whatever is defined with these names
            return ("literal", {"true": True, "false": False, "null": None}[tok.value])
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
                handler = self.parse_postfix()  # ... catch . as $e | body: the handler's
            return ("try", body, handler)
        if kw in ("reduce", "foreach"):
            self.next()
            if self.at("KW") and self.peek().value in ("if", "try", "reduce", "foreach", "label", "def"):
                raise JqSyntaxError(f"syntax error, unexpected {self.peek().value}")
            source = self.parse_postfix_no_as()
            if self.post_term:
                raise JqSyntaxError("syntax error, unexpected '?', expecting FIELD or as or '.' or '['")
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
        """A term and its suffixes. After a ``?`` that is not a lookup's own (``(e)?``, ``f?``),
        only more ``?`` may follow: jq 1.6's PostTerm (``self.post_term`` says so)."""
        keyword = self.at("KW") and self.peek().value in ("if", "try", "reduce", "foreach", "label", "def")
        node = self.parse_term()
        # if/try/reduce/foreach expressions are no terms in jq 1.6: only ? may follow them
        self.post_term = keyword
        while True:
            if self.post_term and not self.at_op("?"):
                return node
            if self.at("FIELD"):
                node = ("index", node, ("literal", self.next().value))
            elif self.at_op(".") and self.peek(1).kind == "STR":
                self.next()
                node = ("index", node, self.parse_string_literal(None))
            elif self.at_op("["):
                node = self.parse_bracket_suffix(node)
            elif self.at_op("?"):
                self.next()
                if node[0] in _PLAIN_LOOKUP and len(node) == _PLAIN_LOOKUP[node[0]]:
                    node = node + (True,)  # .a? .[k]? .[]?: only that lookup's error is dropped
                else:
                    node = ("try", node, None)
                    self.post_term = True
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
            if tok.kind == "OP" and tok.value == "}" and entries:
                break  # a trailing comma
            if tok.kind == "VAR":
                name = self._var_name()
                entries.append((("literal", name), ("var", name)))
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
                    if not self.at("STR"):
                        raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}, "
                                            "expecting QQSTRING_START")
                    key = self.parse_string_literal(tok.value)
                elif tok.kind == "OP" and tok.value == "(":
                    self.next()
                    key = _object_key(self.parse_pipe())
                    self.expect_op(")")
                else:
                    raise JqSyntaxError(f"syntax error, unexpected {self._describe(tok)}")
                if self.at_op(":"):
                    self.next()
                    value = self.parse_object_value()
                elif tok.kind == "OP":  # {(e)} has no value to take
                    raise JqSyntaxError(f"syntax error, unexpected {self._describe(self.peek())}, expecting ':'")
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
            break
        self.expect_op("}")
        return ("object", entries)

    def parse_object_value(self):
        """An object value, jq 1.6's ExpD: terms, negated or not, in pipes (no operators, no
        if, reduce, try ... without parentheses)."""
        node = self._object_value_term()
        while self.at_op("|"):
            self.next()
            node = ("pipe", node, self._object_value_term())
        return node

    def _object_value_term(self):
        if self.at_op("-"):
            self.next()
            return ("neg", self._object_value_term())
        tok = self.peek()
        if tok.kind == "KW":
            raise JqSyntaxError(f"syntax error, unexpected {tok.value}")
        return self.parse_postfix_no_as()
