"""jq's operations on values: indexing, slicing, iteration, arithmetic and comparison, and
paths (getpath/setpath/delpaths, --stream events)."""
from __future__ import annotations

import math
from typing import Any, Iterator

from .formats import describe
from ... import memory
from .values import ELEMENT_COST, MISSING, JqError, equal, is_number, sort_key, type_name


def _int_index(key: float) -> int | None:
    if not math.isfinite(key):
        return None
    if key != int(key):
        return None
    return int(key)


def index_error(target: Any, key: Any) -> JqError:
    """jq 1.6's text for a lookup that cannot be made (a short string key is quoted)."""
    if isinstance(key, str) and len(key.encode("utf-8", "surrogatepass")) < 30:
        return JqError(f"Cannot index {type_name(target)} with string \"{key}\"")
    return JqError(f"Cannot index {type_name(target)} with {type_name(key)}")


def index_value(target: Any, key: Any) -> Any:
    if isinstance(key, str):
        if isinstance(target, dict):
            return target.get(key)
        if target is None:
            return None
    elif is_number(key):
        if isinstance(target, list):
            i = _int_index(key)
            if i is None:
                return None
            if i < 0:
                i += len(target)
            return target[i] if 0 <= i < len(target) else None
        if target is None:
            return None
    elif isinstance(key, dict):
        if target is None:
            return None
        if isinstance(target, (list, str)):
            return slice_value(target, key.get("start", MISSING), key.get("end", MISSING))
    elif isinstance(key, list) and isinstance(target, list):
        return subarray_indices(target, key)
    raise index_error(target, key)


def subarray_indices(seq: list, sub: list) -> Any:
    """``$array | .[$subarray]``: where sub starts in seq."""
    if not sub:
        return []
    out = []
    for i in range(len(seq)):
        if all(i + k < len(seq) and equal(seq[i + k], sub[k]) for k in range(len(sub))):
            out.append(float(i))
    return out


def slice_bounds(target: Any, lo: Any, hi: Any) -> tuple[int, int]:
    """jq 1.6's slice of a sequence: a missing end (MISSING, not null) or a non-number is an
    error; negative ends count from the end; the start is truncated, a fractional end rounded
    up, then an end before the start is the start."""
    length = len(target)
    if lo is None:
        lo = 0.0
    if hi is None:
        hi = float(length)
    if not is_number(lo) or not is_number(hi):
        kind = "string" if isinstance(target, str) else "array"
        raise JqError(f"Start and end indices of an {kind} slice must be numbers")
    start = lo + length if lo < 0 else lo
    end = hi + length if hi < 0 else hi
    if start != start:
        start = 0.0
    if end != end:
        end = start
    start = min(max(start, 0.0), float(length))
    end = min(end, float(length))
    istart = int(start)
    iend = int(max(end, -1.0))  # C truncates toward zero; below -1 it ends up the start anyway
    if end > iend:
        iend += 1
    return istart, max(iend, istart)


def slice_value(target: Any, lo: Any, hi: Any) -> Any:
    if target is None:
        return None
    if isinstance(target, (list, str)):
        start, end = slice_bounds(target, lo, hi)
        return target[start:end]
    raise JqError(f"Cannot index {type_name(target)} with object")


def iterate_value(target: Any) -> Iterator[Any]:
    if isinstance(target, list):
        yield from target
    elif isinstance(target, dict):
        yield from target.values()
    else:
        raise JqError(f"Cannot iterate over {describe(target)}")


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
        if is_number(a) and is_number(b):
            return a + b
        if isinstance(a, str) and isinstance(b, str):
            memory.room(len(a) + len(b))
            return a + b
        if isinstance(a, list) and isinstance(b, list):
            memory.room((len(a) + len(b)) * ELEMENT_COST)
            return a + b
        if isinstance(a, dict) and isinstance(b, dict):
            out = dict(a)
            out.update(b)
            return out
        raise JqError(f"{describe(a)} and {describe(b)} cannot be added")
    if op == "-":
        if is_number(a) and is_number(b):
            return a - b
        if isinstance(a, list) and isinstance(b, list):
            return [x for x in a if not any(equal(x, y) for y in b)]
        raise JqError(f"{describe(a)} and {describe(b)} cannot be subtracted")
    if op == "*":
        if is_number(a) and is_number(b):
            return a * b
        if isinstance(a, str) and is_number(b) or isinstance(b, str) and is_number(a):
            s, n = (a, b) if isinstance(a, str) else (b, a)
            count = int(n) if math.isfinite(n) else 0
            memory.room(len(s) * count)
            return s * count if count > 0 else None
        if isinstance(a, dict) and isinstance(b, dict):
            return _deep_merge(a, b)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be multiplied")
    if op == "/":
        if is_number(a) and is_number(b):
            if b == 0:
                raise JqError(f"{describe(a)} and {describe(b)} cannot be divided because the divisor is zero")
            return a / b
        if isinstance(a, str) and isinstance(b, str):
            return split_string(a, b)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be divided")
    if op == "%":
        if is_number(a) and is_number(b):
            ia, ib = _to_intmax(a), _to_intmax(b)
            if ib == 0:
                raise JqError(
                    f"{describe(a)} and {describe(b)} cannot be divided (remainder) because the divisor is zero"
                )
            r = abs(ia) % abs(ib)
            return float(-r if ia < 0 else r)
        raise JqError(f"{describe(a)} and {describe(b)} cannot be divided")
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


