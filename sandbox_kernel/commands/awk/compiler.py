"""Compile the awk AST to Python source (async functions) run against a ``Runtime``.

Values: float for numbers, str for strings, ``StrNum`` (a str subclass) for input-derived
strings that compare numerically when they look numeric; ``UNINIT`` is the uninitialised value.
Globals are Python globals ``v_NAME`` (scalars) / ``a_NAME`` (arrays) of the generated module;
function locals are ``l_NAME``.
"""
from __future__ import annotations

import re

from .parser import Program

SPECIAL = {"NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT", "RSTART",
           "RLENGTH", "FILENAME", "ARGC", "RT"}
SPECIAL_ARRAYS = {"ENVIRON", "ARGV"}


class CompileError(Exception):
    """A semantic error found while compiling; ``kind`` is gawk's word for it ("fatal" exits 2,
    "error" exits 1)."""

    def __init__(self, message: str, kind: str = "fatal", times: int = 1) -> None:
        super().__init__(message)
        self.kind = kind
        self.times = times  # gawk says some twice


class Compiler:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.consts: dict[str, object] = {}
        self.regexes: dict[str, str] = {}
        self.scalars: set[str] = set()
        self.global_kinds: dict[str, str] = {}  # find_types
        self.param_kinds: dict[str, dict[str, str]] = {}
        self.locals: dict[str, str] = {}  # awk name -> python name in the current function
        self.local_kinds: dict[str, str] = {}
        self.tmp = 0
        self.loop_depth = 0
        self.ranges = 0
        #: compiling the main rules, where numeric fields read the batch's columns first
        self.in_rules = False
        #: the fields the rules read as numbers (a global _C<i> each: the batch's column or None)
        self.column_fields: set[int] = set()

    # ------------------------------------------------------------------ type inference
    def find_types(self) -> None:
        """Whether each global and each function parameter is an array or a scalar.

        A name's uses: as an array (subscript, ``in``, ``delete``, for-in's array, split's
        target, asort's arguments) or a scalar (anything else but ``length(x)`` and being
        passed bare to a function, which takes the uses of the parameter it is passed to).
        Used one way only, a name is typed at compile time: globals ``a_x`` (a dict) or
        ``v_x``, parameters hold a dict or a value. Used both ways (gawk types such a name
        at its first use and the other use is fatal when it runs), or a parameter some call
        passes the other kind (or such a name), it is *dynamic*: each use checks at run time
        (``runtime.sread`` and friends), with gawk's fatal messages; an untyped global passed
        to a dynamic parameter goes by reference (``runtime.Ref``), which the parameter's
        first use types."""
        functions = self.prog.functions
        uses: dict[tuple, set] = {}
        passes: list[tuple] = []  # (name's key, callee, argument index)
        calls: list[tuple] = []  # (scope, callee, args)

        def key(scope, name):
            if scope is not None and name in functions[scope][0]:
                return ("p", scope, name)
            return ("g", name)

        def use(scope, name, how):
            uses.setdefault(key(scope, name), set()).add(how)

        def walk(n, scope):
            if isinstance(n, list):
                for x in n:
                    walk(x, scope)
                return
            if not isinstance(n, tuple) or not n:
                return
            k = n[0]
            if k == "var":
                use(scope, n[1], "S")
            elif k == "index":
                use(scope, n[1], "A")
                walk(n[2], scope)
            elif k == "in" and isinstance(n[2], str):
                use(scope, n[2], "A")
                walk(n[1], scope)
            elif k == "delete":
                use(scope, n[1], "A")
                walk(n[2], scope)
            elif k == "forin":
                use(scope, n[1], "S")
                use(scope, n[2], "A")
                walk(n[3], scope)
            elif k == "builtin":
                name, args = n[1], n[2]
                for i, a in enumerate(args):
                    if a[0] == "var" and ((name == "split" and i == 1) or (name == "match" and i == 2)
                                          or name in ("asort", "asorti")):
                        use(scope, a[1], "A")
                    elif a[0] == "var" and name == "length":
                        use(scope, a[1], "L")  # types an untyped name as a scalar (gawk)
                    else:
                        walk(a, scope)
            elif k == "call":
                calls.append((scope, n[1], n[2]))
                for i, a in enumerate(n[2]):
                    if a[0] == "var":
                        uses.setdefault(key(scope, a[1]), set())
                        passes.append((key(scope, a[1]), n[1], i))
                    else:
                        walk(a, scope)
            else:
                for x in n[1:]:
                    walk(x, scope)

        for blk in self.prog.begin + self.prog.end:
            walk(blk, None)
        for rule in self.prog.rules:
            for x in rule:
                walk(x, None)
        for fname, (params, body) in functions.items():
            walk(body, fname)
        # a name passed bare to a parameter is used as the parameter is
        changed = True
        while changed:
            changed = False
            for src, callee, i in passes:
                if callee in functions and i < len(functions[callee][0]):
                    got = uses.get(("p", callee, functions[callee][0][i]), set())
                    mine = uses.setdefault(src, set())
                    if not got <= mine:
                        mine |= got
                        changed = True

        def kind(k):
            if k[0] == "g" and k[1] in SPECIAL_ARRAYS:
                return "array"
            if k[0] == "g" and k[1] in SPECIAL:
                return "scalar"
            u = uses.get(k, ())
            if "A" in u:  # length(x) before x[k] is fatal in gawk: dynamic then (a cheap check)
                return "dyn" if "S" in u or "L" in u else "array"
            return "scalar" if "S" in u or k[0] == "g" else "none"

        kinds = {k: kind(k) for k in uses}
        for fname, (params, _) in functions.items():
            for p in params:
                kinds.setdefault(("p", fname, p), "none")
        # a parameter some call passes the other kind, or a dynamic name, checks at run time
        changed = True
        while changed:
            changed = False
            for scope, callee, args in calls:
                if callee not in functions:
                    continue
                params = functions[callee][0]
                for i, a in enumerate(args[:len(params)]):
                    q = ("p", callee, params[i])
                    kq = kinds[q]
                    if kq in ("dyn", "none"):
                        continue
                    ka = kinds.get(key(scope, a[1]), "scalar") if a[0] == "var" else "scalar"
                    if ka == "dyn" or (ka == "array") != (kq == "array"):
                        kinds[q] = "dyn"
                        changed = True
        self.global_kinds = {k[1]: v for k, v in kinds.items() if k[0] == "g"}
        self.param_kinds = {fname: {p: kinds[("p", fname, p)] for p in params}
                            for fname, (params, _) in functions.items()}

    def kind_of(self, name: str) -> str:
        """"array", "scalar", "dyn" or (a parameter used no way) "none"."""
        if name in self.locals:
            return self.local_kinds[name]
        return self.global_kinds.get(name, "array" if name in SPECIAL_ARRAYS else "scalar")

    # ------------------------------------------------------------------ names
    def const(self, value) -> str:
        key = repr(value)
        name = self.consts.get(key)
        if name is None:
            name = f"K{len(self.consts)}"
            self.consts[key] = name
            self.const_values[name] = value
        return name

    def regex(self, source: str) -> str:
        name = self.regexes.get(source)
        if name is None:
            name = f"RX{len(self.regexes)}"
            self.regexes[source] = name
        return name

    def scalar_ref(self, name: str) -> str:
        """A scalar (not dynamic) variable's Python name."""
        if name in self.locals:
            return self.locals[name]
        if name in SPECIAL:
            return f"R.{name}"
        self.scalars.add(name)
        return f"v_{name}"

    def scalar_read(self, name: str) -> str:
        kind = self.kind_of(name)
        if kind in ("scalar", "none") and name not in SPECIAL_ARRAYS:
            return self.scalar_ref(name)
        if kind == "array":
            return f"array_in_scalar({name!r})"
        if name in self.locals:
            ref = self.locals[name]
            return f"({ref} := sread({ref}, {name!r}))"
        return f"sread_g(NS, 'v_{name}', {name!r})"

    def array_ref(self, name: str) -> str:
        kind = self.kind_of(name)
        if name in self.locals:
            ref = self.locals[name]
            if kind == "array":
                return ref
            return f"({ref} if {ref}.__class__ is dict else ({ref} := aref({ref}, {name!r})))"
        if name == "ENVIRON":
            return "R.ENVIRON"
        if name == "ARGV":
            return "R.ARGV"
        if name in SPECIAL:
            return f"scalar_as_array({name!r})"
        if kind == "dyn":  # an array once typed: the check is all it costs
            return f"(v_{name} if v_{name}.__class__ is dict else aref_g(NS, 'v_{name}', {name!r}))"
        return f"a_{name}"

    def passed(self, name: str) -> str:
        """A bare name passed to a parameter that holds either kind."""
        kind = self.kind_of(name)
        if kind == "array":
            return self.array_ref(name)
        if kind == "dyn":
            return self.locals[name] if name in self.locals else f"pass_g(NS, 'v_{name}', {name!r})"
        return f"copyval({self.scalar_read(name)})"

    def new_tmp(self) -> str:
        self.tmp += 1
        return f"_t{self.tmp}"

    # ------------------------------------------------------------------ expressions
    # Each returns (python source, type) with type "num", "str" or "any".
    def num(self, node) -> str:
        if node[0] == "field" and node[1][0] == "num" and node[1][1] >= 1:
            i = int(node[1][1])
            if self.in_rules and i <= 32:  # the column when the main loop made one, else a split
                self.column_fields.add(i)
                return f"(_C{i}[R.pending_pos - 1] if _C{i} is not None else R.fnum({i}))"
            return f"R.fnum({i})"
        src, t = self.expr(node)
        if t == "num":
            return src
        if node[0] == "var" and src.startswith(("v_", "l_")):
            return f"({src} if {src}.__class__ is float else num({src}))"
        return f"num({src})"

    def str_(self, node) -> str:
        if node[0] == "field" and node[1][0] == "num" and node[1][1] >= 0:
            return f"R.fstr({int(node[1][1])})" if node[1][1] >= 1 else "R.text0()"
        src, t = self.expr(node)
        if t == "str":
            return src
        return f"tostr({src})"

    def cond(self, node) -> str:
        """Python truth value of an awk expression."""
        k = node[0]
        if k == "ere":
            return f"({self.regex(node[1])}.search(R.text0()) is not None)"
        if k == "group":
            return self.cond(node[1])
        if k == "not":
            return f"(not {self.cond(node[1])})"
        if k == "and":
            return f"({self.cond(node[1])} and {self.cond(node[2])})"
        if k == "or":
            return f"({self.cond(node[1])} or {self.cond(node[2])})"
        if k == "cmp":
            return self.compare(node)
        if k == "match":
            return self.match(node)
        if k == "in":
            return self.in_test(node)
        src, t = self.expr(node)
        if t == "num":
            return f"({src} != 0.0)"
        if t == "str":
            return f"({src} != '')"
        return f"truth({src})"

    def boolnum(self, cond_src: str) -> tuple[str, str]:
        return f"(1.0 if {cond_src} else 0.0)", "num"

    def compare(self, node) -> str:
        _, op, a, b = node
        pyop = op
        sa, ta = self.expr(a)
        sb, tb = self.expr(b)
        if ta == "num" and tb == "num":
            return f"({sa} {pyop} {sb})"
        if ta == "str" or tb == "str":
            return f"({self.str_(a)} {pyop} {self.str_(b)})"
        return f"compare({sa}, {sb}, {op!r})"

    def match(self, node) -> str:
        _, neg, a, b = node
        subject = self.str_(a)
        if b[0] in ("ere", "str"):
            test = f"({self.regex(b[1])}.search({subject}) is not None)"
        else:  # the subject is evaluated first: ($2) ~ $2 = "x" matches the old $2
            test = f"rxmatch({subject}, {self.str_(b)})"
        return f"(not {test})" if neg else test

    def regex_operand(self, node) -> str:
        if node[0] == "ere":
            return self.regex(node[1])
        if node[0] == "str":
            return self.regex(node[1])
        return f"dynrx({self.str_(node)})"

    def in_test(self, node) -> str:
        _, subs, name = node
        return f"({self.subscript(subs)} in {self.array_ref(name)})"

    def subscript(self, subs) -> str:
        if len(subs) == 1:
            return self.key(subs[0])
        return "R.SUBSEP.join([" + ", ".join(self.key(s) for s in subs) + "])"

    def key(self, node) -> str:
        src, t = self.expr(node)
        if t == "str":
            return src
        if t == "num":
            return f"numkey({src})"
        return f"tostr({src})"

    def expr(self, node) -> tuple[str, str]:
        k = node[0]
        m = getattr(self, "e_" + k)
        return m(node)

    def e_num(self, node):
        v = node[1]
        return repr(float(v)), "num"

    def e_str(self, node):
        return repr(node[1]), "str"

    def e_ere(self, node):
        return self.boolnum(self.cond(node))

    def e_group(self, node):
        return self.expr(node[1])

    def e_grouplist(self, node):
        # (a, b) outside 'in' (print (a,b)): concatenate with OFS at print time; here join
        return "R.OFS.join([" + ", ".join(self.str_(x) for x in node[1]) + "])", "str"

    def e_var(self, node):
        name = node[1]
        if name == "NF" and name not in self.locals:
            return "R.getNF()", "num"  # reading NF splits the record
        if name == "RT" and name not in self.locals:
            return "R.getRT()", "str"
        return self.scalar_read(name), "any"

    def e_field(self, node):
        idx = node[1]
        if idx[0] == "num":
            i = int(idx[1])
            if i == 0:
                return "R.field0()", "any"
            return f"R.field({i})", "any"
        return f"R.field(fieldindex({self.num(idx)}))", "any"

    def e_index(self, node):
        _, name, subs = node
        return f"getitem({self.array_ref(name)}, {self.subscript(subs)})", "any"

    def assign_to(self, lv, value_src: str) -> str:
        """Python expression assigning value_src (an awk value) to lvalue; yields the value."""
        k = lv[0]
        if k == "var":
            name = lv[1]
            if name in SPECIAL and name not in self.locals:
                return f"R.setvar({name!r}, {value_src})"
            kind = self.kind_of(name)
            if kind == "dyn":
                if name in self.locals:
                    ref = self.locals[name]
                    return f"({ref} := swrite({ref}, {value_src}, {name!r}))"
                return f"swrite_g(NS, 'v_{name}', {value_src}, {name!r})"
            if kind == "array":
                return f"array_in_scalar({name!r})"
            return f"({self.scalar_ref(name)} := {value_src})"
        if k == "field":
            idx = lv[1]
            return f"R.setfield(fieldindex({self.num(idx)}), {value_src})"
        if k == "index":
            return f"setitem({self.array_ref(lv[1])}, {self.subscript(lv[2])}, {value_src})"
        if k == "group":
            return self.assign_to(lv[1], value_src)
        raise CompileError("assignment to non-lvalue")

    def e_assign(self, node):
        """gawk evaluates the value first, then the variable's subscript or field number, then
        (for ``+=`` and the like) reads the variable: ``b += b++``, ``a[i++] = i``."""
        _, op, lv, value = node
        first = None
        while lv[0] == "group":
            lv = lv[1]
        where = lv[2] if lv[0] == "index" else lv[1] if lv[0] == "field" else None
        if (_has_effects(value) and (op != "=" or where is not None)) or _has_effects(where):
            first = self.new_tmp()
        if op == "=":
            src, t = self.expr(value)
            if t == "any":
                src = f"copyval({src})"
            if first is not None:
                return f"(({first} := {src}), {self.assign_to(lv, first)})[1]", t
            return self.assign_to(lv, src), t
        rhs = self.num(value)
        if first is not None:
            rhs, value_src = first, rhs
        pyop = {"+=": "+", "-=": "-", "*=": "*"}.get(op)
        if pyop:
            code = self.update(lv, lambda cur: f"({cur} {pyop} {rhs})")
        else:
            func = {"/=": "div", "%=": "mod", "^=": "power"}[op]
            code = self.update(lv, lambda cur: f"{func}({cur}, {rhs})")
        if first is not None:
            return f"(({first} := {value_src}), {code})[1]", "num"
        return code, "num"

    def update(self, lv, new_value) -> str:
        """Read-modify-write of an lvalue whose subscript or field number is evaluated once:
        ``new_value(current numeric value source)`` gives the value stored."""
        k = lv[0]
        if k == "group":
            return self.update(lv[1], new_value)
        if k == "index":
            t = self.new_tmp()
            arr = self.array_ref(lv[1])
            cur = f"num(getitem({arr}, {t}))"
            return f"setitem({arr}, ({t} := {self.subscript(lv[2])}), {new_value(cur)})"
        if k == "field":
            t = self.new_tmp()
            return f"R.setfield(({t} := fieldindex({self.num(lv[1])})), {new_value(f'R.fnum({t})')})"
        return self.assign_to(lv, new_value(self.num(lv)))

    def e_incdec(self, node):
        _, op, pre, lv = node
        delta = "1.0" if op == "++" else "-1.0"
        if lv[0] == "index":
            return f"incitem({self.array_ref(lv[1])}, {self.subscript(lv[2])}, {delta}, {pre})", "num"
        new = self.update(lv, lambda cur: f"({cur} + {delta})")
        if pre:
            return new, "num"
        return f"({new} - {delta})", "num"

    def e_cond(self, node):
        _, c, a, b = node
        sa, ta = self.expr(a)
        sb, tb = self.expr(b)
        return f"({sa} if {self.cond(c)} else {sb})", ta if ta == tb else "any"

    def e_or(self, node):
        return self.boolnum(self.cond(node))

    e_and = e_or
    e_not = e_or
    e_cmp = e_or
    e_match = e_or
    e_in = e_or

    def e_concat(self, node):
        parts = []

        def flatten(n):
            if n[0] == "concat":
                flatten(n[1])
                flatten(n[2])
            else:
                parts.append(n)
        flatten(node)
        if all(_short(p) for p in parts):  # fields and constants: a record's size at most
            return "(" + " + ".join(self.str_(p) for p in parts) + ")", "str"
        # through cat/cats: a result too big for the memory limit is refused before it is made
        if len(parts) == 2:
            return f"cat({self.str_(parts[0])}, {self.str_(parts[1])})", "str"
        return "cats((" + ", ".join(self.str_(p) for p in parts) + "))", "str"

    def e_binop(self, node):
        _, op, a, b = node
        if op in "/%" and b[0] == "num" and b[1] == 0:
            raise CompileError("division by zero attempted" + (" in `%'" if op == "%" else ""), "error")
        sa = self.num(a)
        sb = self.num(b)
        if op in "+-*":
            return f"({sa} {op} {sb})", "num"
        if op == "/":
            return f"div({sa}, {sb})", "num"
        if op == "%":
            return f"mod({sa}, {sb})", "num"
        return f"power({sa}, {sb})", "num"

    def e_unary(self, node):
        _, op, a = node
        if op == "-":
            return f"(-{self.num(a)})", "num"
        return f"(+{self.num(a)})", "num"

    def e_call(self, node):
        _, name, args = node
        if name not in self.prog.functions:  # gawk: fatal when it is called, the arguments evaluated
            srcs = [self.passed(a[1]) if a[0] == "var" else self.expr(a)[0] for a in args]
            return f"R.undefined_function({name!r}, {', '.join(srcs)})", "any"
        params, _ = self.prog.functions[name]
        if len(args) > len(params):
            # gawk warns and ignores the extra arguments
            self.warnings.append(f"function `{name}' called with more arguments than declared")
            args = args[:len(params)]
        kinds = self.param_kinds[name]
        srcs = []
        for i, a in enumerate(args):
            kind = kinds[params[i]]
            if kind == "array":  # find_types: then the argument is an array's name
                srcs.append(self.array_ref(a[1]))
            elif a[0] == "var" and kind != "scalar":
                srcs.append(self.passed(a[1]))
            else:
                s, t = self.expr(a)
                srcs.append(s if t != "any" else f"copyval({s})")
        return f"({self.aw}f_{name}({', '.join(srcs)}))", "any"

    def e_getline(self, node):
        _, kind, lv, src = node
        if kind == "plain":
            call = "await R.getline_main(%s)" % ("False" if lv is None else "True")
        elif kind == "file":
            call = f"await R.getline_file({self.str_(src)}, {lv is not None})"
        else:
            call = f"await R.getline_cmd({self.str_(src)}, {lv is not None})"
        if lv is None:
            return f"({call})", "num"
        t = self.new_tmp()
        while lv[0] == "group":
            lv = lv[1]
        # the variable's subscript or field number is evaluated before the read, as gawk does
        if lv[0] == "index":
            k = self.new_tmp()
            arr = self.array_ref(lv[1])
            return (f"(getitem({arr}, {k} := {self.subscript(lv[2])}), ({t} := {call}), "
                    f"(setitem({arr}, {k}, R.gl_value) if {t} > 0 else 0))[1]"), "num"
        if lv[0] == "field":
            k = self.new_tmp()
            return (f"(({k} := fieldindex({self.num(lv[1])})), ({t} := {call}), "
                    f"(R.setfield({k}, R.gl_value) if {t} > 0 else 0))[1]"), "num"
        return f"(({t} := {call}), ({self.assign_to(lv, 'R.gl_value')} if {t} > 0 else 0))[0]", "num"

    _ARITY = {"length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 3), "sub": (2, 3),
              "gsub": (2, 3), "gensub": (3, 4), "match": (2, 3), "sprintf": (1, 10**9),
              "tolower": (1, 1), "toupper": (1, 1), "int": (1, 1), "sqrt": (1, 1), "exp": (1, 1),
              "log": (1, 1), "sin": (1, 1), "cos": (1, 1), "atan2": (2, 2), "rand": (0, 0),
              "srand": (0, 1), "system": (1, 1), "close": (1, 1), "fflush": (0, 1),
              "systime": (0, 0), "strftime": (0, 3), "mktime": (1, 2), "asort": (1, 2),
              "asorti": (1, 2), "strtonum": (1, 1), "and": (2, 10**9), "or": (2, 10**9),
              "xor": (2, 10**9), "lshift": (2, 2), "rshift": (2, 2), "compl": (1, 1)}

    def e_builtin(self, node):
        _, name, args = node
        n = len(args)
        low, high = self._ARITY[name]
        if not low <= n <= high:
            raise CompileError(f"{n} is invalid as number of arguments for {name}", "error")
        if name in ("split", "sub", "gsub") and n >= 2:
            target = args[1] if name == "split" else (args[2] if n == 3 else None)
            if name == "split" and target[0] != "var":
                raise CompileError("split: second argument is not an array")
        if name == "match" and n == 3 and args[2][0] != "var":
            raise CompileError("match: third argument is not an array")
        if name == "length":
            if n == 0:
                return "float(len(R.text0()))", "num"
            a = args[0]
            if a[0] == "var" and self.kind_of(a[1]) == "array":
                return f"float(len({self.array_ref(a[1])}))", "num"
            if a[0] == "var" and self.kind_of(a[1]) == "dyn" and a[1] not in self.locals:
                return f"dlen_g(NS, 'v_{a[1]}', {a[1]!r})", "num"
            if a[0] == "var" and self.kind_of(a[1]) == "dyn":  # a local: typed a scalar when untyped
                ref = self.locals[a[1]]
                return f"dlen(({ref} := scalar_if_untyped({ref})), {a[1]!r})", "num"
            if a[0] == "var" and self.kind_of(a[1]) == "none":
                return f"dlen({self.passed(a[1])}, {a[1]!r})", "num"
            return f"float(len({self.str_(a)}))", "num"
        if name == "substr":
            if n not in (2, 3):
                raise CompileError(f"{n} is invalid as number of arguments for substr", "error")
            third = self.num(args[2]) if n == 3 else "None"
            return f"substr({self.str_(args[0])}, {self.num(args[1])}, {third})", "str"
        if name == "index":
            return f"float({self.str_(args[0])}.find({self.str_(args[1])}) + 1)", "num"
        if name == "split":
            if n not in (2, 3):
                raise CompileError(f"{n} is invalid as number of arguments for split", "error")
            arr = self.array_ref(args[1][1])
            sep = "None" if n == 2 else self.split_sep(args[2])
            return f"R.split({self.str_(args[0])}, {arr}, {sep})", "num"
        if name in ("sub", "gsub"):
            if n not in (2, 3):
                raise CompileError(f"{n} is invalid as number of arguments for {name}", "error")
            rx = self.regex_operand(args[0])
            repl = self.str_(args[1])
            target = args[2] if n == 3 else ("field", ("num", 0.0))
            t = self.new_tmp()
            value = self.str_(target)
            glob = "True" if name == "gsub" else "False"
            call = f"substitute({rx}, {repl}, {value}, {glob})"
            if target[0] not in ("var", "field", "index", "group"):
                return f"({call})[1]", "num"
            return f"(({t} := {call}), ({self.assign_to(target, t + '[0]')} if {t}[1] else 0), {t}[1])[2]", "num"
        if name == "gensub":
            if n not in (3, 4):
                raise CompileError(f"{n} is invalid as number of arguments for gensub", "error")
            target = self.str_(args[3]) if n == 4 else "R.text0()"
            regex, replacement, how = self.regex_operand(args[0]), self.str_(args[1]), self.expr(args[2])[0]
            return f"gensub({regex}, {replacement}, {how}, {target})", "str"
        if name == "match":
            groups = self.array_ref(args[2][1]) if n == 3 else "None"
            return f"R.match({self.str_(args[0])}, {self.regex_operand(args[1])}, {groups})", "num"
        if name == "sprintf":
            if n == 0:
                raise CompileError("0 is invalid as number of arguments for sprintf", "error")
            return f"sprintf({self.str_(args[0])}, [{', '.join(self.expr(a)[0] for a in args[1:])}])", "str"
        if name == "tolower":
            return f"R.lower({self.str_(args[0])})", "str"
        if name == "toupper":
            return f"R.upper({self.str_(args[0])})", "str"
        if name == "int":
            return f"trunc({self.num(args[0])})", "num"
        if name in ("sqrt", "exp", "log", "sin", "cos"):
            return f"math_{name}({self.num(args[0])})", "num"
        if name == "atan2":
            return f"math.atan2({self.num(args[0])}, {self.num(args[1])})", "num"
        if name == "rand":
            return "R.rand()", "num"
        if name == "srand":
            return f"R.srand({self.num(args[0]) if n else 'None'})", "num"
        if name == "system":
            return f"(await R.system({self.str_(args[0])}))", "num"
        if name == "close":
            return f"(await R.close({self.str_(args[0])}))", "num"
        if name == "fflush":
            return "(await R.fflush())", "num"
        if name == "systime":
            return "float(int(time.time()))", "num"
        if name == "strftime":
            srcs = [self.str_(args[0]) if n > 0 else "None",
                    self.num(args[1]) if n > 1 else "None",
                    self.cond(args[2]) if n > 2 else "False"]
            return f"R.strftime({', '.join(srcs)})", "str"
        if name == "mktime":
            return f"R.mktime({self.str_(args[0])})", "num"
        if name in ("asort", "asorti"):
            for a in args:
                if a[0] != "var":
                    raise CompileError(f"{name}: argument is not an array")
            dest = self.array_ref(args[1][1]) if n == 2 else "None"
            return f"{name}_({self.array_ref(args[0][1])}, {dest})", "num"
        if name == "strtonum":
            return f"strtonum({self.expr(args[0])[0]})", "num"
        if name in ("and", "or", "xor"):
            return f"bits_{name}([{', '.join(self.num(a) for a in args)}])", "num"
        if name in ("lshift", "rshift"):
            return f"bits_{name}({self.num(args[0])}, {self.num(args[1])})", "num"
        if name == "compl":
            return f"bits_compl({self.num(args[0])})", "num"
        raise CompileError(f"function `{name}' not defined")

    def split_sep(self, node) -> str:
        if node[0] == "ere":
            return self.regex(node[1]) if node[1] else "''"  # //: into characters, as ""
        return self.str_(node)

    # ------------------------------------------------------------------ statements
    def stmt(self, node, out: list[str], ind: str) -> None:
        k = node[0]
        if k == "block":
            if not node[1]:
                out.append(ind + "pass")
            for s in node[1]:
                self.stmt(s, out, ind)
            return
        if k == "expr":
            src, _ = self.expr(node[1])
            out.append(ind + src)
            return
        if k in ("print", "printf"):
            _, args, redir = node
            if k == "print":
                if not args:
                    text = "R.text0() + R.ORS"
                else:
                    if len(args) == 1 and args[0][0] == "grouplist":
                        args = args[0][1]
                    parts = [self.out_str(a) for a in args]
                    text = (parts[0] if len(parts) == 1 else "R.OFS.join([" + ", ".join(parts) + "])") + " + R.ORS"
            else:
                if len(args) == 1 and args[0][0] == "grouplist":
                    args = args[0][1]
                text = f"sprintf({self.str_(args[0])}, [{', '.join(self.expr(a)[0] for a in args[1:])}])"
            if redir is None:
                out.append(ind + f"OUT({text})")
            else:
                out.append(ind + f"await R.redirect({redir[0]!r}, {self.str_(redir[1])}, {text})")
            return
        if k == "if":
            out.append(ind + f"if {self.cond(node[1])}:")
            self.stmt(node[2], out, ind + "    ")
            if node[3] is not None:
                out.append(ind + "else:")
                self.stmt(node[3], out, ind + "    ")
            return
        if k == "while":
            out.append(ind + f"while {self.cond(node[1])}:")
            out.append(ind + "    " + self.tick)
            self.loop_body(node[2], out, ind + "    ")
            return
        if k == "do":
            out.append(ind + "while True:")
            out.append(ind + "    " + self.tick)
            self.loop_body(node[1], out, ind + "    ")
            out.append(ind + f"    if not {self.cond(node[2])}: break")
            return
        if k == "for":
            _, init, cond, incr, body = node
            if init is not None:
                self.stmt(init, out, ind)
            out.append(ind + f"while {self.cond(cond) if cond is not None else 'True'}:")
            out.append(ind + "    " + self.tick)
            if incr is None:
                self.loop_body(body, out, ind + "    ")
            else:
                # 'continue' must still run the increment: wrap the body in a one-pass loop
                out.append(ind + "    for _once in ONCE:")
                self.loop_body(body, out, ind + "        ")
                out.append(ind + "    else:")
                self.stmt(incr, out, ind + "        ")
                out.append(ind + "        continue")
                out.append(ind + "    break")
            return
        if k == "forin":
            _, var, arr, body = node
            t = self.new_tmp()
            out.append(ind + f"for {t} in R.forin({self.array_ref(arr)}):")
            out.append(ind + "    " + self.assign_to(("var", var), f"ForKey({t})"))
            self.loop_body(body, out, ind + "    ")
            return
        if k == "break":
            if not self.loop_depth:
                raise CompileError("`break' is not allowed outside a loop or switch", "error", 2)
            out.append(ind + "break")
            return
        if k == "continue":
            if not self.loop_depth:
                raise CompileError("`continue' is not allowed outside a loop", "error", 2)
            out.append(ind + "continue")
            return
        if k == "next":
            out.append(ind + "raise NextRecord()")
            return
        if k == "nextfile":
            out.append(ind + "R.nextfile()")
            out.append(ind + "raise NextRecord()")
            return
        if k == "exit":
            code = self.num(node[1]) if node[1] is not None else "None"
            out.append(ind + f"raise AwkExit({code})")
            return
        if k == "return":
            out.append(ind + ("return " + (self.expr(node[1])[0] if node[1] is not None else "UNINIT")))
            return
        if k == "delete":
            _, name, subs = node
            if subs is None:
                out.append(ind + f"{self.array_ref(name)}.clear()")
            else:
                out.append(ind + f"{self.array_ref(name)}.pop({self.subscript(subs)}, None)")
            return
        raise CompileError(f"unknown statement {k}")

    def loop_body(self, node, out: list[str], ind: str) -> None:
        self.loop_depth += 1
        try:
            self.stmt(node, out, ind)
        finally:
            self.loop_depth -= 1

    def out_str(self, node) -> str:
        if node[0] == "field" and node[1][0] == "num" and node[1][1] >= 0:
            return f"R.fout({int(node[1][1])})" if node[1][1] >= 1 else "R.text0()"
        src, t = self.expr(node)
        if t == "str":
            return src
        return f"outstr({src})"

    # ------------------------------------------------------------------ program
    def needs_async(self) -> bool:
        """Does the program do I/O that awaits (getline, system, close, fflush, redirection,
        or printing inside a loop, whose output must be flushed as it goes)? If not, everything
        compiles to plain functions, which run much faster."""
        found = False

        def walk(n, in_loop=False):
            nonlocal found
            if found:
                return
            if isinstance(n, tuple) and n:
                if n[0] == "getline" or (n[0] == "builtin" and n[1] in ("system", "close", "fflush")) \
                        or (n[0] in ("print", "printf") and (n[2] is not None or in_loop)):
                    found = True
                    return
                loop = in_loop or n[0] in ("while", "do", "for", "forin")
                for x in n[1:]:
                    walk(x, loop)
            elif isinstance(n, list):
                for x in n:
                    walk(x, in_loop)
        walk([self.prog.begin, self.prog.end, [list(rule) for rule in self.prog.rules],  # patterns too
              [b for _, b in self.prog.functions.values()]])
        return found

    def compile(self) -> tuple[str, dict]:
        self.const_values = {}
        self.warnings: list[str] = []
        self.is_async = self.needs_async()
        self.aw = "await " if self.is_async else ""
        # loops check for interrupts; async code also flushes output as it grows
        self.tick = "await R.atick()" if self.is_async else "R.tick()"
        adef = "async def" if self.is_async else "def"
        self.find_types()
        body: list[str] = []
        funcs: list[str] = []
        for name, (params, fbody) in self.prog.functions.items():
            self.locals = {p: f"l_{p}" for p in params}
            self.local_kinds = self.param_kinds[name]
            lines: list[str] = []
            self.stmt(fbody, lines, "    ")
            head = [f"{adef} f_{name}({', '.join(f'l_{p}=None' for p in params)}):",
                    "    GLOBALS_DECL"]
            for p in params:
                if self.local_kinds[p] == "array":
                    head.append(f"    if l_{p} is None: l_{p} = {{}}")
                else:
                    head.append(f"    if l_{p} is None: l_{p} = UNINIT")
            head.append("    R.enter_function()")
            head.append("    try:")
            funcs.append("\n".join(head + ["    " + ln for ln in lines] +
                                   ["        return UNINIT", "    finally:", "        R.leave_function()"]))
        self.locals = {}
        self.local_kinds = {}

        def section(fname: str, blocks) -> str:
            lines: list[str] = []
            for b in blocks:
                self.stmt(b, lines, "    ")
            return "\n".join([f"{adef} {fname}():", "    GLOBALS_DECL", "    pass"] + lines)

        body.append(section("BEGIN", self.prog.begin))
        body.append(section("END", self.prog.end))
        rule_lines: list[str] = []
        self.in_rules = True
        for pattern, pattern2, action in self.prog.rules:
            if pattern2 is not None:
                idx = self.ranges
                self.ranges += 1
                start, stop = self.cond(pattern), self.cond(pattern2)
                rule_lines.append(f"    if R.in_range({idx}, lambda: {start}, lambda: {stop}):")
            elif pattern is not None:
                rule_lines.append(f"    if {self.cond(pattern)}:")
            else:
                # no pattern: the action runs for every record
                if action is None:
                    rule_lines.append("    OUT(R.text0() + R.ORS)")
                else:
                    self.stmt(action, rule_lines, "    ")
                continue
            if action is None:
                rule_lines.append("        OUT(R.text0() + R.ORS)")
            else:
                self.stmt(action, rule_lines, "        ")
        self.in_rules = False
        body.append("\n".join([f"{adef} RULES():", "    GLOBALS_DECL", "    pass"] + rule_lines))
        decl = ("global " + ", ".join(sorted(f"v_{s}" for s in self.scalars))) if self.scalars else "pass"
        src = "\n\n".join(funcs + body).replace("GLOBALS_DECL", decl)
        return src, self.const_values


