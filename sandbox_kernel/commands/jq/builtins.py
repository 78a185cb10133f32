"""jq's builtin functions: natives written in Python (NATIVE, and NATIVE_PATHS for those
that are path expressions) and the PRELUDE written in jq."""
from __future__ import annotations

import functools
import math
import time as _time
from typing import Any

import regex

from ... import memory
from .._lib.bounded import MAX_EXPANDED, BoundedPattern, expanded_size
from . import dates
from .modules import JQ_ORIGIN, ModuleError
from .libm import FUNCTIONS, MISSING_AT_BUILD, number_required
from .formats import apply_format, describe, dump, short, tostring
from .jsontext import parse_json_text
from .parser import single
from .operations import (binop, delpaths, getpath, index_value, iterate_value, setpath, slice_value,
    split_string, stream_events, subarray_indices)
from .values import (END, ELEMENT_COST, MISSING, HaltSignal, JqError, equal, feed, is_label, is_number, sort_key,
    throw_into, truthy, type_name)


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
                    return (fn(inp, *acc),)
                return feed(interp.eval(args[i], inp, env), lambda v: product(i + 1, acc + [v]))
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
    # jq 1.6: an error whose message is null is no error but a backtrack, like empty
    if inp is not None:
        raise JqError(inp)
    return
    yield  # pragma: no cover


@native("error", 1)
def _error1(interp, args, inp, env):
    def raised(msg):  # raised where a try in the argument catches it (jq 1.6)
        if msg is not None:
            raise JqError(msg)
        return ()
    yield from feed(interp.eval(args[0], inp, env), raised)


@native("path", 1)
def _path(interp, args, inp, env):
    for p, _ in interp.iter_paths(args[0], inp, env):
        yield list(p)


@native("getpath", 1)
def _getpath(interp, args, inp, env):
    for path in interp.eval(args[0], inp, env):
        if not isinstance(path, list):
            raise JqError("Path must be specified as an array")
        yield getpath(inp, path)


def _getpath_paths(interp, args, inp, env, base):
    for path in interp.eval(args[0], inp, env):
        if not isinstance(path, list):
            raise JqError("Path must be specified as an array")
        value = getpath(inp, path)
        here = interp.intact(base, inp)
        if here is None:
            raise JqError(f"Invalid path expression with result {short(value, 30)}")
        yield here + tuple(path), value


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
        if not isinstance(paths, list):
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


def _recurse_paths(interp, args, inp, env, base):
    # def recurse: recurse(.[]?); -- where the path is lost, `.` and then .[]?'s error, dropped
    here = interp.intact(base, inp)
    if here is None:
        yield base, inp
        return
    yield from _walk_paths(inp, here)


NATIVE_PATHS[("recurse", 0)] = _recurse_paths


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


class _Peek:
    """A generator read one item ahead on demand; an exception met ahead is kept for its turn."""

    __slots__ = ("gen", "buf")

    def __init__(self, gen) -> None:
        self.gen = gen
        self.buf = None

    def next(self):
        buf = self.buf
        if buf is not None:
            self.buf = None
            if buf[0] == "exc":
                raise buf[1]
            return buf[1]
        return next(self.gen, None)

    def exhausted(self) -> bool:
        try:
            item = next(self.gen, None)
        except Exception as e:  # raised when its turn comes
            self.buf = ("exc", e)
            return False
        self.buf = ("item", item)
        return item is None


def _unfold(root, tick):
    """The outputs of a recursive jq definition (while, until, recurse(f; cond)) without
    Python recursion: a frame is a generator of (True, output) and (False, frame of the
    recursive call, whose outputs come in its place). A call that is its frame's last action
    replaces the frame, so a loop of a million steps takes no more room than one."""
    stack = [_Peek(root)]
    while stack:
        top = stack[-1]
        item = top.next()
        if item is None:
            stack.pop()
            continue
        tick()
        if item[0]:
            yield item[1]
            continue
        if top.exhausted():
            stack.pop()
        stack.append(_Peek(item[1]))


@native("recurse", 2)
def _recurse2(interp, args, inp, env):
    # def recurse(f; cond): def r: ., (f | select(cond) | r); r;
    f, cond = args

    def frame(v):
        yield True, v
        for x in interp.eval(f, v, env):
            for c in interp.eval(cond, x, env):
                if truthy(c):
                    yield False, frame(x)
    yield from _unfold(frame(inp), interp.tick)


@native("select", 1)
def _select(interp, args, inp, env):
    # def select(f): if f then . else empty end; -- an error downstream goes back into f
    if single(args[0]):
        if truthy(interp.value(args[0], inp, env)):
            yield inp
        return
    yield from feed(interp.eval(args[0], inp, env), lambda cond: (inp,) if truthy(cond) else ())


def _select_paths(interp, args, inp, env, base):
    for cond in interp.eval(args[0], inp, env):
        if truthy(cond):
            yield base, inp


NATIVE_PATHS[("select", 1)] = _select_paths


