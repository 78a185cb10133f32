"""jq's builtin functions: natives written in Python (NATIVE, and NATIVE_PATHS for those
that are path expressions) and the PRELUDE written in jq."""
from __future__ import annotations

import calendar
import math
import time as _time

import regex

from ... import memory
from .._lib.bounded import MAX_EXPANDED, BoundedPattern, expanded_size
from .formats import apply_format, describe, dump, format_number, parse_json_text, tostring
from .operations import (binop, delpaths, getpath, index_value, iterate_value, setpath,
    split_string, stream_events, subarray_indices)
from .values import ELEMENT_COST, MISSING, HaltSignal, JqError, equal, is_number, sort_key, truthy, type_name


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
        yield getpath(inp, path)


def _getpath_paths(interp, args, inp, env, base):
    for path in interp.eval(args[0], inp, env):
        if not isinstance(path, list):
            raise JqError("Path must be specified as an array")
        yield base + tuple(path), getpath(inp, path)


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
        if not is_number(n):
            raise JqError(f"Invalid limit: {describe(n)}")
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
        nxt = next(iter(interp.eval(args[1], v, env)), MISSING)
        if nxt is MISSING:
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
        nxt = next(iter(interp.eval(args[1], v, env)), MISSING)
        if nxt is MISSING:
            return
        v = nxt


@native("repeat", 1)
def _repeat(interp, args, inp, env):
    # jq 1.6: def repeat(f): def _repeat: f | (., _repeat); _repeat;
    yield from _preorder(interp.eval(args[0], inp, env), lambda v: interp.eval(args[0], v, env), interp.tick)


@native("input")
def _input(interp, args, inp, env):
    value = interp.inputs.next_value()
    if value is MISSING:
        raise JqError("No more inputs")
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
        try:
            if not regex.fullmatch(
                r"\s*-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*|\s*(nan|-?infinity)\s*", v, regex.I
            ):
                raise ValueError
            return float(v)
        except ValueError:
            raise JqError(f"Cannot parse '{v}' as JSON") from None
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
        raise JqError(f"Cannot iterate over {describe(v)}")
    acc = None
    for x in items:
        acc = binop("+", acc, x)
    return acc


@simple("sort")
def _sort(v):
    if not isinstance(v, list):
        raise JqError(f"{describe(v)} cannot be sorted, as it is not an array")
    return sorted(v, key=sort_key)


def _keyed(interp, args, inp, env):
    if not isinstance(inp, list):
        raise JqError(f"Cannot index {type_name(inp)} with number" if inp is not None
                      else f"Cannot iterate over {describe(inp)}")
    return [(sort_key(list(interp.eval(args[0], x, env))), x) for x in inp]


@native("sort_by", 1)
def _sort_by(interp, args, inp, env):
    if not isinstance(inp, list):
        raise JqError(f"{describe(inp)} cannot be sorted, as it is not an array")
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
        raise JqError(f"{describe(v)} cannot be sorted, as it is not an array")
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
        raise JqError(f"Cannot iterate over {describe(v)}")
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
        raise JqError(f"Cannot iterate over {describe(v)}")
    return _flatten(v, 10 ** 9)


@simple("transpose")
def _transpose(v):
    if not isinstance(v, list):
        raise JqError(f"Cannot iterate over {describe(v)}")
    width = max((len(row) for row in v if isinstance(row, list)), default=0)
    return [[row[i] if isinstance(row, list) and i < len(row) else None for row in v]
            for i in range(width)]


@simple("to_entries")
def _to_entries(v):
    if isinstance(v, dict):
        return [{"key": k, "value": x} for k, x in v.items()]
    if isinstance(v, list):
        return [{"key": float(i), "value": x} for i, x in enumerate(v)]
    raise JqError(f"{describe(v)} has no keys")


@simple("from_entries")
def _from_entries(v):
    out = {}
    for entry in iterate_value(v):
        if not isinstance(entry, dict):
            raise JqError(f"Cannot index {type_name(entry)} with \"key\"")
        key = MISSING
        for name in ("key", "k", "name", "Name", "K", "Key"):
            if truthy(entry.get(name)):
                key = entry[name]
                break
        if key is MISSING:
            key = entry.get("key", entry.get("k"))
        if isinstance(key, (int, float)) and not isinstance(key, bool):
            key = format_number(key)
        elif key is True or key is False:
            key = "true" if key else "false"
        elif key is None:
            key = "null"
        elif not isinstance(key, str):
            raise JqError(f"Cannot use {describe(key)} as object key")
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
    yield from stream_events(inp)



@simple("floor")
def _floor(v):
    return float(math.floor(_need_number(v, "floor"))) if math.isfinite(v) else v


def _need_number(v, name):
    if not is_number(v):
        raise JqError(f"{describe(v)} number required")
    return v


def _math1(name, fn):
    def impl(v):
        _need_number(v, name)
        try:
            return float(fn(v))
        except (ValueError, OverflowError):
            return math.nan
    simple(name)(impl)


