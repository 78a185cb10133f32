"""Helpers shared by the file commands: mode strings, owners, sizes, paths."""
from __future__ import annotations

import stat as st

from ...chars import isdigits
from ...vfs import FSError

# ----------------------------------------------------------------------------- modes
_TYPE_CHARS = ((st.S_ISDIR, "d"), (st.S_ISLNK, "l"), (st.S_ISCHR, "c"), (st.S_ISBLK, "b"),
               (st.S_ISFIFO, "p"), (st.S_ISSOCK, "s"))


def mode_string(mode: int) -> str:
    """``drwxr-xr-x`` like ls -l and stat %A (setuid/setgid/sticky included)."""
    kind = "-"
    for test, ch in _TYPE_CHARS:
        if test(mode):
            kind = ch
            break
    chars = []
    for shift, special, special_ch in ((6, st.S_ISUID, "s"), (3, st.S_ISGID, "s"), (0, st.S_ISVTX, "t")):
        bits = (mode >> shift) & 7
        chars.append("r" if bits & 4 else "-")
        chars.append("w" if bits & 2 else "-")
        if mode & special:
            chars.append(special_ch if bits & 1 else special_ch.upper())
        else:
            chars.append("x" if bits & 1 else "-")
    return kind + "".join(chars)


def file_type_name(mode: int, size: int = 1) -> str:
    """stat's %F: ``regular file``, ``regular empty file``, ``directory``, ``symbolic link``..."""
    if st.S_ISREG(mode):
        return "regular file" if size else "regular empty file"
    if st.S_ISDIR(mode):
        return "directory"
    if st.S_ISLNK(mode):
        return "symbolic link"
    if st.S_ISCHR(mode):
        return "character special file"
    if st.S_ISBLK(mode):
        return "block special file"
    if st.S_ISFIFO(mode):
        return "fifo"
    if st.S_ISSOCK(mode):
        return "socket"
    return "weird file"


# ----------------------------------------------------------------------------- owners
def _read_db(fs, path: str) -> dict[int, str]:
    names: dict[int, str] = {}
    try:
        text = fs.read_text(path)
    except (FSError, OSError):
        return names
    for line in text.splitlines():
        fields = line.split(":")
        if len(fields) >= 3 and isdigits(fields[2]):
            names.setdefault(int(fields[2]), fields[0])
    return names


def user_name(fs, uid: int) -> str:
    """Name of ``uid`` from the sandbox's /etc/passwd (the number when unknown)."""
    return _read_db(fs, "/etc/passwd").get(uid, str(uid))


def group_name(fs, gid: int) -> str:
    return _read_db(fs, "/etc/group").get(gid, str(gid))


def user_id(fs, name: str) -> int | None:
    """uid of a user name or number, None when unknown."""
    if isdigits(name):
        return int(name)
    for uid, n in _read_db(fs, "/etc/passwd").items():
        if n == name:
            return uid
    return None


def group_id(fs, name: str) -> int | None:
    if isdigits(name):
        return int(name)
    for gid, n in _read_db(fs, "/etc/group").items():
        if n == name:
            return gid
    return None


# ----------------------------------------------------------------------------- sizes
def human_size(n: float, si: bool = False) -> str:
    """GNU ``-h`` rendering: 1023, 1.0K, 9.9K, 10K, 1.5M (rounded up, like ls/du/df)."""
    import math

    base = 1000 if si else 1024
    if n < base:
        return str(int(n))
    units = "kMGTPE" if si else "KMGTPE"
    value = float(n)
    for unit in units:
        value /= base
        if value < base or unit == units[-1]:
            if value < 10:
                shown = math.ceil(value * 10 - 1e-9) / 10
                if shown >= 10:
                    return f"{int(shown)}{unit}"
                return f"{shown:.1f}{unit}"
            shown = math.ceil(value - 1e-9)
            if shown >= base and unit != units[-1]:
                continue
            return f"{int(shown)}{unit}"
    return str(int(n))


def parse_size(text: str) -> int | None:
    """``10``, ``10K``, ``1M``, ``2KB``, ``3KiB`` (truncate, du thresholds); None if invalid."""
    import re

    m = re.fullmatch(r"([0-9]+)([KMGTPEZY]?)(iB|B)?", text, re.I)
    if not m:
        return None
    num, unit, suffix = int(m.group(1)), m.group(2).upper(), m.group(3)
    if not unit:
        return None if suffix else num
    power = "KMGTPEZY".index(unit) + 1
    base = 1000 if suffix == "B" else 1024
    return num * base ** power