def _until_broken(interp, items, left=1.0):
    """Outputs of ``label $out | foreach items as $item (left; .-1; $item, if . <= 0 then
    break $out else empty end)`` (first: a left of 1), as jq 1.6 runs it: an error
    downstream of an output goes back into ``items``, and so does the break -- a try/catch
    in ``items`` catches it and may give more (``first(try (1,2) catch "c")`` is 1 and
    "c")."""
    token = interp.new_label()
    v = next(items, END)
    while v is not END:
        try:
            left = left - 1.0 if type(left) is float else binop("-", left, 1.0)
        except JqError as e:  # goes back into items too, the state taken out (null)
            left = None
            v = throw_into(items, e)
            continue
        try:
            yield v
        except JqError as e:
            v = throw_into(items, e)
            continue
        if left > 0 if type(left) is float else sort_key(left) > (3, 0):
            v = next(items, END)
            continue
        try:
            v = throw_into(items, JqError(token))
        except JqError as e:
            if is_label(e.value, token):
                return
            raise


def _limited(interp, args, inp, env, items):
    # def limit($n; f): if $n < 0 then f else label $out | foreach f as $item ($n; .-1;
    #   $item, if . <= 0 then break $out else empty end) end;
    # (so a limit of 0 still gives the first output, and one below 0 none is no limit)
    for n in interp.eval(args[0], inp, env):
        if sort_key(n) < (3, 0):
            yield from items()
        else:
            yield from _until_broken(interp, items(), n)


@native("limit", 2)
def _limit(interp, args, inp, env):
    yield from _limited(interp, args, inp, env, lambda: interp.eval(args[1], inp, env))


def _limit_paths(interp, args, inp, env, base):
    yield from _limited(interp, args, inp, env, lambda: interp.paths(args[1], inp, env, base))


NATIVE_PATHS[("limit", 2)] = _limit_paths


@native("first", 1)
def _first1(interp, args, inp, env):
    # def first(f): label $out | f | ., break $out;
    yield from _until_broken(interp, interp.eval(args[0], inp, env))


def _first1_paths(interp, args, inp, env, base):
    yield from _until_broken(interp, interp.paths(args[0], inp, env, base))


NATIVE_PATHS[("first", 1)] = _first1_paths


@native("isempty", 1)
def _isempty(interp, args, inp, env):
    # def isempty(g): 0 == ((label $go | g | (1, break $go)) // 0); -- false for each output
    # before the break gets out of g
    found = False
    for _ in _until_broken(interp, interp.eval(args[0], inp, env)):
        found = True
        yield False
    if not found:
        yield True


def _any_all(interp, args, inp, env, want: bool):
    """jq 1.6's any(g; cond) (all: want False): a foreach over g that stops at the item after
    the first cond output that is ``want``; true (all: false) when exactly one such output
    was seen (any) or none (all)."""
    state = not want
    seen = 0
    for item in interp.eval(args[0], inp, env):
        if truthy(state) == want:
            break
        for c in interp.eval(args[1], item, env):
            if truthy(c) == want:
                state = want
                seen += 1
    return seen == 1 if want else seen == 0


NATIVE[("any", 2)] = lambda interp, args, inp, env: iter([_any_all(interp, args, inp, env, True)])
NATIVE[("all", 2)] = lambda interp, args, inp, env: iter([_any_all(interp, args, inp, env, False)])


@native("bsearch", 1)
def _bsearch(interp, args, inp, env):
    for target in interp.eval(args[0], inp, env):
        yield _bsearch_value(inp, target)


def _bsearch_value(v, target) -> float:
    """jq 1.6's bsearch: the index of target in the sorted input, else -1 - the index where it
    would go (an input that is not an array fails on its length or its indexing)."""
    n = _length_of(v)
    if n == 0:
        return -1.0
    key = sort_key(target)
    if n == 1:
        first = index_value(v, 0.0)
        if equal(first, target):
            return 0.0
        return -1.0 if key < sort_key(first) else -2.0
    lo, hi, found = 0.0, n - 1, None
    while not lo > hi:
        if found is not None:
            break
        mid = float(math.floor((hi + lo) / 2))
        probe = index_value(v, mid)
        if equal(probe, target):
            found = mid
        elif lo == hi:
            break
        elif sort_key(probe) < key:
            lo = mid + 1
        else:
            hi = mid - 1
    if found is not None:
        return found
    return -2.0 - lo if sort_key(index_value(v, lo)) < key else -1.0 - lo


@native("range", 1)
def _range1(interp, args, inp, env):
    tick = interp.tick
    for n in interp.eval(args[0], inp, env):
        if not is_number(n):
            raise JqError("Range bounds must be numeric")
        i = 0.0
        while i < n:
            tick()
            yield i
            i += 1


@native("range", 2)
def _range2(interp, args, inp, env):
    tick = interp.tick
    for lo in interp.eval(args[0], inp, env):
        for hi in interp.eval(args[1], inp, env):
            if not is_number(lo) or not is_number(hi):
                raise JqError("Range bounds must be numeric")
            i = lo
            while i < hi:
                tick()
                yield i
                i += 1


@native("range", 3)
def _range3(interp, args, inp, env):
    # def range($init; $upto; $by): the values from $init by $by while
    # ($by > 0 and . < $upto) or ($by < 0 and . > $upto) -- jq's order, so a $by of 0 is
    # no value at all
    zero = (3, 0.0)
    for lo in interp.eval(args[0], inp, env):
        for hi in interp.eval(args[1], inp, env):
            for step in interp.eval(args[2], inp, env):
                up, down = sort_key(step) > zero, sort_key(step) < zero
                end = sort_key(hi)
                i = lo
                while (up and sort_key(i) < end) or (down and sort_key(i) > end):
                    interp.tick()
                    yield i
                    i = binop("+", i, step)