_EFFECT_BUILTINS = {"sub", "gsub", "split", "srand", "rand", "system", "close", "fflush", "match", "asort",
                    "asorti"}


def _has_effects(node) -> bool:
    """Whether evaluating the expression (a node or a list of them) may change a variable."""
    if isinstance(node, list):
        return any(_has_effects(x) for x in node)
    if not isinstance(node, tuple) or not node:
        return False
    k = node[0]
    if k in ("assign", "incdec", "call", "getline") or (k == "builtin" and node[1] in _EFFECT_BUILTINS):
        return True
    return any(_has_effects(x) for x in node[1:] if isinstance(x, (tuple, list)))


def _short(node) -> bool:
    """A constant or a field: concatenating such needs no memory check (a field is at most a
    record, or a value that was checked when it was made)."""
    while node[0] == "group":
        node = node[1]
    return node[0] in ("num", "str", "field")


_CONST_FIELD = re.compile(r"R\.(?:fnum|fstr|field|fout)\((\d+)\)")
#: generated code that needs every field, NF, or a record that is not the pending one
_WHOLE_RECORD = ("fieldindex(", "getNF", "setfield", "getline", "R.NF", "'NF'", "R.fields", "set_record")


def field_use(src: str) -> tuple[int | None, bool, tuple[int, ...] | None]:
    """What the generated program ``src`` needs of the records: the number of fields to split
    off (None: all); whether numeric fields may come from per-batch columns (no getline, no
    record or field changes, no NF, FS and RS fixed while records are read); and, when the
    functions and rules read fields only that way, their numbers (else None)."""
    if any(w in src for w in _WHOLE_RECORD):
        return None, False, None
    limit = max((int(x) for x in _CONST_FIELD.findall(src)), default=0)
    # the functions and the rules (string constants are repr()s: no line starts inside one)
    begin = re.search(r"^(?:async )?def BEGIN\(", src, re.M)
    rules = re.search(r"^(?:async )?def RULES\(", src, re.M)
    main = src[:begin.start()] + src[rules.start():] if begin and rules else src
    columns = "'FS'" not in main and "'RS'" not in main
    only = None
    if columns and not any(w in main for w in ("R.field0", "R.text0", "R.fstr", "R.field(", "R.fout")):
        only = tuple(sorted({int(x) for x in re.findall(r"R\.fnum\((\d+)\)", main)}))
    return limit, columns, only
