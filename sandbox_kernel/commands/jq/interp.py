"""Evaluating jq ASTs: generators of outputs, paths for the assignment operators, closures
and their scopes, the jq-defined prelude, and the compile-time check that every function
and variable a program uses is defined."""
from __future__ import annotations

from typing import Any, Iterator

from .._lib.bounded import Bounds
from .builtins import NATIVE, NATIVE_PATHS, PRELUDE
from .formats import apply_format, describe, dump, short
from .inputs import InputSource
from .lexer import JqSyntaxError
from .operations import (binop, delpaths, getpath, index_value, iterate_value, setpath,
    slice_value)
from .modules import ModuleError
from .parser import _SINGLE_KINDS, Parser, single
from ... import memory
from .values import ELEMENT_COST, END, MISSING, JqError, feed, is_label, is_number, throw_into, truthy


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
    def __init__(self, ctx_env: dict[str, str], inputs: InputSource, stderr_lines: list) -> None:
        self.environ = ctx_env
        self.inputs = inputs
        self.stderr_lines = stderr_lines
        self.steps = 0
        self.check = None
        #: when regex matches stop (the run's wall time and interrupt), and the patterns compiled
        self.bounds: Bounds | None = None
        self.regexes: dict = {}
        self.linker = None  # modules.Linker: modulemeta, get_search_list ...
        self.next_label = 0

    def builtin_names(self) -> list[str]:
        """What ``builtins`` lists: every native and prelude function as name/arity."""
        return [f"{n}/{a}" for (n, a) in NATIVE] + [f"{n}/{a}" for (n, a) in PRELUDE_NAMES]

    def new_label(self) -> dict:
        """A label's value: jq 1.6 numbers them in the order they are entered."""
        self.next_label += 1
        return {"__jq": float(self.next_label - 1)}

    def tick(self) -> None:
        """Count work in loops that do not go through eval (native builtins), so an
        interrupt or the wall-time limit can stop them."""
        self.steps += 1
        if self.check is not None and self.steps % 4096 == 0:
            self.check()

    # ---------------------------------------------------------------- evaluation
    def eval(self, node, inp, env: Env) -> Iterator[Any]:
        # (no closures in here: a variable a closure captures costs every call a cell)
        kind = node[0]
        self.steps += 1
        if self.check is not None and self.steps % 4096 == 0:
            self.check()
        if kind == "identity":
            yield inp
        elif kind == "literal":
            yield node[1]
        elif kind in _SINGLE_KINDS and single(node):
            yield self.value(node, inp, env)
        elif kind == "pipe":
            if single(node[1]):  # nothing on the left to go back into
                yield from self.eval(node[2], self.value(node[1], inp, env), env)
                return
            # feed(), inlined: an error downstream of v goes back into the left side
            source = self.eval(node[1], inp, env)
            rhs = node[2]
            v = next(source, END)
            while v is not END:
                try:
                    yield from self.eval(rhs, v, env)
                except JqError as e:
                    v = throw_into(source, e)
                    continue
                v = next(source, END)
        elif kind == "call":
            yield from self.call(node[1], node[2], inp, env)
        elif kind == "comma":
            yield from self.eval(node[1], inp, env)
            yield from self.eval(node[2], inp, env)
        elif kind == "collect":
            yield self.collect(node[1], inp, env)
        elif kind == "literal_array":
            yield []
        elif kind == "paren":
            yield from self.eval(node[1], inp, env)
        elif kind == "object":
            yield from self.build_object(node[1], 0, {}, inp, env)
        elif kind == "try":
            # jq 1.6 catches what its body raises, and also what is raised downstream of the
            # body's outputs while it may still produce more (the error comes back in here)
            try:
                yield from self.eval(node[1], inp, env)
            except JqError as e:
                if node[2] is not None:
                    yield from self.eval(node[2], e.value, env)
        elif kind == "string":
            yield from self.interpolate(node[1], node[2], 0, "", inp, env)
        elif kind == "format":
            yield apply_format(node[1], inp)
        elif kind == "label":
            # jq 1.6: label $f | e is try e catch (if . == $f then empty else error end), $f a
            # fresh {"__jq": n}, and break $f is error($f): a try/catch between them catches it
            token = self.new_label()
            scope = env.child()
            scope.vars["*label*" + node[1]] = token
            try:
                yield from self.eval(node[2], inp, scope)
            except JqError as e:
                if not is_label(e.value, token):
                    raise
        elif kind == "defs":
            name, params, body = node[1]
            scope = env.child()
            scope.funcs[(name, len(params))] = Closure(name, params, body, scope)
            yield from self.eval(node[2], inp, scope)
        elif kind == "break":
            try:
                token = env.lookup_var("*label*" + node[1])
            except KeyError:
                raise JqError(f"$*label-{node[1]} is not defined") from None
            raise JqError(token)
        elif kind == "assign":
            yield from self.assign(node[1], node[2], node[3], inp, env)
        else:
            helper = _EVALUATORS.get(kind)
            if helper is None:
                raise JqError(f"unknown node {kind}")
            yield from helper(self, node, inp, env)

    # the nodes whose evaluation composes generators with closures
    def _index(self, node, inp, env):
        # jq evaluates the key first: the keys are the outer loop, the targets the inner
        target_node, opt = node[1], len(node) > 3
        if not single(node[2]):
            yield from feed(self.eval(node[2], inp, env), lambda key: feed(
                self.eval(target_node, inp, env), lambda target: _looked_up(index_value, opt, target, key)))
            return
        key = self.value(node[2], inp, env)
        if single(target_node):
            yield from _looked_up(index_value, opt, self.value(target_node, inp, env), key)
            return
        # feed(), inlined: the lookup's error and those downstream go back into the target
        source = self.eval(target_node, inp, env)
        v = next(source, END)
        while v is not END:
            try:
                if not opt:
                    yield index_value(v, key)
                else:
                    yield from _looked_up(index_value, True, v, key)
            except JqError as e:
                v = throw_into(source, e)
                continue
            v = next(source, END)

    def _slice(self, node, inp, env):
        # {"start": lo, "end": hi} is the key: lo, then hi, then the targets
        target_node, hi_node, opt = node[1], node[3], len(node) > 4

        def ends(lo):
            def sliced(hi):
                return feed(self.eval(target_node, inp, env),
                            lambda target: _looked_up(slice_value, opt, target, lo, hi))
            return feed(self.eval(hi_node, inp, env) if hi_node is not None else iter([None]), sliced)
        yield from feed(self.eval(node[2], inp, env) if node[2] is not None else iter([None]), ends)

    def _iterate(self, node, inp, env):
        opt = len(node) > 2
        if single(node[1]):
            yield from _each(self.value(node[1], inp, env), opt)
        else:
            yield from feed(self.eval(node[1], inp, env), lambda target: _each(target, opt))

    def _neg(self, node, inp, env):
        yield from feed(self.eval(node[1], inp, env), _negated)

    def _binop(self, node, inp, env):
        op, lhs_node = node[1], node[2]
        yield from feed(self.eval(node[3], inp, env), lambda rhs: feed(
            self.eval(lhs_node, inp, env), lambda lhs: (binop(op, lhs, rhs),)))

    def _and_or(self, node, inp, env):
        rhs_node, short_circuit = node[2], node[0] == "or"

        def decided(lhs):
            if truthy(lhs) == short_circuit:
                return (short_circuit,)
            return feed(self.eval(rhs_node, inp, env), lambda rhs: (truthy(rhs),))
        yield from feed(self.eval(node[1], inp, env), decided)

    def _alt(self, node, inp, env):
        # jq 1.6: an error on the left is an error, not a reason to take the right
        found = []

        def kept(v):
            if not truthy(v):
                return ()
            found.append(True)
            return (v,)
        yield from feed(self.eval(node[1], inp, env), kept)
        if not found:
            yield from self.eval(node[2], inp, env)

    def _if(self, node, inp, env):
        then, other = node[2], node[3]
        if single(node[1]):
            cond = self.value(node[1], inp, env)
            branch = then if truthy(cond) else other
            if branch is None:
                yield inp
            else:
                yield from self.eval(branch, inp, env)
            return
        yield from feed(self.eval(node[1], inp, env), lambda cond: (
            self.eval(then, inp, env) if truthy(cond)
            else self.eval(other, inp, env) if other is not None else (inp,)))

    def _as(self, node, inp, env):
        patterns, body = node[2], node[3]
        if single(node[1]):
            yield from self.bind_patterns(patterns, self.value(node[1], inp, env), inp, env, body)
            return
        yield from feed(self.eval(node[1], inp, env),
                        lambda value: self.bind_patterns(patterns, value, inp, env, body))

    def _reduce(self, node, inp, env):
        _, source, pattern, init, update = node

        def run(acc):
            state = [acc]

            def step(value):
                for scope in self.destructure(pattern, value, inp, env):
                    current, state[0] = state[0], None  # jq takes the state out (LOADVN)
                    last = None
                    for out in self.eval(update, current, scope):
                        last = out
                    state[0] = last
                return ()
            # an update's error goes back into the source, then into the initial value (a
            # try there may catch it)
            yield from feed(self.eval(source, inp, env), step)
            yield state[0]
        yield from feed(self.eval(init, inp, env), run)

    def _foreach(self, node, inp, env):
        _, source, pattern, init, update, extract = node
        for acc in self.eval(init, inp, env):
            state = [acc]

            def step(value):
                for scope in self.destructure(pattern, value, inp, env):
                    current, state[0] = state[0], None

                    def emit(out, scope=scope):
                        state[0] = out
                        return (out,) if extract is None else self.eval(extract, out, scope)
                    yield from feed(self.eval(update, current, scope), emit)
            yield from feed(self.eval(source, inp, env), step)

    def collect(self, node, inp, env) -> list:
        """``[f]``: the outputs of f, refused before they outgrow the memory limit."""
        out = []
        add = out.append
        for v in self.eval(node, inp, env):
            add(v)
            if not len(out) & 0xFFFF:
                memory.need(len(out) * ELEMENT_COST)
        return out

    def build_object(self, entries, i, acc, inp, env):
        if i == 0 and all(single(k) and single(v) for k, v in entries):
            # one object, nothing to go back into: built in place, in the same order
            obj = {}
            for key_node, value_node in entries:
                key = self.value(key_node, inp, env)
                if not isinstance(key, str):
                    raise JqError(f"Cannot use {describe(key)} as object key")
                obj[key] = self.value(value_node, inp, env)
            yield obj
            return
        if i == len(entries):
            yield dict(acc)
            return
        key_node, value_node = entries[i]

        def with_key(key):
            if not isinstance(key, str):
                raise JqError(f"Cannot use {describe(key)} as object key")

            def with_value(value):
                nxt = dict(acc)
                nxt[key] = value
                return self.build_object(entries, i + 1, nxt, inp, env)
            return feed(self.eval(value_node, inp, env), with_value)
        yield from feed(self.eval(key_node, inp, env), with_key)

    def interpolate(self, parts, fmt, i, acc, inp, env):
        if i == len(parts):
            yield acc
            return
        part = parts[i]
        if isinstance(part, str):
            yield from self.interpolate(parts, fmt, i + 1, acc + part, inp, env)
            return
        def with_text(v):
            text = apply_format(fmt, v) if fmt else (v if isinstance(v, str) else dump(v))
            memory.room(len(acc) + len(text))
            return self.interpolate(parts, fmt, i + 1, acc + text, inp, env)
        yield from feed(self.eval(part, inp, env), with_text)

    def value(self, node, inp, env):
        """The one value of a node that ``single()`` accepts: no generator, no try."""
        kind = node[0]
        if kind == "identity":
            return inp
        if kind == "literal":
            return node[1]
        if kind == "index":
            key = self.value(node[2], inp, env)
            return index_value(self.value(node[1], inp, env), key)
        if kind == "binop":
            rhs = self.value(node[3], inp, env)  # jq evaluates the right side first
            return binop(node[1], self.value(node[2], inp, env), rhs)
        if kind == "var":
            try:
                return env.lookup_var(node[1])
            except KeyError:
                if node[1] == "ENV":
                    return dict(self.environ)
                raise JqError(f"${node[1]} is not defined") from None
        if kind == "paren":
            return self.value(node[1], inp, env)
        if kind == "neg":
            return _negated(self.value(node[1], inp, env))[0]
        if kind == "literal_array":
            return []
        raise AssertionError(kind)

    # ---------------------------------------------------------------- patterns
    def bind_patterns(self, patterns, value, inp, env, body, run=None):
        """``value as P1 ?// P2 ... | body``; ``run(body, scope)`` evaluates the body (the
        outputs, or the paths of a path expression)."""
        if run is None:
            def run(node, scope):
                return self.eval(node, inp, scope)
        if len(patterns) == 1:
            for scope in self.destructure(patterns[0], value, inp, env):
                yield from run(body, scope)
            return
        # ?// alternatives: the first pattern whose body does not error; every pattern's
        # variables are bound, null where the pattern used has none
        base = env.child()
        for p in patterns:
            for name in _pattern_vars(p):
                base.vars[name] = None
        for n, p in enumerate(patterns):
            try:
                for scope in self.destructure(p, value, inp, base):
                    yield from run(body, scope)
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
            for key in self.eval(node[2], inp, env):  # the key first, as in eval
                for p, target in self.paths(node[1], inp, env, base):
                    p = self.intact(p, target)
                    if p is None:
                        raise JqError("Invalid path expression near attempt to access element "
                                      f"{short(key)} of {short(target, 30)}")
                    if isinstance(key, list):
                        raise JqError("Cannot update field at object index of array")
                    for value in _looked_up(index_value, len(node) > 3, target, key):
                        yield p + (key,), value
        elif kind == "slice":
            for lo in (self.eval(node[2], inp, env) if node[2] is not None else [None]):
                for hi in (self.eval(node[3], inp, env) if node[3] is not None else [None]):
                    for p, target in self.paths(node[1], inp, env, base):
                        key = {"start": lo, "end": hi}
                        p = self.intact(p, target)
                        if p is None:
                            raise JqError("Invalid path expression near attempt to access element "
                                          f"{short(key)} of {short(target, 30)}")
                        for value in _looked_up(slice_value, len(node) > 4, target, lo, hi):
                            yield p + (key,), value
        elif kind == "iterate":
            for p, target in self.paths(node[1], inp, env, base):
                p = self.intact(p, target)
                if p is None:
                    raise JqError(f"Invalid path expression near attempt to iterate through {short(target, 30)}")
                if isinstance(target, list):
                    for i, v in enumerate(target):
                        yield p + (float(i),), v
                elif isinstance(target, dict):
                    for k, v in target.items():
                        yield p + (k,), v
                elif len(node) == 2:  # not .[]?
                    raise JqError(f"Cannot iterate over {describe(target)}")
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
            for p, v in self.paths(node[1], inp, env, base):
                if truthy(v):
                    found = True
                    yield p, v
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
                yield from self.bind_patterns(node[2], value, inp, env, node[3],
                                              lambda body, scope: self.paths(body, inp, scope, base))
        elif kind == "defs":
            name, params, body = node[1]
            scope = env.child()
            scope.funcs[(name, len(params))] = Closure(name, params, body, scope)
            yield from self.paths(node[2], inp, scope, base)
        elif kind == "label":
            token = self.new_label()
            scope = env.child()
            scope.vars["*label*" + node[1]] = token
            try:
                yield from self.paths(node[2], inp, scope, base)
            except JqError as e:
                if not is_label(e.value, token):
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
        elif kind == "literal" and isinstance(node[1], str):
            # a string constant is never the very string the path leads to
            yield LostPath(base if isinstance(base, tuple) else base.path, MISSING), node[1]
        else:
            yield from self._not_a_path(self.eval(node, inp, env), inp, base)

    @staticmethod
    def _not_a_path(values, inp, base):
        """The outputs of an expression that is no path. jq keeps the last path and the value
        at it: an output identical to that value (the same array, object or string; an equal
        number; null, true, false) is still at that path, any other is not (a LostPath,
        an error at the next lookup or at the end unless a later value is that one again)."""
        lost = base if isinstance(base, LostPath) else LostPath(base, inp)
        for v in values:
            yield (lost.path if _identical(v, lost.value) else lost), v

    @staticmethod
    def intact(p, value):
        """The path of ``value`` when it is the one at ``p`` (a path, or a LostPath whose value
        it is), else None."""
        if not isinstance(p, LostPath):
            return p
        return p.path if _identical(value, p.value) else None

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
            yield from self._not_a_path(NATIVE[(name, arity)](self, args, inp, env), inp, base)
            return
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
        return [p for p, _ in self.iter_paths(node, inp, env)]

    def iter_paths(self, node, inp, env):
        """The (path, value) pairs of ``path(node)``: one whose path was lost is an error."""
        for p, v in self.paths(node, inp, env):
            p = self.intact(p, v)
            if p is None:
                raise JqError(f"Invalid path expression with result {short(v, 30)}")
            yield p, v

    # ---------------------------------------------------------------- assignment
    def assign(self, op, lhs, rhs, inp, env):
        if op == "|=":
            result = inp
            for p in self.path_list(lhs, inp, env):
                old = getpath(result, p)
                new = next(iter(self.eval(rhs, old, env)), MISSING)
                if new is MISSING:
                    result = delpaths(result, [p])
                else:
                    result = setpath(result, p, new)
            yield result
            return
        def assigned(value):
            result = inp
            for p in self.path_list(lhs, inp, env):
                if op == "=":
                    result = setpath(result, p, value)
                elif op == "//=":
                    old = getpath(result, p)
                    result = setpath(result, p, old if truthy(old) else value)
                else:
                    result = setpath(result, p, binop(op[0], getpath(result, p), value))
            return (result,)
        yield from feed(self.eval(rhs, inp, env), assigned)