@native("while", 2)
def _while(interp, args, inp, env):
    # def while(cond; update): def _while: if cond then ., (update | _while) else empty end;
    cond, update = args

    def frame(v):
        for c in interp.eval(cond, v, env):
            if truthy(c):
                yield True, v
                for u in interp.eval(update, v, env):
                    yield False, frame(u)
    yield from _unfold(frame(inp), interp.tick)


@native("until", 2)
def _until(interp, args, inp, env):
    # def until(cond; next): def _until: if cond then . else (next | _until) end;
    cond, step = args

    def frame(v):
        for c in interp.eval(cond, v, env):
            if truthy(c):
                yield True, v
            else:
                for n in interp.eval(step, v, env):
                    yield False, frame(n)
    yield from _unfold(frame(inp), interp.tick)


@native("repeat", 1)
def _repeat(interp, args, inp, env):
    # jq 1.6: def repeat(f): def _repeat: f, _repeat; _repeat; -- f's outputs for the same
    # input, over and over (until an error, a break, the wall time or an interrupt)
    while True:
        interp.tick()
        yield from interp.eval(args[0], inp, env)


@native("input")
def _input(interp, args, inp, env):
    value = interp.inputs.next_value()
    if value is MISSING:
        # jq 1.6's message for no more input (what `inputs` stops on)
        raise JqError("break")
    yield value


@native("inputs")
def _inputs(interp, args, inp, env):
    while True:
        value = interp.inputs.next_value()
        if value is MISSING:
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


@native("modulemeta")
def _modulemeta(interp, args, inp, env):
    linker = interp.linker
    if not isinstance(inp, str):
        raise JqError("modulemeta input module name must be a string")
    try:
        yield linker.modulemeta(inp)
    except ModuleError as e:
        if not e.where:
            raise JqError(str(e)) from None
        # jq 1.6 reports a module that does not compile, and goes on with null
        interp.stderr_lines.append(f"jq: error: {e} at {e.where}, line 1:\n{e.source}\n")
        yield None


@native("get_search_list")
def _get_search_list(interp, args, inp, env):
    yield list(interp.linker.lib_dirs)


@native("get_prog_origin")
def _get_prog_origin(interp, args, inp, env):
    yield interp.linker.prog_origin


@native("get_jq_origin")
def _get_jq_origin(interp, args, inp, env):
    yield JQ_ORIGIN


@native("input_filename")
def _input_filename(interp, args, inp, env):
    yield interp.inputs.current_name


@native("input_line_number")
def _input_line_number(interp, args, inp, env):
    yield interp.inputs.line_number()


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
        if not is_number(code):
            raise JqError("halt_error/1: number required")
        raise HaltSignal(int(code), inp, True)
    return
    yield  # pragma: no cover


@native("env")
def _env(interp, args, inp, env):
    yield dict(interp.environ)


@native("builtins")
def _builtins(interp, args, inp, env):
    yield interp.builtin_names()


@native("now")
def _now(interp, args, inp, env):
    yield _time.time()


@native("length")
def _length(interp, args, inp, env):
    v = inp
    if v is None:
        yield 0.0
    elif v is True or v is False:
        raise JqError(f"{describe(v)} has no length")
    elif is_number(v):
        yield abs(v)
    else:
        yield float(len(v))


@simple("utf8bytelength")
def _utf8bytelength(v):
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} only strings have UTF-8 byte length")
    return float(len(v.encode("utf-8", "surrogatepass")))


@simple("keys")
def _keys(v):
    if isinstance(v, dict):
        return sorted(v)
    if isinstance(v, list):
        return [float(i) for i in range(len(v))]
    raise JqError(f"{describe(v)} has no keys")


@simple("keys_unsorted")
def _keys_unsorted(v):
    if isinstance(v, dict):
        return list(v)
    if isinstance(v, list):
        return [float(i) for i in range(len(v))]
    raise JqError(f"{describe(v)} has no keys")


@with_values("has", 1)
def _has(v, key):
    if v is None:
        return False
    if isinstance(v, dict) and isinstance(key, str):
        return key in v
    if isinstance(v, list) and is_number(key):
        return 0 <= key < len(v)
    raise JqError(f"Cannot check whether {type_name(v)} has a {type_name(key)} key")


def _kind(v) -> object:
    """jq's kinds for containment: true and false are two kinds."""
    return v if v is None or v is True or v is False else type_name(v)


def _contained(a, b) -> bool:
    """jv_contains: values of different kinds (inside arrays and objects too) do not contain
    each other; strings compare as C strings (up to a NUL)."""
    if _kind(a) != _kind(b):
        return False
    if isinstance(a, dict):
        return all(k in a and _contained(a[k], bv) for k, bv in b.items())
    if isinstance(a, list):
        return all(any(_contained(x, y) for x in a) for y in b)
    if isinstance(a, str):
        return b.partition("\0")[0] in a.partition("\0")[0]
    return equal(a, b)


def _contains(a, b) -> bool:
    if _kind(a) != _kind(b):
        raise JqError(f"{describe(a)} and {describe(b)} cannot have their containment checked")
    return _contained(a, b)


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



@simple("fromjson")
def _fromjson(v):
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} only strings can be parsed")
    return parse_json_text(v)