def join_path(base: str, name: str) -> str:
    """``base/name`` without doubling a trailing slash (``/`` + ``x`` -> ``/x``)."""
    if base.endswith("/"):
        return base + name
    return base + "/" + name


# ----------------------------------------------------------------------------- time
def local_tz(env: dict | None):
    """The tzinfo named by ``TZ`` in the command's environment (UTC when unset/unknown)."""
    import datetime as _dt

    name = (env or {}).get("TZ", "") or "UTC"
    if name.startswith(":"):
        name = name[1:]
    if name in ("UTC", "UTC0", "GMT", "Z", "UTC+0", "GMT0"):
        return _dt.timezone.utc
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except Exception:
        return _dt.timezone.utc


def local_datetime(ts: float, env: dict | None):
    import datetime as _dt

    return _dt.datetime.fromtimestamp(ts, local_tz(env))


def full_timestamp(ts: float, env: dict | None) -> str:
    """``2024-01-02 03:04:05.123456789 +0000`` (stat %y, ls --full-time)."""
    dt = local_datetime(ts, env)
    nanos = int(round((ts - int(ts)) * 1e9)) if ts >= 0 else 0
    if nanos >= 1_000_000_000:
        nanos = 999_999_999
    return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{nanos:09d} " + dt.strftime("%z")


# ----------------------------------------------------------------------------- modes (input)
def parse_mode(text: str, mode: int, is_dir: bool = False, umask: int = 0o022) -> int | None:
    """Apply a chmod-style mode (octal or symbolic ``u+x,go-w,a=r``) to ``mode``'s permission
    bits; returns the new bits (0o7777 range) or None when ``text`` is invalid."""
    import re

    mode &= 0o7777
    if text and all(c in "01234567" for c in text):
        value = int(text, 8)
        if value > 0o7777:
            return None
        if is_dir and len(text) <= 4:
            # GNU keeps a directory's set-id bits unless a 5-digit mode (00755) clears them
            value |= mode & (st.S_ISUID | st.S_ISGID)
        return value
    if not text:
        return None
    for clause in text.split(","):
        m = re.fullmatch(r"([ugoa]*)((?:[-+=](?:[ugo]|[rwxXst]*))+)", clause)
        if not m:
            return None
        who = m.group(1)
        mask = 0
        for w in who or "a":
            mask |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[w]
        if not who:
            mask = 0o7777 & ~umask
        for op, perms in re.findall(r"([-+=])([ugo]|[rwxXst]*)", m.group(2)):
            bits = 0
            if perms in ("u", "g", "o"):
                shift = {"u": 6, "g": 3, "o": 0}[perms]
                trio = (mode >> shift) & 7
                bits = trio << 6 | trio << 3 | trio
            else:
                for p in perms:
                    if p == "r":
                        bits |= 0o444
                    elif p == "w":
                        bits |= 0o222
                    elif p == "x":
                        bits |= 0o111
                    elif p == "X":
                        if is_dir or mode & 0o111:
                            bits |= 0o111
                    elif p == "s":
                        bits |= st.S_ISUID | st.S_ISGID
                    elif p == "t":
                        bits |= st.S_ISVTX
            bits &= mask if who else (mask | (0o7000 & bits))
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                clear = 0
                for w in who or "a":
                    clear |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[w]
                if not who:
                    clear = 0o7777
                if is_dir:
                    clear &= ~(st.S_ISUID | st.S_ISGID) | (bits & 0o6000)
                mode = (mode & ~clear) | bits
    return mode & 0o7777


# ----------------------------------------------------------------------------- dates (input)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
_UNITS = {"sec": 1, "second": 1, "min": 60, "minute": 60, "hour": 3600, "day": 86400,
          "week": 604800, "fortnight": 1209600, "month": 0, "year": 0}