_EVALUATORS = {
    "index": Interpreter._index, "slice": Interpreter._slice, "iterate": Interpreter._iterate,
    "neg": Interpreter._neg, "binop": Interpreter._binop, "and": Interpreter._and_or,
    "or": Interpreter._and_or, "alt": Interpreter._alt, "if": Interpreter._if, "as": Interpreter._as,
    "reduce": Interpreter._reduce, "foreach": Interpreter._foreach,
}


def _looked_up(op, opt: bool, *operands):
    """One lookup's result; with ``?`` right after it (.a?, .[k]?), its own error is none."""
    try:
        return (op(*operands),)
    except JqError:
        if opt:
            return ()
        raise


def _each(target, opt: bool):
    """.[] (with ``?``: a target that cannot be iterated gives nothing)."""
    if opt and not isinstance(target, (list, dict)):
        return ()
    return iterate_value(target)


def _negated(v):
    if not is_number(v):
        raise JqError(f"{describe(v)} cannot be negated")
    return (-v,)


class LostPath:
    """Where a path expression went through something that is no path: the last path and
    the value at it."""

    __slots__ = ("path", "value")

    def __init__(self, path: tuple, value: Any) -> None:
        self.path = path
        self.value = value


def _identical(a: Any, b: Any) -> bool:
    """jv_identical: the same array, object or string, equal numbers, or both null, both
    true, both false."""
    if is_number(a):
        return is_number(b) and a == b
    return a is b


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