@simple("tonumber")
def _tonumber(v):
    if is_number(v):
        return v
    if isinstance(v, str):
        parsed = parse_json_text(v)  # jq parses the string as JSON text
        if is_number(parsed):
            return parsed
    raise JqError(f"{describe(v)} cannot be parsed as a number")


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
    memory.need(len(v) * ELEMENT_COST)
    return [float(ord(c)) for c in v]


@simple("implode")
def _implode(v):
    if not isinstance(v, list) or not all(is_number(x) for x in v):
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
    return split_string(v, sep)


@with_values("join", 1)
def _join(v, sep):
    # def join($x): reduce .[] as $i (null; (if .==null then "" else .+$x end) +
    #   ($i | if type=="boolean" or type=="number" then tostring else .//"" end)) // "";
    # made in one pass: the pieces joined once, the error of the first + that fails raised
    # with the text made so far
    pieces: list = []
    size = 0
    for n, x in enumerate(iterate_value(v)):
        if x is True or x is False or is_number(x):
            x = tostring(x)
        elif x is None:
            x = ""
        if n:
            if isinstance(sep, str):
                pieces.append(sep)
                size += len(sep)
            elif sep is not None:
                binop("+", "".join(pieces), sep)
        if not isinstance(x, str):
            binop("+", "".join(pieces), x)
        pieces.append(x)
        size += len(x)
        if len(pieces) & 0xFFF == 0:
            memory.room(size)
    memory.room(size)
    return "".join(pieces)


@simple("add")
def _add(v):
    # def add: reduce .[] as $x (null; . + $x); -- runs of strings or arrays joined at once
    acc = None
    run: list | None = None  # a run of strings or arrays (nulls add nothing to them)
    kind = None
    for x in iterate_value(v):
        if run is not None:
            if x.__class__ is kind or x is None:
                if x is not None:
                    run.append(x)
                continue
            acc = _joined(run, kind)
            run = None
        cls = x.__class__
        if cls is float and acc.__class__ is float:
            acc = acc + x
        elif (cls is str or cls is list) and acc.__class__ is cls:
            run, kind = [acc, x], cls
        else:
            acc = binop("+", acc, x)
    return acc if run is None else _joined(run, kind)


def _joined(run: list, kind) -> Any:
    if kind is str:
        memory.room(sum(map(len, run)))
        return "".join(run)
    memory.room(sum(map(len, run)) * ELEMENT_COST)
    return [y for part in run for y in part]


@simple("sort")
def _sort(v):
    if not isinstance(v, list):
        raise JqError(f"{describe(v)} cannot be sorted, as it is not an array")
    return sorted(v, key=sort_key)


def _keyed(interp, args, inp, env, what: str) -> list:
    """jq 1.6's `_impl(map([f]))`: the keys (map's errors first, an object's values
    included), then (key, value) pairs of an array; anything else is refused with both."""
    if args:
        keys = [list(interp.eval(args[0], x, env)) for x in iterate_value(inp)]
    else:
        keys = inp
    if not isinstance(inp, list) or not isinstance(keys, list):
        raise JqError(f"{describe(inp)} and {describe(keys)} {what}")
    return [(sort_key(k), x) for k, x in zip(keys, inp)]


_SORTED = "cannot be sorted, as they are not both arrays"


@native("sort_by", 1)
def _sort_by(interp, args, inp, env):
    yield [x for _, x in sorted(_keyed(interp, args, inp, env, _SORTED), key=lambda kx: kx[0])]


def _groups(keyed: list) -> list:
    groups: list = []
    last = object()
    for key, x in sorted(keyed, key=lambda kx: kx[0]):
        if groups and key == last:
            groups[-1].append(x)
        else:
            groups.append([x])
            last = key
    return groups


@native("group_by", 1)
def _group_by(interp, args, inp, env):
    yield _groups(_keyed(interp, args, inp, env, _SORTED))


@native("unique_by", 1)
def _unique_by(interp, args, inp, env):
    yield [group[0] for group in _groups(_keyed(interp, args, inp, env, _SORTED))]


@native("unique")
def _unique(interp, args, inp, env):
    # def unique: group_by(.) | map(.[0]);
    yield [group[0] for group in _groups(_keyed(interp, (("identity",),), inp, env, _SORTED))]


def _extreme(interp, args, inp, env, pick_max: bool):
    keyed = _keyed(interp, args, inp, env, "cannot be iterated over")
    if not keyed:
        return None
    best = keyed[0]
    for k, x in keyed[1:]:
        if (k >= best[0]) if pick_max else (k < best[0]):
            best = (k, x)
    return best[1]


NATIVE[("min", 0)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, False)])
NATIVE[("max", 0)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, True)])
NATIVE[("min_by", 1)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, False)])
NATIVE[("max_by", 1)] = lambda interp, args, inp, env: iter([_extreme(interp, args, inp, env, True)])


def _length_of(v):
    if v is None:
        return 0.0
    if v is True or v is False:
        raise JqError(f"{describe(v)} has no length")
    if is_number(v):
        return abs(v)
    return float(len(v))


@simple("reverse")
def _reverse(v):
    # def reverse: [.[length - 1 - range(0;length)]];
    if isinstance(v, list):
        return v[::-1]
    if _length_of(v) == 0:
        return []
    return [index_value(v, _length_of(v) - 1)]  # the error of indexing a non-array


