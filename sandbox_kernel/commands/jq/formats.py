"""jq's text forms of values: JSON output as jq 1.6 prints it, the @formats (@text @json
@csv @tsv @html @uri @sh @base64 @base64d), and JSON text parsed into values."""
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


#: jq 1.6 prints what is nested deeper than this as STRIPPED (Debian's jq, like later ones)
MAX_PRINT_DEPTH = 256
STRIPPED = "<stripped: exceeds max depth>"


def dump(v: Any, indent: int | str = 0, sort_keys: bool = False, ascii_only: bool = False,
         level: int = 0) -> str:
    """JSON text the way jq prints it (indent 0 = compact); what is nested more than 256
    levels deep is printed as STRIPPED. Text too long for the memory limit is refused before
    it is made (``text_size``)."""
    if level == 0 and isinstance(v, (list, dict, str)) and v:
        memory.room(text_size(v, {}))
    return _dump(v, indent, sort_keys, ascii_only, level)


def text_size(v: Any, seen: dict, depth: int = 0) -> int:
    """About how long ``v``'s compact JSON text is; in time linear in ``v``'s distinct parts,
    also when they are shared (``reduce range(40) as $i (1; [.,.])`` is 40 lists and a
    text of 2^40 numbers)."""
    cls = v.__class__
    if cls is str:
        return len(v) + 2
    if cls is not list and cls is not dict:
        return 8
    if depth >= MAX_PRINT_DEPTH:
        return len(STRIPPED)
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
                size += text_size(x, seen, depth + 1)
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
        return format_number(v) if level <= MAX_PRINT_DEPTH else STRIPPED
    if isinstance(v, str):
        return _escape_string(v, ascii_only) if level <= MAX_PRINT_DEPTH else STRIPPED
    if level > MAX_PRINT_DEPTH:
        return STRIPPED
    pad = indent if isinstance(indent, str) else " " * indent
    deeper = level + 1
    if isinstance(v, list):
        if not v:
            return "[]"
        if not pad:
            return "[" + ",".join(_dump(x, indent, sort_keys, ascii_only, deeper) for x in v) + "]"
        inner = pad * deeper
        return "[\n" + ",\n".join(inner + _dump(x, indent, sort_keys, ascii_only, deeper) for x in v) \
            + "\n" + pad * level + "]"
    if not v:
        return "{}"
    keys = sorted(v) if sort_keys else list(v)
    if not pad:
        return "{" + ",".join(_escape_string(k, ascii_only) + ":" + _dump(v[k], indent, sort_keys, ascii_only, deeper)
                              for k in keys) + "}"
    inner = pad * deeper
    return "{\n" + ",\n".join(inner + _escape_string(k, ascii_only) + ": " +
                              _dump(v[k], indent, sort_keys, ascii_only, deeper) for k in keys) \
        + "\n" + pad * level + "}"


def short(v: Any, size: int = 15) -> str:
    """A value abbreviated for error messages, as jq does in a buffer of ``size`` bytes."""
    text = dump(v)
    if len(text) > size - 1:
        text = text[:size - 4] + "..."
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
            raise JqError(f"{describe(v)} cannot be {name}-formatted, only array")
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
            if c.isascii() and (c.isalnum() or c in "-_.!~*'()"):  # jq 1.6's unreserved
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
        return _base64_decode(v)
    raise JqError(f"{name} is not a valid format")


_B64 = {c: i for i, c in enumerate(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _base64_decode(v: Any) -> str:
    """jq 1.6's @base64d: 4 characters at a time up to the first '=', a character outside the
    alphabet an error, a lone trailing one too, the bytes decoded as jq decodes UTF-8."""
    s = tostring(v)
    data = s.encode("utf-8", "surrogatepass").split(b"=", 1)[0]
    out = bytearray()
    code = 0
    count = 0
    for byte in data:
        digit = _B64.get(byte)
        if digit is None:
            raise JqError(f"{describe(s)} is not valid base64 data")
        code = code << 6 | digit
        count += 1
        if count == 4:
            out += code.to_bytes(3, "big")
            code = count = 0
    if count == 3:
        out += (code >> 2).to_bytes(2, "big")
    elif count == 2:
        out.append(code >> 4)
    elif count == 1:
        raise JqError(f"{describe(s)} trailing base64 byte found")
    return decode_utf8(bytes(out))


def _utf8_length(first: int) -> int:
    """How long a UTF-8 sequence that starts with this byte is (0: no such start)."""
    if first < 0x80:
        return 1
    if first < 0xC2:  # a continuation byte, or C0/C1 (only ever overlong)
        return 0
    if first < 0xE0:
        return 2
    if first < 0xF0:
        return 3
    if first < 0xF5:
        return 4
    return 0


_UTF8_FIRST = (0, 0, 0x80, 0x800, 0x10000)


def decode_utf8(data: bytes) -> str:
    """Bytes as jq reads them: valid UTF-8 as is; a bad byte, an incomplete sequence (up to
    the byte that breaks it, or to the end), an overlong form, a surrogate or a code point
    beyond U+10FFFF each one U+FFFD."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out = []
    i, end = 0, len(data)
    while i < end:
        first = data[i]
        length = _utf8_length(first)
        if length == 1:
            out.append(chr(first))
            i += 1
            continue
        if length == 0:
            out.append("\ufffd")
            i += 1
            continue
        if i + length > end:
            out.append("\ufffd")
            i = end
            continue
        code = first & (0x7F >> length)
        good = True
        for k in range(1, length):
            ch = data[i + k]
            if ch & 0xC0 != 0x80:
                good = False
                length = k
                break
            code = code << 6 | (ch & 0x3F)
        if not good or code < _UTF8_FIRST[length] or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            out.append("\ufffd")
        else:
            out.append(chr(code))
        i += length
    return "".join(out)


def parse_constant(name: str) -> Any:
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]
