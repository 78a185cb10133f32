"""jq 1.6's date builtins (gmtime, mktime, strftime, strptime and the ones built on them) as
jq makes them: through the C library's gmtime_r, timegm, strftime and strptime, with jq's
checks and messages around them (a broken-down time is 8 numbers, each converted the way C
converts a double to an int). Times are UTC: localtime and strflocaltime are gmtime and
strftime, the sandbox having no time zone of its own. Where the C library cannot be loaded,
Python's time module stands in."""
from __future__ import annotations

import calendar
import ctypes
import ctypes.util
import math
import time as _time
from typing import Any

from .formats import decode_utf8
from .values import JqError, is_number

_INT_MIN = -(1 << 31)


def _c_int(x: float) -> int:
    """A double as x86-64 converts it to an int: truncated, INT_MIN when it does not fit."""
    if x != x or not -2147483649.0 < x < 2147483648.0:
        return _INT_MIN
    return int(x)


def _wrap32(n: int) -> int:
    return (n + (1 << 31)) % (1 << 32) - (1 << 31)


def _time_t(x: float) -> int:
    if x != x or not -9.223372036854776e18 <= x < 9.223372036854776e18:
        return -(1 << 63)
    return int(x)


class _Tm(ctypes.Structure):
    _fields_ = [("tm_sec", ctypes.c_int), ("tm_min", ctypes.c_int), ("tm_hour", ctypes.c_int),
                ("tm_mday", ctypes.c_int), ("tm_mon", ctypes.c_int), ("tm_year", ctypes.c_int),
                ("tm_wday", ctypes.c_int), ("tm_yday", ctypes.c_int), ("tm_isdst", ctypes.c_int),
                ("tm_gmtoff", ctypes.c_long), ("tm_zone", ctypes.c_char_p)]


def _load_libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.gmtime_r.restype = ctypes.POINTER(_Tm)
        libc.gmtime_r.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(_Tm)]
        libc.timegm.restype = ctypes.c_int64
        libc.timegm.argtypes = [ctypes.POINTER(_Tm)]
        libc.strftime.restype = ctypes.c_size_t
        libc.strftime.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(_Tm)]
        libc.strptime.restype = ctypes.c_void_p
        libc.strptime.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_Tm)]
        return libc
    except (OSError, AttributeError):
        return None


_LIBC = _load_libc()
_FIELDS = ("tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday")


def _tm_list(tm: _Tm) -> list:
    return [float(_wrap32(tm.tm_year + 1900))] + [float(getattr(tm, f)) for f in _FIELDS[1:]]


def _to_tm(v: Any) -> _Tm | None:
    """jq's jv2tm: the first 8 elements must be numbers (None when they are not)."""
    if not isinstance(v, list) or len(v) < 8 or not all(is_number(x) for x in v[:8]):
        return None
    tm = _Tm()
    for name, x in zip(_FIELDS, v):
        setattr(tm, name, _c_int(x))
    tm.tm_year = _wrap32(tm.tm_year - 1900)
    return tm


def gmtime(v: Any, name: str = "gmtime") -> list:
    if not is_number(v):
        raise JqError(f"{name}() requires numeric inputs")
    secs = _time_t(v)
    if _LIBC is not None:
        tm = _Tm()
        if not _LIBC.gmtime_r(ctypes.byref(ctypes.c_int64(secs)), ctypes.byref(tm)):
            raise JqError("errror converting number of seconds since epoch to datetime")
        out = _tm_list(tm)
    else:
        try:
            st = _time.gmtime(secs)
        except (OverflowError, OSError, ValueError):
            raise JqError("errror converting number of seconds since epoch to datetime") from None
        out = [float(st.tm_year), float(st.tm_mon - 1), float(st.tm_mday), float(st.tm_hour),
               float(st.tm_min), float(st.tm_sec), float((st.tm_wday + 1) % 7), float(st.tm_yday - 1)]
    out[5] += v - math.floor(v) if math.isfinite(v) else 0.0
    return out


def mktime(v: Any) -> float:
    if not isinstance(v, list):
        raise JqError("mktime requires array inputs")
    tm = _to_tm(v) if len(v) >= 6 else None
    if tm is None:
        raise JqError("mktime requires parsed datetime inputs")
    if _LIBC is not None:
        t = _LIBC.timegm(ctypes.byref(tm))
    else:
        try:
            t = calendar.timegm((tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                                 tm.tm_min, tm.tm_sec, 0, 0, 0))
        except (OverflowError, ValueError):
            t = -1
    if t == -1:
        raise JqError("invalid gmtime representation")
    return float(t)