@with_values("flatten", 1)
def _flatten1(v, depth):
    # def flatten($x): if $x < 0 then error(...) else _flatten($x) end;
    if sort_key(depth) < (3, 0.0):
        raise JqError("flatten depth must not be negative")
    return _flatten(v, depth)


def _flatten(v, depth):
    # def _flatten($x): reduce .[] as $i ([]; if $i | type == "array" and $x != 0
    #   then . + ($i | _flatten($x-1)) else . + [$i] end);
    out = []
    for x in iterate_value(v):
        if isinstance(x, list) and not equal(depth, 0.0):
            out.extend(_flatten(x, binop("-", depth, 1.0)))
        else:
            out.append(x)
    return out


@simple("flatten")
def _flatten0(v):
    return _flatten(v, -1.0)


def _upto(n):
    """range(0; n) for the jq-defined builtins."""
    if not is_number(n):
        raise JqError("Range bounds must be numeric")
    i = 0.0
    while i < n:
        yield i
        i += 1


@simple("transpose")
def _transpose(v):
    # if . == [] then [] else (map(length) | max) as $max | length as $length
    # | [range(0; $max) as $j | [range(0; $length) as $i | $in[$i][$j]]] end
    if v == []:
        return []
    widest = None
    for x in iterate_value(v):
        n = _length_of(x)
        if widest is None or sort_key(n) >= sort_key(widest):
            widest = n
    height = _length_of(v)
    return [[index_value(index_value(v, i), j) for i in _upto(height)] for j in _upto(widest)]


@simple("to_entries")
def _to_entries(v):
    if isinstance(v, dict):
        return [{"key": k, "value": x} for k, x in v.items()]
    if isinstance(v, list):
        return [{"key": float(i), "value": x} for i, x in enumerate(v)]
    raise JqError(f"{describe(v)} has no keys")


@simple("from_entries")
def _from_entries(v):
    # def from_entries: map({(.key // .Key // .name // .Name):
    #   (if has("value") then .value else .Value end)}) | add | .//={};
    out = {}
    for entry in iterate_value(v):
        for name in ("key", "Key", "name", "Name"):
            key = index_value(entry, name)
            if truthy(key):
                break
        if not isinstance(key, str):
            raise JqError(f"Cannot use {describe(key)} as object key")
        out[key] = index_value(entry, "value" if _has(entry, "value") else "Value")
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
    yield from stream_events(inp)



def _math(name: str, arity: int, fn) -> None:
    """A libm builtin: the input (arity 0) or the arguments must be numbers; a C builtin's
    arguments are evaluated with the last one outermost."""
    if arity == 0:
        def unary(interp, args, inp, env):
            yield fn(number_required(inp))
        NATIVE[(name, 0)] = unary
        return

    def call(interp, args, inp, env):
        def product(i, acc):
            if i < 0:
                yield fn(*(number_required(x) for x in acc))
                return
            for v in interp.eval(args[i], inp, env):
                yield from product(i - 1, [v] + acc)
        yield from product(arity - 1, [])
    NATIVE[(name, arity)] = call


for (_name, _arity), _fn in FUNCTIONS.items():
    _math(_name, _arity, _fn)


def _missing_at_build(name: str, arity: int) -> None:
    def missing(interp, args, inp, env):
        raise JqError(f"Error: {name}/{arity} not found at build time")
        yield  # pragma: no cover
    NATIVE[(name, arity)] = missing


for _name, _arity in MISSING_AT_BUILD:
    _missing_at_build(_name, _arity)


@native("infinite")
def _infinite(interp, args, inp, env):
    yield math.inf


@native("nan")
def _nan(interp, args, inp, env):
    yield math.nan


@simple("isinfinite")
def _isinfinite(v):
    return is_number(v) and math.isinf(v)


@simple("isnan")
def _isnan(v):
    return is_number(v) and math.isnan(v)


@simple("isnormal")
def _isnormal(v):
    return is_number(v) and math.isfinite(v) and v != 0 and abs(v) >= 2.2250738585072014e-308


@native("indices", 1)
def _indices_fn(interp, args, inp, env):
    for i in interp.eval(args[0], inp, env):
        yield _indices_of(inp, i)


def _indices_of(v, i):
    if v is None:
        return None
    if isinstance(v, str) and isinstance(i, str):
        # jq 1.6: byte offsets of the non-overlapping occurrences
        if not i:
            return None
        data = v.encode("utf-8", "surrogatepass")
        needle = i.encode("utf-8", "surrogatepass")
        out = []
        start = data.find(needle)
        while start >= 0:
            out.append(float(start))
            start = data.find(needle, start + len(needle))
        return out
    if isinstance(v, list):
        return subarray_indices(v, i if isinstance(i, list) else [i])
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


# ---------------------------------------------------------------- regexes (jq 1.6's Oniguruma use)

