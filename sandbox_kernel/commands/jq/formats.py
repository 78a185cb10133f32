"""jq's text forms of values: JSON output as jq 1.6 prints it, the @formats (@text @json
@csv @tsv @html @uri @sh @base64 @base64d @base32), and JSON text parsed into values."""
from __future__ import annotations

import base64
import json
import math
from typing import Any

from ... import memory
from .values import JqError, is_number, type_name


DBL_MAX = 1.7976931348623157e+308


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
    """JSON text the way jq prints it (indent 0 = compact). Text too long for the memory limit
    is refused before it is made (``text_size``)."""
    if level == 0 and isinstance(v, (list, dict, str)) and v:
        memory.room(text_size(v, {}))
    return _dump(v, indent, sort_keys, ascii_only, level)


def text_size(v: Any, seen: dict) -> int:
    """About how long ``v``'s compact JSON text is; in time linear in ``v``'s distinct parts,
    also when they are shared (``reduce range(40) as $i (1; [.,.])`` is 40 lists and a
    text of 2^40 numbers)."""
    cls = v.__class__
    if cls is str:
        return len(v) + 2
    if cls is not list and cls is not dict:
        return 8
    key = id(v)
    size = seen.get(key)
    if size is None:
        size = 1 + len(v)
        if cls is dict:
            size += sum(map(len, v)) + 3 * len(v)
            v = v.values()
        for x in v:
            c = x.__class__
            if c is float:
                size += 8
            elif c is str:
                size += len(x) + 2
            elif c is list or c is dict:
                size += text_size(x, seen)
            else:
                size += 5
        seen[key] = size
    return size


def _dump(v: Any, indent: int | str = 0, sort_keys: bool = False, ascii_only: bool = False,
          level: int = 0) -> str:
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
            return "[" + ",".join(_dump(x, indent, sort_keys, ascii_only) for x in v) + "]"
        inner = pad * (level + 1)
        return "[\n" + ",\n".join(inner + _dump(x, indent, sort_keys, ascii_only, level + 1) for x in v) \
            + "\n" + pad * level + "]"
    if not v:
        return "{}"
    keys = sorted(v) if sort_keys else list(v)
    if not pad:
        return "{" + ",".join(_escape_string(k, ascii_only) + ":" + _dump(v[k], indent, sort_keys, ascii_only)
                              for k in keys) + "}"
    inner = pad * (level + 1)
    return "{\n" + ",\n".join(inner + _escape_string(k, ascii_only) + ": " +
                              _dump(v[k], indent, sort_keys, ascii_only, level + 1) for k in keys) \
        + "\n" + pad * level + "}"


def short(v: Any) -> str:
    """A value abbreviated for error messages, as jq does."""
    text = dump(v)
    if len(text) > 14:
        text = text[:11] + "..."
    return text


def describe(v: Any) -> str:
    return f"{type_name(v)} ({short(v)})"



def tostring(v: Any) -> str:
    return v if isinstance(v, str) else dump(v)


def apply_format(name: str, v: Any) -> str:
    if name == "text":
        return tostring(v)
    if name == "json":
        return dump(v)
    if name == "csv" or name == "tsv":
        if not isinstance(v, list):
            raise JqError(f"{describe(v)} cannot be {name}-formatted, only an array can be")
        cells = []
        for x in v:
            if is_number(x):
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
                raise JqError(f"{describe(x)} is not valid in a csv row")
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
                raise JqError(f"{describe(x)} can not be escaped for shell")
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
            raise JqError(f"{describe(v)} is not valid base64 data") from None
        return data.decode("utf-8", "replace")
    if name == "base32":
        return base64.b32encode(tostring(v).encode("utf-8")).decode()
    raise JqError(f"{name} is not a valid format")


def parse_json_text(text: str) -> Any:
    decoder = json.JSONDecoder(parse_int=float, parse_constant=parse_constant)
    try:
        value, end = decoder.raw_decode(text.strip())
    except json.JSONDecodeError as e:
        raise JqError(f"{e.msg} at line {e.lineno}, column {e.colno} (while parsing '{text}')") from None
    if text.strip()[end:].strip():
        raise JqError(f"Unexpected extra JSON values (while parsing '{text}')")
    return value


def parse_constant(name: str) -> Any:
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]