def split_string(s: str, sep: str) -> list:
    if s == "":
        return []
    if len(s) > 4096:  # the pieces: one allocation
        memory.need((len(s) if sep == "" else s.count(sep) + 1) * ELEMENT_COST + len(s))
    if sep == "":
        return list(s)
    return s.split(sep)


def getpath(value: Any, path) -> Any:
    """``getpath``: each step a lookup (its errors are the lookup's), null below a null."""
    for key in path:
        if value is None:
            # null | .[k] is null for the keys a lookup takes; the others are errors
            if isinstance(key, (str, dict)) or is_number(key):
                continue
            raise index_error(value, key)
        value = index_value(value, key)
    return value


def setpath(value: Any, path, new: Any) -> Any:
    """``setpath``: each step looks the key up first (its error comes first), then sets."""
    if not path:
        return new
    key, rest = path[0], path[1:]
    child = index_value(value, key)
    if isinstance(key, str):
        out = {} if value is None else dict(value)
        out[key] = setpath(child, rest, new)
        return out
    if is_number(key):
        out = [] if value is None else list(value)
        i = int(key) if math.isfinite(key) else 0
        if i < 0:
            i += len(out)
            if i < 0:
                raise JqError("Out of bounds negative array index")
        replacement = setpath(child, rest, new)
        if i >= len(out):
            memory.room((i + 1) * ELEMENT_COST)
            out.extend([None] * (i + 1 - len(out)))
        out[i] = replacement
        return out
    if isinstance(key, dict):
        seq = [] if value is None else value
        if not isinstance(seq, list):
            raise JqError(f"Cannot update field at object index of {type_name(seq)}")
        start, end = slice_bounds(seq, key.get("start", MISSING), key.get("end", MISSING))
        replacement = setpath(child, rest, new)
        if not isinstance(replacement, list):
            raise JqError("A slice of an array can only be assigned another array")
        return seq[:start] + replacement + seq[end:]
    # $array | .[$array] looked up fine, and cannot be set
    raise JqError(f"Cannot update field at {type_name(key)} index of {type_name(value)}")


def delpaths(value: Any, paths) -> Any:
    """``delpaths``: the paths sorted, and each container's keys deleted all at once, as
    positions in it before any deletion (``del(.[1], .[-6])`` of ten elements deletes 1 and
    4)."""
    for p in paths:
        if not isinstance(p, (list, tuple)):
            raise JqError(f"Path must be specified as array, not {type_name(p)}")
    if not paths:
        return value
    ordered = sorted((list(p) for p in paths), key=sort_key)
    if not ordered[0]:
        return None
    return _delpaths_sorted(value, ordered, 0)


def _delpaths_sorted(value: Any, paths: list, depth: int) -> Any:
    keys = []
    i = 0
    while i < len(paths):
        key = paths[i][depth]
        j = i + 1
        while j < len(paths) and equal(paths[j][depth], key):
            j += 1
        if any(len(p) == depth + 1 for p in paths[i:j]):
            keys.append(key)  # the whole key goes: deeper deletions under it do not matter
        else:
            child = index_value(value, key)
            if child is not None:
                value = setpath(value, [key], _delpaths_sorted(child, paths[i:j], depth + 1))
        i = j
    return _delete_keys(value, keys)


def _delete_keys(value: Any, keys: list) -> Any:
    if value is None or not keys:
        return value
    if isinstance(value, list):
        gone = set()
        spans = []
        length = len(value)
        for key in keys:
            if is_number(key):
                i = int(key) if math.isfinite(key) else 0
                gone.add(i + length if key < 0 else i)
            elif isinstance(key, dict):
                spans.append(slice_bounds(value, key.get("start", MISSING), key.get("end", MISSING)))
            else:
                raise JqError(f"Cannot delete {type_name(key)} element of array")
        return [x for n, x in enumerate(value)
                if n not in gone and not any(s <= n < e for s, e in spans)]
    if isinstance(value, dict):
        out = dict(value)
        for key in keys:
            if not isinstance(key, str):
                raise JqError(f"Cannot delete {type_name(key)} field of object")
            out.pop(key, None)
        return out
    raise JqError(f"Cannot delete fields from {type_name(value)}")


def stream_events(value):
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