#: Python regex's messages -> Oniguruma's, for the patterns both refuse
_ONIG_MESSAGES = (
    ("missing ), unterminated comment", "end pattern in group"),
    ("missing )", "end pattern with unmatched parenthesis"),
    ("unterminated character set", "premature end of char-class"),
    ("unbalanced parenthesis", "unmatched close parenthesis"),
    ("nothing to repeat", "target of repeat operator is not specified"),
    ("multiple repeat", "target of repeat operator is not specified"),
    ("min repeat greater than max repeat", "upper is smaller than lower in repeat range"),
    ("bad escape (end of pattern)", "end pattern at escape"),
    ("invalid group reference", "invalid backref number/name"),
    ("unknown group", "undefined name reference"),
    ("bad character range", "empty range in char class"),
    ("unknown extension", "undefined group option"),
    ("unknown flag", "undefined group option"),
    ("missing >", "invalid group name"),
    ("bad character in group name", "invalid group name"),
)


def _regex_failure(e: regex.error) -> JqError:
    text = str(e.msg if hasattr(e, "msg") else e)
    for python, onig in _ONIG_MESSAGES:
        if text.startswith(python):
            text = onig
            break
    return JqError(f"Regex failure: {text}")


def _compile(interp, v, re_text, flags):
    """jq 1.6's f_match checks (the input, the regex, the flags), then (bounded pattern,
    global, not-empty) for ``re_text``: g global, i, x extended, n no empty match, p dot
    matches newline (s and l change nothing Python's engine would show)."""
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be matched, as it is not a string")
    if not isinstance(re_text, str):
        raise JqError(f"{describe(re_text)} is not a string")
    if flags is not None and not isinstance(flags, str):
        raise JqError(f"{describe(flags)} is not a string")
    opts = regex.V0
    global_ = not_empty = False
    for f in flags or "":
        if f == "g":
            global_ = True
        elif f == "i":
            opts |= regex.IGNORECASE
        elif f == "x":
            opts |= regex.VERBOSE
        elif f == "n":
            not_empty = True
        elif f == "p":
            opts |= regex.DOTALL
        elif f not in "sl":
            raise JqError(f"{flags} is not a valid modifier string")
    cache = interp.regexes
    pattern = cache.get((re_text, opts))
    if pattern is None:
        if expanded_size(re_text) > MAX_EXPANDED:
            raise JqError("Regex failure: regular expression too big")
        try:
            pattern = BoundedPattern(regex.compile(re_text, opts), interp.bounds, re_text)
        except regex.error as e:
            raise _regex_failure(e) from None
        if len(cache) > 256:
            cache.clear()
        cache[(re_text, opts)] = pattern
    return pattern, global_, not_empty


def _matches(interp, v, re_text, flags, global_=False, pos=0):
    """jq 1.6's search loop: match objects in its order. Each search starts where the last
    match ended -- after an empty match one character past where that search started (so an
    empty match can be found twice) -- and the loop stops at the end of the string; an empty
    match has no captures. ``pos``: where the first search starts."""
    pattern, global_flag, not_empty = _compile(interp, v, re_text, flags)
    global_ = global_ or global_flag
    end = len(v)
    while True:
        interp.tick()
        if not_empty:
            m = next((x for x in pattern.finditer(v, pos) if x.end() > x.start()), None)
        else:
            m = pattern.search(v, pos)
        if m is None:
            return
        if m.end() == m.start():
            yield {"offset": float(m.start()), "length": 0.0, "string": "", "captures": []}
            pos += 1
        else:
            yield _match_object(m)
            pos = m.end()
        if not global_ or pos >= end:
            return


def _match_object(m) -> dict:
    names = {idx: name for name, idx in m.re.groupindex.items()}
    caps = []
    for g in range(1, (m.re.groups or 0) + 1):
        start, stop = m.span(g)
        if start == stop:  # 1.6 builds an empty capture in another order
            caps.append({"offset": float(start), "string": None if start < 0 else "", "length": 0.0,
                         "name": names.get(g)})
        else:
            caps.append({"offset": float(start), "length": float(stop - start), "string": m.group(g),
                         "name": names.get(g)})
    return {"offset": float(m.start()), "length": float(m.end() - m.start()), "string": m.group(0),
            "captures": caps}


def _capture_object(match: dict) -> dict:
    # reduce (.captures | .[] | select(.name != null) | {(.name): .string}) as $pair ({}; . + $pair)
    return {c["name"]: c["string"] for c in match["captures"] if c["name"] is not None}


def _regex_value(val):
    """match($val) and co.: a string, or [re] / [re, flags]."""
    if isinstance(val, str):
        return val, None
    if isinstance(val, list) and val:
        return val[0], (val[1] if len(val) > 1 else None)
    raise JqError(f"{type_name(val)} not a string or array")


def _with_regex(interp, args, inp, env, body):
    """body(regex, flags) for each pair: `re; flags` (a C builtin's arguments, flags
    outermost), or one value `re` / [re, flags]. An error in body goes back into the
    arguments (a try in them catches it, as the C builtin's in jq 1.6)."""
    if all(single(a) for a in args):
        values = [interp.value(a, inp, env) for a in reversed(args)]
        return body(*((values[1], values[0]) if len(args) == 2 else _regex_value(values[0])))
    if len(args) == 2:
        return feed(interp.eval(args[1], inp, env), lambda flags: feed(
            interp.eval(args[0], inp, env), lambda re_text: body(re_text, flags)))
    return feed(interp.eval(args[0], inp, env), lambda val: body(*_regex_value(val)))


def _register_regex(name, fn):
    for arity in (1, 2):
        NATIVE[(name, arity)] = fn