def strftime(v: Any, fmt: Any, name: str = "strftime") -> str:
    if is_number(v):
        v = gmtime(v)
    elif not isinstance(v, list):
        raise JqError(f"{name}/1 requires parsed datetime inputs")
    elif not isinstance(fmt, str):
        raise JqError(f"{name}/1 requires a string format")
    tm = _to_tm(v)
    if tm is None:
        raise JqError(f"{name}/1 requires parsed datetime inputs")
    if not isinstance(fmt, str):  # a number's gmtime, then a format that is not a string
        raise JqError(f"{name}/1 requires a string format")
    raw = fmt.encode("utf-8", "surrogatepass").split(b"\0", 1)[0]
    room = len(raw) + 100  # jq's buffer: what does not fit in it is a failure
    if _LIBC is not None:
        buf = ctypes.create_string_buffer(room)
        n = _LIBC.strftime(buf, room, raw, ctypes.byref(tm))
        text = decode_utf8(buf.raw[:n])
    else:
        try:
            text = _time.strftime(raw.decode("utf-8", "replace"), (
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                (tm.tm_wday - 1) % 7, tm.tm_yday + 1, 0))
        except (ValueError, OverflowError):
            text = ""
        n = len(text.encode()) if len(text.encode()) < room else 0
    if n == 0:
        raise JqError(f"{name}/1: unknown system failure")
    return text


def _weekday(tm: _Tm) -> int:
    """jq's day of the week from the date (Gauss's algorithm, March-based months)."""
    century = int((1900 + tm.tm_year) / 100)  # C's division, toward zero
    year = math.fmod(1900 + tm.tm_year, 100)
    if tm.tm_mon < 2:
        year -= 1
    mon = tm.tm_mon - 1
    if mon < 1:
        mon += 12
    wday = int(math.fmod(tm.tm_mday + math.floor(2.6 * mon - 0.2) + year + math.floor(year / 4.0)
                         + math.floor(century / 4.0) - 2 * century, 7))
    return wday + 7 if wday < 0 else wday


def _yearday(tm: _Tm) -> int:
    starts = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
    year = 1900 + tm.tm_year
    leap = tm.tm_mon > 1 and ((year % 4 == 0 and year % 100 != 0) or year % 400 == 0)
    mon = abs(tm.tm_mon) % 12 if tm.tm_mon > 11 or tm.tm_mon < 0 else tm.tm_mon
    return starts[mon] + int(leap) + tm.tm_mday - 1


def strptime(v: Any, fmt: Any) -> list:
    if not isinstance(v, str) or not isinstance(fmt, str):
        raise JqError("strptime/1 requires string inputs and arguments")
    mismatch = JqError(f"date \"{v}\" does not match format \"{fmt}\"")
    data = v.encode("utf-8", "surrogatepass").split(b"\0", 1)[0]
    raw_fmt = fmt.encode("utf-8", "surrogatepass").split(b"\0", 1)[0]
    if _LIBC is None:
        try:
            st = _time.strptime(data.decode(), raw_fmt.decode())
        except ValueError:
            raise mismatch from None
        return [float(st.tm_year), float(st.tm_mon - 1), float(st.tm_mday), float(st.tm_hour),
                float(st.tm_min), float(st.tm_sec), float((st.tm_wday + 1) % 7), float(st.tm_yday - 1)]
    tm = _Tm()
    tm.tm_wday, tm.tm_yday = 8, 367  # jq's sentinels: what the C library left unset
    buf = ctypes.create_string_buffer(data)
    end = _LIBC.strptime(buf, raw_fmt, ctypes.byref(tm))
    rest = b"" if end is None else data[end - ctypes.addressof(buf):]
    if end is None or (rest and rest[:1] not in b" \t\n\v\f\r"):
        raise mismatch
    if tm.tm_wday == 8 and tm.tm_mday != 0 and 0 <= tm.tm_mon <= 11:
        tm.tm_wday = _weekday(tm)
    if tm.tm_yday == 367 and tm.tm_mday != 0 and 0 <= tm.tm_mon <= 11:
        tm.tm_yday = _yearday(tm)
    out = _tm_list(tm)
    if rest:
        out.append(decode_utf8(rest))
    return out