def bind_imports(top, env: Env, linker, origin: str | None) -> tuple[set, set]:
    """Binds ``top``'s imports in ``env`` (the first binding of a name wins): a module's
    definitions as alias::name (include: name), a data file's values as $alias and
    $alias::alias. -> (the function keys, the variable names) bound."""
    keys: set = set()
    names: set = set()
    for imp in top.imports:
        search = linker.search_for(imp, origin)
        if imp.is_data:
            values = linker.load_data(linker.find(imp.path, search, ".json", origin))
            for name in (imp.alias, f"{imp.alias}::{imp.alias}"):
                env.vars.setdefault(name, values)
                names.add(name)
            continue
        module = linker.load(linker.find(imp.path, search, ".jq", origin))
        for (name, arity), closure in link_module(module, linker).items():
            key = (f"{imp.alias}::{name}" if imp.alias else name, arity)
            if key not in env.funcs:
                env.funcs[key] = closure
                keys.add(key)
    return keys, names


def link_module(module, linker) -> dict:
    """A module's definitions ((name, arity) -> Closure), made once: each sees the module's
    imports and the definitions before it."""
    if module.exports is not None:
        return module.exports
    if module.path in linker.loading:
        raise ModuleError(f"module imports itself: {module.path}")
    linker.loading.add(module.path)
    try:
        env = PRELUDE_ENV.child()
        keys, names = bind_imports(module.top, env, linker, linker.module_dir(module.path))
        try:
            check_defined(module.top.body, frozenset(keys), frozenset(names) | {"ENV", "__loc__"})
        except JqSyntaxError as e:
            raise ModuleError(str(e), module.path, "") from None
        exports = {}
        node, scope = module.top.body, env
        while node[0] == "defs":
            name, params, body = node[1]
            scope = scope.child()
            closure = Closure(name, params, body, scope)
            scope.funcs[(name, len(params))] = closure
            exports[(name, len(params))] = closure
            node = node[2]
        module.exports = exports
    finally:
        linker.loading.discard(module.path)
    return exports


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
        check_defined(node[2], scope, None if variables is None else variables | {"*label*" + node[1]})
        return
    if kind == "break":
        if variables is not None and "*label*" + node[1] not in variables:
            raise JqSyntaxError(f"$*label-{node[1]} is not defined")
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


def calls(node, names: set) -> bool:
    """Whether the program calls any of ``names`` (anywhere, including in definitions)."""
    if isinstance(node, tuple):
        if node and node[0] == "call" and node[1] in names:
            return True
        return any(calls(part, names) for part in node[1:])
    if isinstance(node, list):
        return any(calls(part, names) for part in node)
    return False


_NODE_KINDS = {"identity", "literal", "literal_array", "paren", "pipe", "comma", "index", "slice",
               "iterate", "collect", "object", "neg", "binop", "and", "or", "alt", "if", "try",
               "var", "string", "format", "as", "reduce", "foreach", "label", "defs", "call",
               "assign", "break", "pvar", "parray", "pobject"}