def _test(interp, args, inp, env):
    def found(re_text, flags):  # the first search of the loop decides
        pattern, _, not_empty = _compile(interp, inp, re_text, flags)
        if not_empty:
            return (any(m.end() > m.start() for m in pattern.finditer(inp)),)
        return (pattern.search(inp) is not None,)
    yield from _with_regex(interp, args, inp, env, found)


def _match(interp, args, inp, env):
    yield from _with_regex(interp, args, inp, env, lambda re_text, flags: _matches(interp, inp, re_text, flags))


def _capture(interp, args, inp, env):
    yield from _with_regex(interp, args, inp, env, lambda re_text, flags: (
        _capture_object(m) for m in _matches(interp, inp, re_text, flags)))


def _scan_outputs(interp, inp, re_text, flags):
    # match(re; "g" + flags) | if (.captures|length > 0) then [.captures | .[] | .string] else .string end
    for m in _matches(interp, inp, re_text, flags, global_=True):
        yield [c["string"] for c in m["captures"]] if m["captures"] else m["string"]


@native("scan", 1)
def _scan1(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        yield from _scan_outputs(interp, inp, re_text, None)


@native("scan", 2)
def _scan2(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        for flags in interp.eval(args[1], inp, env):
            yield from _scan_outputs(interp, inp, re_text, flags)


_register_regex("test", _test)
_register_regex("match", _match)
_register_regex("capture", _capture)


def _regex_split(interp, v, re_text, flags):
    # def splits($re; flags): . as $s | [match($re; "g" + flags) | (.offset, .offset + .length)]
    #   | [0] + . + [$s|length] | _nwise(2) | $s[.[0]:.[1]];
    flags = binop("+", "g", flags)
    bounds = [0.0]
    for m in _matches(interp, v, re_text, flags):
        bounds += [m["offset"], m["offset"] + m["length"]]
    bounds.append(float(len(v)) if isinstance(v, str) else 0.0)
    for i in range(0, len(bounds), 2):
        yield slice_value(v, bounds[i], bounds[i + 1])


@native("splits", 1)
def _splits1(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        yield from _regex_split(interp, inp, re_text, None)


@native("splits", 2)
def _splits2(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        for flags in interp.eval(args[1], inp, env):
            yield from _regex_split(interp, inp, re_text, flags)


@native("split", 2)
def _split2(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        for flags in interp.eval(args[1], inp, env):
            yield list(_regex_split(interp, inp, re_text, flags))


def _substitutions(interp, inp, re_text, flags, again: bool, repl, env):
    """jq 1.6's sub: the first match in the string, its replacement, and (with the g flag)
    the same again on the rest of the string after the match -- a new search there, so ^
    matches at its start -- while something is left. The outputs are those of
    ``$in[0:$m.offset] + s + (rest | sub)``: every combination of the replacements' outputs,
    the last match's varying slowest."""
    # a pattern that looks at what precedes it is searched for in a copy of the rest (^
    # matches at its start); any other, in place from where the rest starts: the same matches
    looks_back = isinstance(re_text, str) and _looks_back(re_text)
    pattern, _, not_empty = _compile(interp, inp, re_text, flags)  # the g's are removed
    names = _group_names(pattern.compiled)
    levels = []  # (text before the match, its capture object)
    pos = 0  # the rest is inp[pos:]
    if again and not looks_back and not not_empty:
        # every search starts where the last match ended: one pass finds them all, unless a
        # match is empty (then each search is made as jq makes it, below)
        found = list(pattern.finditer(inp))
        if all(m.end() > m.start() for m in found):
            for m in found:
                interp.tick()
                levels.append((inp[pos:m.start()], {name: m.group(index) for name, index in names}))
                pos = m.end()
            found = None
        if found is None:
            rest = inp[pos:] if pos else inp
            yield from _replaced(interp, levels, rest, repl, env)
            return
    while True:
        interp.tick()
        subject, shift = (inp[pos:], pos) if looks_back and pos else (inp, 0)
        start_at = pos - shift
        if not_empty:
            m = next((x for x in pattern.finditer(subject, start_at) if x.end() > x.start()), None)
        else:
            m = pattern.search(subject, start_at)
        if m is None:
            break
        start, after = m.start() + shift - pos, m.end() + shift - pos
        # the capture object: named groups (an empty match has none)
        captures = {name: m.group(index) for name, index in names} if after > start else {}
        levels.append((inp[pos:pos + start], captures))
        if not (again and pos + after < len(inp)):
            pos += after
            break
        if after == 0:
            raise JqError("gsub: the regex matches the empty string at the start of what is left, "
                          "again and again (jq 1.6 runs out of memory)")
        pos += after
    rest = inp[pos:] if pos else inp
    yield from _replaced(interp, levels, rest, repl, env)


def _replaced(interp, levels, rest, repl, env):
    """The outputs of sub's ``before + s + (rest | sub)`` for the matches found."""
    # the deepest replacement is evaluated first (jq evaluates the right side of + first);
    # an output is kept as its pieces, last first, and joined once
    outputs = [[rest]]
    for before, captures in reversed(levels):
        replacements = list(interp.eval(repl, captures, env))
        single = len(outputs) == 1 and len(replacements) == 1
        grown = []
        for tail in outputs:
            for r in replacements:
                head = before + r if r.__class__ is str else binop("+", before, r)
                if single:
                    tail.append(head)
                    grown.append(tail)
                else:
                    grown.append(tail + [head])
        if not single:
            memory.room(sum(map(len, grown)) * ELEMENT_COST)
        outputs = grown
    for pieces in outputs:
        yield "".join(reversed(pieces))


def _index_of(v, i):
    if v is None:
        return None
    found = _indices_of(v, i)
    return found[0] if found else None


@functools.lru_cache(maxsize=256)
def _group_names(compiled) -> list:
    """The named groups of a compiled pattern, in their order."""
    return sorted(compiled.groupindex.items(), key=lambda kv: kv[1])


@functools.lru_cache(maxsize=256)
def _looks_back(re_text: str) -> bool:
    return any(mark in re_text for mark in ("^", "\\A", "\\b", "\\B", "\\G", "(?<=", "(?<!"))


@native("sub", 2)
def _sub2(interp, args, inp, env):
    # def sub($re; s): ... [match($re)] ... -- $re may be [re, flags]
    for val in interp.eval(args[0], inp, env):
        re_text, flags = _regex_value(val)
        yield from _substitutions(interp, inp, re_text, flags, False, args[1], env)


def _sub3(interp, args, inp, env, add_g: bool):
    # def sub($re; s; flags): (flags | index("g")) as $gs | (flags | if $gs then subg else .
    #   end) as $fla | sub1($fla; $gs);  -- flags evaluated twice, one loop in the other
    for re_text in interp.eval(args[0], inp, env):
        for first in interp.eval(args[2], inp, env):
            again = truthy(_index_of(binop("+", first, "g") if add_g else first, "g"))
            for flags in interp.eval(args[2], inp, env):
                if add_g:
                    flags = binop("+", flags, "g")
                if again:
                    flags = "".join(c for c in flags if c != "g")
                yield from _substitutions(interp, inp, re_text, flags, again, args[1], env)


NATIVE[("sub", 3)] = lambda interp, args, inp, env: _sub3(interp, args, inp, env, False)
NATIVE[("gsub", 3)] = lambda interp, args, inp, env: _sub3(interp, args, inp, env, True)


@native("gsub", 2)
def _gsub2(interp, args, inp, env):
    # def gsub($re; s): sub($re; s; "g");
    if single(args[0]):
        yield from _substitutions(interp, inp, interp.value(args[0], inp, env), None, True, args[1], env)
        return
    for re_text in interp.eval(args[0], inp, env):
        yield from _substitutions(interp, inp, re_text, None, True, args[1], env)


@native("format", 1)
def _format(interp, args, inp, env):
    for name in interp.eval(args[0], inp, env):
        if not isinstance(name, str):
            raise JqError(f"{describe(name)} is not a valid format")
        yield apply_format(name, inp)


# ---------------------------------------------------------------- dates (see dates.py)

NATIVE[("gmtime", 0)] = lambda interp, args, inp, env: iter([dates.gmtime(inp)])
NATIVE[("localtime", 0)] = lambda interp, args, inp, env: iter([dates.gmtime(inp, "localtime")])
NATIVE[("mktime", 0)] = lambda interp, args, inp, env: iter([dates.mktime(inp)])


@with_values("strftime", 1)
def _strftime(v, fmt):
    return dates.strftime(v, fmt)


@with_values("strflocaltime", 1)
def _strflocaltime(v, fmt):
    return dates.strftime(v, fmt, "strflocaltime")


@with_values("strptime", 1)
def _strptime(v, fmt):
    return dates.strptime(v, fmt)


@simple("todate")
def _todate(v):
    return dates.strftime(v, "%Y-%m-%dT%H:%M:%SZ")


NATIVE[("todateiso8601", 0)] = NATIVE[("todate", 0)]


@simple("fromdateiso8601")
def _fromdateiso8601(v):
    return dates.mktime(dates.strptime(v, "%Y-%m-%dT%H:%M:%SZ"))


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
def scalars_or_empty: select(. == null or . == true or . == false or type == "number" or type == "string" or ((type=="array" or type=="object") and length==0));
def recurse_down: recurse;
def any: any(.[]; .);
def all: all(.[]; .);
def any(f): any(.[]; f);
def all(f): all(.[]; f);
def first: .[0];
def last: .[-1];
def last(f): reduce f as $x (null; $x);
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("nth doesn't support negative indices") else last(limit($n + 1; f)) end;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): . as $in | if type == "object" then reduce keys_unsorted[] as $key ( {}; . + { ($key): ($in[$key] | walk(f)) } ) | f elif type == "array" then map( walk(f) ) | f else f end;
def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0]|length) > $n then setpath([0];.[0][$n:]) else empty end;
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row|idx_expr|tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def GROUP_BY(f): group_by(f);
def UNIQUE_BY(f): [group_by(f)[] | .[0]];
def ascii(i): [i] | implode;
def todate(f): f | todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def date: todate;
def isfinite: type == "number" and (isinfinite | not);
def finites: select(isfinite);
def normals: select(isnormal);
def tojson(f): f | tojson;
def add(f): reduce f as $x (null; . + $x);
def abs: if type == "number" and . < 0 then - . else . end;
def toarray: if type == "array" then . else [.] end;
def have_literal_numbers: true;
def have_decnum: false;
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def debug(msg): (msg | debug | empty), .;
"""  # noqa: E501 - jq definitions, one per line
