"""jq's operations on values: indexing, slicing, iteration, arithmetic and comparison, and
paths (getpath/setpath/delpaths, --stream events)."""
from __future__ import annotations

import json
import math
from typing import Any, Iterator

from .formats import describe
from ... import memory
from .values import ELEMENT_COST, JqError, equal, is_number, sort_key, type_name


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
    if is_number(key):
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
        return subarray_indices(target, key)
    if key is None and isinstance(target, dict):
        raise JqError("Cannot index object with null")
    raise JqError(f"Cannot index {type_name(target)} with {type_name(key)}")


def subarray_indices(seq: list, sub: list) -> Any:
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
        if not is_number(v):
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
    for key in path:
        if value is None:
            return None
        try:
            value = index_value(value, key)
        except JqError:
            raise JqError(
                f"Cannot index {type_name(value)} with "
                f"{'number' if is_number(key) else json.dumps(key) if isinstance(key, str) else type_name(key)}"
            ) from None
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
    if is_number(key):
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
    if is_number(key):
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
