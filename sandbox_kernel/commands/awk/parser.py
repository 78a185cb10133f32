"""awk parser: tokens -> AST of tuples (see the node kinds in ``compiler.py``)."""
from __future__ import annotations

from .lexer import AwkSyntaxError, Token, tokenize


#: gawk's special variables, which no function parameter may be named
SPECIAL_VARIABLES = frozenset({
    "ARGC", "ARGIND", "ARGV", "BINMODE", "CONVFMT", "ENVIRON", "ERRNO", "FIELDWIDTHS", "FILENAME", "FNR",
    "FPAT", "FS", "FUNCTAB", "IGNORECASE", "LINT", "NF", "NR", "OFMT", "OFS", "ORS", "PROCINFO", "RLENGTH",
    "RS", "RSTART", "RT", "SUBSEP", "SYMTAB", "TEXTDOMAIN"})


_ASSIGN_OPS = ("=", "+=", "-=", "*=", "/=", "%=", "^=", "**=")


class AwkErrors(Exception):
    """gawk's "error:" messages found while parsing (a function's name or parameters misused):
    ``errors`` is a list of (line, message); the program does not run (exit status 1)."""

    def __init__(self, errors: list[tuple[int, str]]) -> None:
        super().__init__(errors[0][1])
        self.errors = errors


class Program:
    def __init__(self) -> None:
        self.begin: list = []
        self.end: list = []
        self.rules: list = []  # (pattern, pattern2 or None, action or None)
        self.functions: dict[str, tuple[list[str], tuple]] = {}