for _name, _fn in {
    "sqrt": math.sqrt,
    "ceil": math.ceil,
    "round": lambda x: math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5),
    "fabs": abs,
    "exp": math.exp,
    "exp2": lambda x: 2.0**x,
    "exp10": lambda x: 10.0**x,
    "log": math.log,
    "log2": math.log2,
    "log10": math.log10,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "trunc": math.trunc,
    "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "significand": lambda x: math.frexp(x)[0] * 2 if x else 0.0,
    "logb": lambda x: float(math.frexp(x)[1] - 1),
}.items():
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


@native("splits", 1)
def _splits1(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        yield from _regex_split(interp, inp, re_text, None)


@native("splits", 2)
def _splits2(interp, args, inp, env):
    for flags in interp.eval(args[1], inp, env):
        for re_text in interp.eval(args[0], inp, env):
            yield from _regex_split(interp, inp, re_text, flags)


@native("split", 2)
def _split2(interp, args, inp, env):
    for re_text in interp.eval(args[0], inp, env):
        for flags in interp.eval(args[1], inp, env):
            yield list(_regex_split(interp, inp, re_text, flags))


def _compile(interp, re_text, flags):
    """(bounded pattern, global, skip empty matches) for ``re_text`` with jq's ``flags``."""
    if not isinstance(re_text, str):
        raise JqError(f"{describe(re_text)} cannot be matched, as it is not a string")
    if flags is not None and not isinstance(flags, str):
        raise JqError(f"{describe(flags)} is not a string")
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
    cache = interp.regexes
    pattern = cache.get((re_text, opts))
    if pattern is None:
        if expanded_size(re_text) > MAX_EXPANDED:
            raise JqError(f"{re_text} (at offset 0) is not a valid regex: regular expression too big")
        try:
            pattern = BoundedPattern(regex.compile(re_text, opts), interp.bounds, re_text)
        except regex.error as e:
            raise JqError(f"{re_text} (at offset {getattr(e, 'pos', 0)}) is not a valid regex: {e}") from None
        if len(cache) > 256:
            cache.clear()
        cache[(re_text, opts)] = pattern
    return pattern, global_, skip_empty


def _regex_split(interp, v, re_text, flags):
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be matched, as it is not a string")
    prev = 0
    for m in _matches(interp, v, re_text, flags, force_global=True):
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


def _matches(interp, v, re_text, flags, force_global=False):
    if not isinstance(v, str):
        raise JqError(f"{describe(v)} cannot be matched, as it is not a string")
    pattern, global_, skip_empty = _compile(interp, re_text, flags)
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
        yield any(True for _ in _matches(interp, inp, re_text, flags))


def _match(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        for m in _matches(interp, inp, re_text, flags):
            yield _match_object(m)


def _capture(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        for m in _matches(interp, inp, re_text, flags):
            yield _capture_object(m)


def _capture_object(m) -> dict:
    return {name: m.group(name) for name in sorted(m.re.groupindex, key=lambda n: m.re.groupindex[n])}


def _scan(interp, args, inp, env):
    for re_text, flags in _regex_args(interp, args, inp, env):
        for m in _matches(interp, inp, re_text, flags, force_global=True):
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
                raise JqError(f"{describe(inp)} cannot be matched, as it is not a string")
            fl = (flags or "") + ("g" if global_default else "")
            out = []
            prev = 0
            for m in _matches(interp, inp, re_text, fl):
                out.append(inp[prev:m.start()])
                replacement = next(iter(interp.eval(args[1], _capture_object(m), env)), "")
                if not isinstance(replacement, str):
                    raise JqError(f"{describe(replacement)} cannot be added to a string")
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
            raise JqError(f"{describe(name)} is not a valid format")
        yield apply_format(name, inp)


# ---------------------------------------------------------------- dates

def _broken_down(t: float) -> list:
    st = _time.gmtime(math.floor(t))
    seconds = st.tm_sec + (t - math.floor(t))
    return [float(st.tm_year), float(st.tm_mon - 1), float(st.tm_mday), float(st.tm_hour),
            float(st.tm_min), float(seconds), float((st.tm_wday + 1) % 7), float(st.tm_yday - 1)]


def _struct_time(bd) -> _time.struct_time:
    if not isinstance(bd, list) or len(bd) < 6 or not all(is_number(x) for x in bd[:6]):
        raise JqError("mktime requires array of 6 numbers")
    year, month, day, hour, minute, second = (int(x) for x in bd[:6])
    wday = int(bd[6]) if len(bd) > 6 and is_number(bd[6]) else 0
    yday = int(bd[7]) if len(bd) > 7 and is_number(bd[7]) else 0
    return _time.struct_time((year, month + 1, day, hour, minute, second, (wday - 1) % 7, yday + 1, 0))


@simple("gmtime")
def _gmtime(v):
    if not is_number(v):
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
    if is_number(v):
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
"""  # noqa: E501 - jq definitions, one per line