_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def parse_date(text: str, env: dict | None = None, now: float | None = None) -> float | None:
    """The common ``date -d``/``touch -d`` forms, items in any order: ``@EPOCH``, ``now``,
    ``today``, ``yesterday``, ``tomorrow``, ``YYYY-MM-DD[ T]HH:MM[:SS[.frac]][Z|+hh:mm]``,
    ``YYYYMMDD``, ``MM/DD/YYYY``, ``Jan 2 2020``, ``2 Jan 2020``, ``Thu, 02 Jan 2020``,
    ``10am``, ``3:30pm``, weekdays (``monday``, ``next friday``), relative ``[+-]N unit[s]
    [ago]``, ``next/last unit``. Returns a POSIX timestamp, or None when not understood."""
    import datetime as dt
    import re
    import time as _time

    tz = local_tz(env)
    now = _time.time() if now is None else now
    s = " ".join(text.strip().lower().split())
    if s.startswith("@"):
        try:
            return float(s[1:])
        except ValueError:
            return None
    base = dt.datetime.fromtimestamp(now, tz)
    date_part: dt.date | None = None
    time_part: tuple[int, int, int, float] | None = None
    zone = None
    weekday: tuple[int, int] | None = None  # (weekday, ordinal: 0 this/next-coming, 1 next, -1 last)
    offset_secs = 0.0
    offset_months = 0
    offset_days = 0
    rest = s

    def take(pattern: str):
        nonlocal rest
        m = re.match(pattern + r"(?:[\s,]+|$|(?=z\b|[+-][0-9]))", rest)
        if m:
            rest = rest[m.end():]
        return m

    for _ in range(32):
        if not rest:
            break
        if date_part is None:
            m = take(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:t([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?)?")
            if m:
                date_part = _mkdate(int(m.group(1)), int(m.group(2)), int(m.group(3)))
                if date_part is None:
                    return None
                if m.group(4):
                    time_part = (int(m.group(4)), int(m.group(5)), int(m.group(6) or 0),
                                 float(m.group(7) or 0))
                continue
            m = take(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{2,4})")
            if m:
                year = int(m.group(3))
                year += 2000 if year < 69 else 1900 if year < 100 else 0
                date_part = _mkdate(year, int(m.group(1)), int(m.group(2)))
                if date_part is None:
                    return None
                continue
            m = take(r"([0-9]{8})")
            if m:
                v = m.group(1)
                date_part = _mkdate(int(v[:4]), int(v[4:6]), int(v[6:]))
                if date_part is None:
                    return None
                continue
            m = take(_MONTH_RE + r"\.?\s+([0-9]{1,2})(?:,?\s+([0-9]{4}))?")
            if m:
                date_part = _mkdate(int(m.group(3) or base.year), _MONTHS.index(m.group(1)) + 1,
                                    int(m.group(2)))
                if date_part is None:
                    return None
                continue
            m = take(r"([0-9]{1,2})\s+" + _MONTH_RE + r"\.?(?:\s+([0-9]{4}))?")
            if m:
                date_part = _mkdate(int(m.group(3) or base.year), _MONTHS.index(m.group(2)) + 1,
                                    int(m.group(1)))
                if date_part is None:
                    return None
                continue
        if time_part is None:
            m = take(r"([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(\.[0-9]+)?)?\s*(am|pm|a\.m\.|p\.m\.)?")
            if not m:
                m2 = take(r"([0-9]{1,2})\s*(am|pm|a\.m\.|p\.m\.)")
                if m2:
                    hour = int(m2.group(1))
                    if not 1 <= hour <= 12:
                        return None
                    time_part = (hour % 12 + (12 if m2.group(2).startswith("p") else 0), 0, 0, 0.0)
                    continue
            if m:
                hour = int(m.group(1))
                if m.group(5):
                    if not 1 <= hour <= 12:
                        return None
                    hour = hour % 12 + (12 if m.group(5).startswith("p") else 0)
                time_part = (hour, int(m.group(2)), int(m.group(3) or 0), float(m.group(4) or 0))
                continue
        if zone is None:
            m = take(r"(z|utc|gmt|[+-][0-9]{2}:?[0-9]{2})")
            if m:
                z = m.group(1)
                if z in ("z", "utc", "gmt"):
                    zone = dt.timezone.utc
                else:
                    sign = -1 if z[0] == "-" else 1
                    digits = z[1:].replace(":", "")
                    zone = dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
                continue
        m = take(r"(?:(next|last|this)\s+)?(monday|mon|tuesday|tues|tue|wednesday|wed|thursday|"
                 r"thurs|thur|thu|friday|fri|saturday|sat|sunday|sun)\.?")
        if m:
            ordinal = {"next": 1, "last": -1}.get(m.group(1) or "", 0)
            weekday = (_WEEKDAYS.index(m.group(2)[:3]), ordinal)
            continue
        if take(r"(now|today)"):
            continue
        if take(r"yesterday"):
            offset_days -= 1
            continue
        if take(r"tomorrow"):
            offset_days += 1
            continue
        m = take(r"([+-]?\s*[0-9]+)?\s*(sec|second|min|minute|hour|day|week|fortnight|month|year)s?(\s+ago)?")
        if m:
            n = int(m.group(1).replace(" ", "")) if m.group(1) else 1
            if m.group(3):
                n = -n
            unit = m.group(2)
            if unit == "month":
                offset_months += n
            elif unit == "year":
                offset_months += 12 * n
            else:
                offset_secs += n * _UNITS[unit]
            continue
        m = take(r"(next|last)\s+(sec|second|min|minute|hour|day|week|month|year)")
        if m:
            n = 1 if m.group(1) == "next" else -1
            unit = m.group(2)
            if unit in ("month", "year"):
                offset_months += n * (12 if unit == "year" else 1)
            else:
                offset_secs += n * _UNITS[unit]
            continue
        return None
    if rest:
        return None
    tzinfo = zone or tz
    if date_part is None and time_part is None and weekday is None:
        result = dt.datetime.fromtimestamp(now, tzinfo)
    else:
        day = date_part or dt.datetime.fromtimestamp(now, tzinfo).date()
        if weekday is not None and date_part is None:
            wd, ordinal = weekday
            ahead = (wd - day.weekday()) % 7
            if ordinal == 1 and ahead == 0:
                ahead = 7
            elif ordinal == -1:
                ahead = -((day.weekday() - wd) % 7 or 7)
            day = day + dt.timedelta(days=ahead)
        h, mi, sec, frac = time_part or (0, 0, 0, 0.0)
        if not (0 <= h < 24 and 0 <= mi < 60 and 0 <= sec < 61):
            return None
        result = dt.datetime(day.year, day.month, day.day, h, mi, min(sec, 59), tzinfo=tzinfo)
        result += dt.timedelta(seconds=frac)
    if offset_months:
        total = result.year * 12 + result.month - 1 + offset_months
        year, month = divmod(total, 12)
        day_n = result.day
        while True:
            try:
                result = result.replace(year=year, month=month + 1, day=day_n)
                break
            except ValueError:
                day_n -= 1
    if offset_days:
        result += dt.timedelta(days=offset_days)
    return result.timestamp() + offset_secs


def _mkdate(year: int, month: int, day: int):
    import datetime as dt

    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def parse_touch_stamp(text: str, env: dict | None = None) -> float | None:
    """``touch -t [[CC]YY]MMDDhhmm[.ss]``."""
    import datetime as dt
    import re

    m = re.fullmatch(r"([0-9]{8}|[0-9]{10}|[0-9]{12})(?:\.([0-9]{2}))?", text)
    if not m:
        return None
    digits, secs = m.group(1), int(m.group(2) or 0)
    tz = local_tz(env)
    if len(digits) == 8:
        year = dt.datetime.now(tz).year
    elif len(digits) == 10:
        yy = int(digits[:2])
        year = 2000 + yy if yy < 69 else 1900 + yy
        digits = digits[2:]
    else:
        year = int(digits[:4])
        digits = digits[4:]
    try:
        return dt.datetime(year, int(digits[0:2]), int(digits[2:4]), int(digits[4:6]),
                           int(digits[6:8]), secs if secs < 60 else 59, tzinfo=tz).timestamp()
    except ValueError:
        return None


def umask_of(ctx) -> int:
    """The shell's umask for this command (the VFS default when run outside a shell)."""
    value = (getattr(ctx, "extra", None) or {}).get("umask")
    return ctx.fs.umask if value is None else value


def utf8_locale(env: dict | None) -> bool:
    """Whether LC_ALL / LC_CTYPE / LANG (first one set) names a UTF-8 locale."""
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = (env or {}).get(var)
        if value:
            return "utf-8" in value.lower() or "utf8" in value.lower()
    return False