class Parser:
    def __init__(self, src: str, warnings: list | None = None, bytes_mode: bool = False) -> None:
        self.toks = tokenize(src, warnings, bytes_mode)
        self.pos = 0
        self.no_in = 0  # inside for(...;...) init: 'in' is not an operator
        self.no_gt = 0  # inside print arguments: '>' is redirection
        self.in_function = False
        #: gawk's errors about names, reported together after the parse (AwkErrors)
        self.errors: list[tuple[int, str]] = []
        self.func_names: set[str] = set()  # the functions defined so far
        self.params: list[str] = []  # the current function's parameters
        self.globals_seen: set[str] = set()  # names used as variables so far, outside parameters

    # ------------------------------------------------------------------ helpers
    @property
    def tok(self) -> Token:
        return self.toks[self.pos]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def error(self, tok: Token | None = None) -> AwkSyntaxError:
        tok = tok or self.tok
        if tok.kind in ("NEWLINE", "EOF"):
            return AwkSyntaxError("unexpected newline or end of string", tok.line, tok.col)
        return AwkSyntaxError("syntax error", tok.line, tok.col)

    def accept(self, kind: str) -> Token | None:
        if self.tok.kind == kind:
            t = self.tok
            self.pos += 1
            return t
        return None

    def expect(self, kind: str) -> Token:
        t = self.accept(kind)
        if t is None:
            raise self.error()
        return t

    def newlines(self) -> None:
        while self.tok.kind == "NEWLINE":
            self.pos += 1

    def terminators(self) -> None:
        while self.tok.kind in ("NEWLINE", ";"):
            self.pos += 1

    # ------------------------------------------------------------------ program
    def program(self) -> Program:
        prog = Program()
        try:
            self.terminators()
            while self.tok.kind != "EOF":
                self.item(prog)
                self.terminators()
        except AwkSyntaxError as e:
            e.before = self.errors  # gawk says those first
            raise
        if self.errors:
            raise AwkErrors(self.errors)
        return prog

    def use_name(self, tok: Token) -> None:
        """A variable or array named by ``tok``: a function's name may not be one (gawk)."""
        name = tok.value
        if name in self.params:
            return
        if name in self.func_names:
            self.errors.append((tok.line, f"function `{name}' called with space between name and `(',\n"
                                          "or used as a variable or an array"))
        else:
            self.globals_seen.add(name)

    def function_header(self, name_tok: Token, params: list[str]) -> None:
        name, line = name_tok.value, name_tok.line
        if name in self.func_names or name in self.globals_seen:
            self.errors.append((line, f"function name `{name}' previously defined"))
        for j, p in enumerate(params):
            if p == name:
                self.errors.append((line, f"function `{name}': cannot use function name as parameter name"))
            elif p in SPECIAL_VARIABLES:
                self.errors.append((line, f"function `{name}': cannot use special variable `{p}' "
                                          "as a function parameter"))
            for k in range(j):
                if params[k] == p:
                    self.errors.append((line, f"function `{name}': parameter #{j + 1}, `{p}', "
                                              f"duplicates parameter #{k + 1}"))
        self.func_names.add(name)

    def item(self, prog: Program) -> None:
        kind = self.tok.kind
        if kind == "BEGIN":
            self.pos += 1
            self.newlines()
            prog.begin.append(self.block())
            return
        if kind == "END":
            self.pos += 1
            self.newlines()
            prog.end.append(self.block())
            return
        if kind == "function":
            self.pos += 1
            name_tok = self.tok
            if name_tok.kind not in ("NAME", "FUNC_NAME"):
                raise self.error()
            self.pos += 1
            self.expect("(")
            params = []
            while self.tok.kind != ")":
                params.append(self.expect("NAME").value)
                if not self.accept(","):
                    break
                self.newlines()
            self.expect(")")
            self.newlines()
            self.function_header(name_tok, params)
            self.in_function = True
            self.params = params
            try:
                body = self.block()
            finally:
                self.in_function = False
                self.params = []
            prog.functions.setdefault(name_tok.value, (params, body))
            return
        if kind == "{":
            prog.rules.append((None, None, self.block()))
            return
        pattern = self.expr()
        pattern2 = None
        if self.accept(","):
            self.newlines()
            pattern2 = self.expr()
        action = self.block() if self.tok.kind == "{" else None
        prog.rules.append((pattern, pattern2, action))

    def block(self) -> tuple:
        self.expect("{")
        stmts = []
        self.terminators()
        while self.tok.kind != "}":
            stmts.append(self.statement())
            self.terminators()
        self.expect("}")
        return ("block", stmts)

    def simple_end(self) -> None:
        if self.tok.kind in (";", "NEWLINE"):
            self.pos += 1
        elif self.tok.kind not in ("}", "EOF"):
            raise self.error()

    def opt_newlines_stmt(self) -> tuple:
        self.newlines()
        if self.accept(";"):
            return ("block", [])
        return self.statement()

    def statement(self) -> tuple:
        t = self.tok
        k = t.kind
        if k == "{":
            return self.block()
        if k == "if":
            self.pos += 1
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            then = self.opt_newlines_stmt()
            # an 'else' may follow after newlines or a ';'
            save = self.pos
            self.terminators()
            if self.accept("else"):
                other = self.opt_newlines_stmt()
                return ("if", cond, then, other)
            self.pos = save
            return ("if", cond, then, None)
        if k == "while":
            self.pos += 1
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            if self.accept(";"):
                return ("while", cond, ("block", []))
            return ("while", cond, self.opt_newlines_stmt())
        if k == "do":
            self.pos += 1
            body = self.opt_newlines_stmt()
            self.terminators()
            self.expect("while")
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            self.simple_end()
            return ("do", body, cond)
        if k == "for":
            self.pos += 1
            self.expect("(")
            if self.tok.kind == "NAME" and self.peek().kind == "in" and self.peek(2).kind == "NAME" \
                    and self.peek(3).kind == ")":
                var = self.tok.value
                arr = self.peek(2).value
                self.use_name(self.tok)
                self.use_name(self.peek(2))
                self.pos += 4
                return ("forin", var, arr, self.opt_newlines_stmt())
            if self.tok.kind == "(" and self.peek().kind == "NAME" and self.peek(2).kind == "in" \
                    and self.peek(3).kind == "NAME" and self.peek(4).kind == ")" and self.peek(5).kind == ")":
                var = self.peek().value
                arr = self.peek(3).value
                self.use_name(self.peek())
                self.use_name(self.peek(3))
                self.pos += 6
                return ("forin", var, arr, self.opt_newlines_stmt())
            init = None if self.tok.kind == ";" else self.simple_statement()
            self.expect(";")
            self.newlines()
            cond = None if self.tok.kind == ";" else self.expr()
            self.expect(";")
            self.newlines()
            incr = None if self.tok.kind == ")" else self.simple_statement()
            self.expect(")")
            if self.accept(";"):
                return ("for", init, cond, incr, ("block", []))
            return ("for", init, cond, incr, self.opt_newlines_stmt())
        if k == ";":
            self.pos += 1
            return ("block", [])
        if k in ("break", "continue", "next", "nextfile"):
            self.pos += 1
            self.simple_end()
            return (k,)
        if k == "exit":
            self.pos += 1
            e = None if self.tok.kind in (";", "NEWLINE", "}", "EOF") else self.expr()
            self.simple_end()
            return ("exit", e)
        if k == "return":
            if not self.in_function:
                raise self.error()
            self.pos += 1
            e = None if self.tok.kind in (";", "NEWLINE", "}", "EOF") else self.expr()
            self.simple_end()
            return ("return", e)
        s = self.simple_statement()
        self.simple_end()
        return s

    def simple_statement(self) -> tuple:
        k = self.tok.kind
        if k in ("print", "printf"):
            self.pos += 1
            args = []
            self.no_gt += 1
            try:
                if self.tok.kind == "(":
                    # print (a, b) > "f"  or  print (a)(b)
                    save = self.pos
                    self.pos += 1
                    inner = self.expr_list()
                    if self.accept(")") and self.tok.kind in (";", "NEWLINE", "}", ">", ">>", "|", "EOF"):
                        args = inner
                    else:
                        self.pos = save
                        args = self.expr_list()
                elif self.tok.kind not in (";", "NEWLINE", "}", ">", ">>", "|", "EOF"):
                    args = self.expr_list()
            finally:
                self.no_gt -= 1
            redir = None
            if self.tok.kind in (">", ">>", "|"):
                op = self.tok.kind
                self.pos += 1
                redir = (op, self.concat_expr())
            if k == "printf" and not args:
                raise self.error()
            return (k, args, redir)
        if k == "delete":
            self.pos += 1
            name_tok = self.expect("NAME")
            self.use_name(name_tok)
            name = name_tok.value
            if self.accept("["):
                subs = self.expr_list()
                self.expect("]")
                return ("delete", name, subs)
            return ("delete", name, None)
        return ("expr", self.expr())

    def expr_list(self) -> list:
        items = [self.expr()]
        while self.accept(","):
            self.newlines()
            items.append(self.expr())
        return items

    # ------------------------------------------------------------------ expressions
    def expr(self) -> tuple:
        return self.ternary()

    def ternary(self) -> tuple:
        cond = self.or_expr()
        if self.accept("?"):
            self.newlines()
            a = self.ternary()
            self.newlines()
            self.expect(":")
            self.newlines()
            b = self.ternary()
            return ("cond", cond, a, b)
        if self.tok.kind in ("=", "+=", "-=", "*=", "/=", "%=", "^=", "**="):
            if cond[0] in ("var", "field", "index"):
                op = self.tok.kind
                self.pos += 1
                self.newlines()
                value = self.ternary()
                return ("assign", "^=" if op == "**=" else op, cond, value)
        return cond

    def operand(self, node: tuple) -> tuple:
        """The right operand of ||, &&, ~ or a comparison, which gawk's grammar lets be an
        assignment: ``x == y = 1`` is ``x == (y = 1)`` (not so after + or a unary operator)."""
        if node[0] in ("var", "field", "index") and self.tok.kind in _ASSIGN_OPS:
            op = self.tok.kind
            self.pos += 1
            self.newlines()
            return ("assign", "^=" if op == "**=" else op, node, self.ternary())
        return node

    def or_expr(self) -> tuple:
        left = self.and_expr()
        while self.accept("||"):
            self.newlines()
            left = ("or", left, self.operand(self.and_expr()))
        return left

    def and_expr(self) -> tuple:
        left = self.in_expr()
        while self.accept("&&"):
            self.newlines()
            left = ("and", left, self.operand(self.in_expr()))
        return left

    def in_expr(self) -> tuple:
        left = self.match_expr()
        while not self.no_in and self.tok.kind == "in":
            self.pos += 1
            name_tok = self.expect("NAME")
            self.use_name(name_tok)
            name = name_tok.value
            subs = left[1] if left[0] == "grouplist" else [left]
            # (x in a) may be compared or matched: nothing but a name follows in
            left = self.match_expr(self.cmp_expr(("in", subs, name)))
        return left

    def match_expr(self, left: tuple | None = None) -> tuple:
        left = self.cmp_expr() if left is None else left
        while self.tok.kind in ("~", "!~"):
            neg = self.tok.kind == "!~"
            self.pos += 1
            left = ("match", neg, left, self.operand(self.cmp_expr()))
        return left

    def cmp_expr(self, left: tuple | None = None) -> tuple:
        left = self.concat_expr() if left is None else left
        k = self.tok.kind
        if k in ("<", "<=", "!=", "==", ">=") or (k == ">" and not self.no_gt):
            self.pos += 1
            right = self.operand(self.concat_expr())
            return ("cmp", k, left, right)
        return left

    _CONCAT_START = {"NUMBER", "STRING", "ERE", "NAME", "FUNC_NAME", "BUILTIN", "$", "!", "(", "-",
                     "+", "++", "--"}

    def concat_expr(self) -> tuple:
        left = self.additive()
        while True:
            k = self.tok.kind
            if k == "|" and self.peek().kind == "getline":
                self.pos += 2
                lv = self.opt_lvalue()
                # gawk: (cmd | getline x) + 1, the result an operand of what follows
                left = self.additive(self.multiplicative(("getline", "cmd", lv, left)))
                continue
            if k in self._CONCAT_START and not (k == "in") :
                if k == "in":
                    break
                right = self.additive()
                left = ("concat", left, right)
                continue
            break
        return left

    def additive(self, left: tuple | None = None) -> tuple:
        left = self.multiplicative() if left is None else left
        while self.tok.kind in ("+", "-"):
            op = self.tok.kind
            self.pos += 1
            left = ("binop", op, left, self.multiplicative())
        return left

    def multiplicative(self, left: tuple | None = None) -> tuple:
        left = self.unary() if left is None else left
        while self.tok.kind in ("*", "/", "%"):
            op = self.tok.kind
            self.pos += 1
            left = ("binop", op, left, self.unary())
        return left

    def unary(self) -> tuple:
        k = self.tok.kind
        if k == "!":
            self.pos += 1
            return ("not", self.unary())
        if k in ("-", "+"):
            self.pos += 1
            return ("unary", k, self.unary())
        return self.power()

    def power(self) -> tuple:
        base = self.postfix()
        if self.tok.kind in ("^", "**"):
            self.pos += 1
            # right associative, and binds tighter than unary minus on its left only
            exponent = self.unary_power()
            return ("binop", "^", base, exponent)
        return base

    def unary_power(self) -> tuple:
        k = self.tok.kind
        if k in ("-", "+"):
            self.pos += 1
            return ("unary", k, self.unary_power())
        if k == "!":
            self.pos += 1
            return ("not", self.unary_power())
        return self.power()

    def postfix(self) -> tuple:
        k = self.tok.kind
        if k in ("++", "--"):
            self.pos += 1
            lv = self.primary()
            if lv[0] not in ("var", "field", "index"):
                raise self.error()
            return ("incdec", k, True, lv)
        e = self.primary()
        if e[0] in ("var", "field", "index"):
            if self.tok.kind in ("++", "--"):
                op = self.tok.kind
                self.pos += 1
                return ("incdec", op, False, e)
        return e

    def opt_lvalue(self):
        k = self.tok.kind
        if k == "NAME":
            return self.primary()
        if k == "$":
            self.pos += 1
            return ("field", self.primary_for_field())
        return None

    def primary_for_field(self) -> tuple:
        """The operand of ``$`` (gawk's non_post_simp_exp): a sign or ``!`` applies to a whole
        unary operand, increments included (``$-i++`` is ``$(-(i++))``); a nested ``$x++``
        increments the inner field (``$$a++++`` is ``$($a++)++``); ``$i++`` is ``($i)++``."""
        k = self.tok.kind
        if k in ("++", "--"):
            self.pos += 1
            lv = self.primary()
            if lv[0] not in ("var", "field", "index"):
                raise self.error()
            return ("incdec", k, True, lv)
        if k in ("-", "+"):
            self.pos += 1
            return ("unary", k, self.unary())
        if k == "!":
            self.pos += 1
            return ("not", self.unary())
        if k == "$":
            self.pos += 1
            inner = ("field", self.primary_for_field())
            if self.tok.kind in ("++", "--"):
                op = self.tok.kind
                self.pos += 1
                return ("incdec", op, False, inner)
            return inner
        return self.primary()

    def primary(self) -> tuple:
        t = self.tok
        k = t.kind
        if k == "NUMBER":
            self.pos += 1
            return ("num", t.value)
        if k == "STRING":
            self.pos += 1
            return ("str", t.value)
        if k == "ERE":
            self.pos += 1
            return ("ere", t.value)
        if k == "$":
            self.pos += 1
            return ("field", self.primary_for_field())
        if k == "(":
            self.pos += 1
            self.no_gt_save = self.no_gt
            saved_gt, self.no_gt = self.no_gt, 0
            saved_in, self.no_in = self.no_in, 0
            first = self.expr()
            if self.tok.kind == ",":
                items = [first]
                while self.accept(","):
                    self.newlines()
                    items.append(self.expr())
                self.expect(")")
                self.no_gt, self.no_in = saved_gt, saved_in
                if self.tok.kind != "in":
                    if self.no_gt:
                        return ("grouplist", items)
                    raise self.error()
                return ("grouplist", items)
            self.expect(")")
            self.no_gt, self.no_in = saved_gt, saved_in
            return ("group", first)
        if k == "-":
            self.pos += 1
            return ("unary", "-", self.primary())
        if k == "!":
            self.pos += 1
            return ("not", self.primary())
        if k == "getline":
            self.pos += 1
            lv = self.opt_lvalue()
            if self.accept("<"):
                src = self.primary_no_concat()
                return ("getline", "file", lv, src)
            return ("getline", "plain", lv, None)
        if k == "NAME":
            self.pos += 1
            self.use_name(t)
            if self.accept("["):
                subs = self.expr_list()
                self.expect("]")
                return ("index", t.value, subs)
            return ("var", t.value)
        if k == "FUNC_NAME":
            if t.value in self.params:
                self.errors.append((t.line, f"attempt to use non-function `{t.value}' in function call"))
            self.pos += 1
            self.expect("(")
            args = []
            self.newlines()
            if self.tok.kind != ")":
                args = self.expr_list()
            self.newlines()
            self.expect(")")
            return ("call", t.value, args)
        if k == "BUILTIN":
            self.pos += 1
            name = t.value
            if self.accept("("):
                args = []
                self.newlines()
                if self.tok.kind != ")":
                    args = self.expr_list()
                self.newlines()
                self.expect(")")
            else:
                if name != "length":
                    raise self.error()
                args = []
            return ("builtin", name, args)
        raise self.error()

    def primary_no_concat(self) -> tuple:
        """The operand of ``getline < file``: a primary, optionally with a $ or ()."""
        return self.primary()


def parse(src: str, warnings: list | None = None, bytes_mode: bool = False) -> Program:
    return Parser(src, warnings, bytes_mode).program()
