"""Dates and times for the commands: the time zone TZ names, GNU date's free-form date
parser (date -d, touch -d, find -newermt), its strftime (date +FORMAT, diff's labels), touch's
-t stamps, and the timestamps ls/stat/find print."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from importlib import resources
from zoneinfo import ZoneInfo

from ...chars import isdigits

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


class DateError(ValueError):
    pass


# ----------------------------------------------------------------------------- time zones

class FixedZone(tzinfo):
    def __init__(self, offset: timedelta, name: str) -> None:
        self.offset = offset
        self.name = name

    def utcoffset(self, dt):
        return self.offset

    def dst(self, dt):
        return timedelta(0)

    def tzname(self, dt):
        return self.name


UTC = FixedZone(timedelta(0), "UTC")
_POSIX_TZ = re.compile(r"^:?([A-Za-z]{3,}|<[^>]+>)([+-]?)([0-9]{1,2})(?::([0-9]{2}))?(?::([0-9]{2}))?$")
#: TZ with a daylight saving part: STD OFFSET DST [OFFSET] [,START[/TIME],END[/TIME]]
_HMS = r"[+-]?[0-9]{1,3}(?::[0-9]{1,2}){0,2}"
_POSIX_DST_TZ = re.compile(rf"""^:?(?P<std>[A-Za-z]{{3,}}|<[^>]+>)(?P<off>{_HMS})
    (?P<dst>[A-Za-z]{{3,}}|<[^>]+>)(?P<dstoff>{_HMS})?
    (?:,(?P<start>[^,/]+)(?:/(?P<stime>{_HMS}))?,(?P<end>[^,/]+)(?:/(?P<etime>{_HMS}))?)?$""", re.X)
_RULE_DATE = re.compile(r"^(?:J(?P<julian>[0-9]{1,3})|(?P<day>[0-9]{1,3})"
                        r"|M(?P<m>[0-9]{1,2})\.(?P<w>[1-5])\.(?P<d>[0-6]))$")


def _posix_seconds(text: str) -> int:
    """[+-]hh[:mm[:ss]] as seconds."""
    sign = -1 if text.startswith("-") else 1
    parts = [int(x) for x in text.lstrip("+-").split(":")] + [0, 0]
    return sign * (parts[0] * 3600 + parts[1] * 60 + parts[2])


class PosixZone(tzinfo):
    """A POSIX TZ with daylight saving time (EET-2EEST,M3.5.0/3,M10.5.0/4): standard and
    daylight offsets and the yearly rules that switch between them, as glibc reads them (no
    rule: the US rules, M3.2.0,M11.1.0; no daylight offset: an hour ahead of standard)."""

    def __init__(self, std: str, std_offset: int, dst: str, dst_offset: int,
                 start: tuple, end: tuple) -> None:
        self.std_name, self.dst_name = std, dst
        self.std_offset = timedelta(seconds=std_offset)
        self.dst_offset = timedelta(seconds=dst_offset)
        self.start, self.end = start, end  # (kind, a, b, c, seconds after local midnight)

    @staticmethod
    def _rule_day(rule: tuple, year: int) -> datetime:
        kind, a, b, c, secs = rule
        if kind == "J":  # 1..365, February 29 never counted
            day = datetime(year, 1, 1) + timedelta(days=a - 1 + (a >= 60 and _leap(year)))
        elif kind == "n":  # 0..365, February 29 counted
            day = datetime(year, 1, 1) + timedelta(days=a)
        else:  # M month.week.weekday (0 Sunday), week 5 the last
            first = datetime(year, a, 1)
            day = first + timedelta(days=(c - (first.weekday() + 1) % 7) % 7 + 7 * (b - 1))
            while day.month != a:
                day -= timedelta(days=7)
        return day + timedelta(seconds=secs)

    def _in_dst(self, utc: datetime) -> bool:
        """Whether a naive UTC time is in daylight saving time."""
        year = utc.year
        start = self._rule_day(self.start, year) - self.std_offset
        end = self._rule_day(self.end, year) - self.dst_offset
        if start < end:
            return start <= utc < end
        return not end <= utc < start  # the southern hemisphere: DST spans the new year

    def fromutc(self, dt: datetime) -> datetime:
        utc = dt.replace(tzinfo=None)
        dst = self._in_dst(utc)
        local = utc + (self.dst_offset if dst else self.std_offset)
        # the second time a wall-clock hour comes round (DST ends) is fold 1
        fold = int(not dst and self._in_dst(local - self.dst_offset))
        return local.replace(tzinfo=self, fold=fold)

    def _offset_of_local(self, dt: datetime) -> timedelta:
        local = dt.replace(tzinfo=None, fold=0)
        as_dst = self._in_dst(local - self.dst_offset)
        as_std = not self._in_dst(local - self.std_offset)
        if as_dst and as_std:  # repeated: fold 0 is the first (daylight) time
            return self.std_offset if dt.fold else self.dst_offset
        if as_dst or as_std:
            return self.dst_offset if as_dst else self.std_offset
        # skipped by the change to daylight time: fold 0 reads it with the offset before
        return self.dst_offset if dt.fold else self.std_offset

    def utcoffset(self, dt):
        return None if dt is None else self._offset_of_local(dt)

    def dst(self, dt):
        return None if dt is None else self._offset_of_local(dt) - self.std_offset

    def tzname(self, dt):
        if dt is None:
            return self.std_name
        return self.dst_name if self._offset_of_local(dt) == self.dst_offset != self.std_offset else self.std_name


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _posix_rule(text: str, time_text: str | None) -> tuple | None:
    m = _RULE_DATE.match(text)
    if not m:
        return None
    secs = _posix_seconds(time_text) if time_text else 7200
    if m.group("julian") is not None:
        n = int(m.group("julian"))
        return ("J", n, 0, 0, secs) if 1 <= n <= 365 else None
    if m.group("day") is not None:
        n = int(m.group("day"))
        return ("n", n, 0, 0, secs) if n <= 365 else None
    month, week, day = int(m.group("m")), int(m.group("w")), int(m.group("d"))
    return ("M", month, week, day, secs) if 1 <= month <= 12 else None


def _posix_dst_zone(tz: str) -> tzinfo | None:
    m = _POSIX_DST_TZ.match(tz)
    if not m:
        return None
    std_offset = -_posix_seconds(m.group("off"))  # POSIX offsets are west-positive
    dst_offset = -_posix_seconds(m.group("dstoff")) if m.group("dstoff") else std_offset + 3600
    if m.group("start"):
        start, end = _posix_rule(m.group("start"), m.group("stime")), _posix_rule(m.group("end"), m.group("etime"))
    else:
        start, end = ("M", 3, 2, 0, 7200), ("M", 11, 1, 0, 7200)
    if start is None or end is None:
        return None
    return PosixZone(m.group("std").strip("<>"), std_offset, m.group("dst").strip("<>"), dst_offset, start, end)


@lru_cache(maxsize=1)
def _packaged_keys() -> frozenset[str]:
    try:
        return frozenset(resources.files("tzdata").joinpath("zones").read_text().split())
    except (ModuleNotFoundError, OSError):
        return frozenset()


@lru_cache(maxsize=64)
def packaged_zone(key: str) -> tzinfo | None:
    """The IANA zone ``key`` from the tzdata package (a dependency), or None. Never
    ``ZoneInfo(key)``: it reads the host's /usr/share/zoneinfo first, so a zone would
    differ by host and TZ could probe which host files exist (red team, D10)."""
    if key not in _packaged_keys():
        return None
    try:
        with resources.files("tzdata.zoneinfo").joinpath(*key.split("/")).open("rb") as data:
            return ZoneInfo.from_file(data, key=key)
    except (OSError, ValueError):
        return None


def _zone_named(tz: str | None) -> tzinfo:
    """The zone TZ names: an IANA key, a POSIX 'NAME[+-]H[:MM]', else UTC (like glibc)."""
    if not tz:
        return UTC
    key = tz[1:] if tz.startswith(":") else tz
    zone = packaged_zone(key)
    if zone is not None:
        return zone
    rules = _posix_dst_zone(tz)
    if rules is not None:
        return rules
    m = _POSIX_TZ.match(tz)
    if m:
        name, sign, hours, minutes, seconds = m.groups()
        off = timedelta(hours=int(hours), minutes=int(minutes or 0), seconds=int(seconds or 0))
        # POSIX offsets are west-positive
        return FixedZone(off if sign == "-" else -off, name.strip("<>"))
    return FixedZone(timedelta(0), re.sub(r"[^A-Za-z].*$", "", key) or "UTC")


# ----------------------------------------------------------------------------- formatting

def _iso_week(d: datetime) -> tuple[int, int]:
    year, week, _ = d.isocalendar()
    return year, week


def _offset_text(d: datetime, colons: int) -> str:
    off = d.utcoffset() or timedelta(0)
    total = int(off.total_seconds())
    sign = "-" if total < 0 else "+"
    total = abs(total)
    h, rem = divmod(total, 3600)
    m, s = divmod(rem, 60)
    if colons == 0:
        return f"{sign}{h:02d}{m:02d}"
    if colons == 1:
        return f"{sign}{h:02d}:{m:02d}"
    if colons == 2:
        return f"{sign}{h:02d}:{m:02d}:{s:02d}"
    # %:::z: minimal precision
    if s:
        return f"{sign}{h:02d}:{m:02d}:{s:02d}"
    if m:
        return f"{sign}{h:02d}:{m:02d}"
    return f"{sign}{h:02d}"


def format_date(fmt: str, d: datetime, nanos: int) -> str:
    """GNU date's strftime, including flags, widths, %N, %q, %:z."""
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        ch = fmt[i]
        if ch != "%":
            out.append(ch)
            i += 1
            continue
        j = i + 1
        flags = ""
        while j < n and fmt[j] in "-_0^#+":
            flags += fmt[j]
            j += 1
        width_text = ""
        while j < n and isdigits(fmt[j]):
            width_text += fmt[j]
            j += 1
        colons = 0
        while j < n and fmt[j] == ":":
            colons += 1
            j += 1
        while j < n and fmt[j] in "EO":
            j += 1
        if j >= n:
            out.append(fmt[i:])
            break
        conv = fmt[j]
        if colons and conv != "z":
            out.append(fmt[i:j + 1])
            i = j + 1
            continue
        out.append(_convert(conv, flags, int(width_text) if width_text else None, colons, d, nanos,
                            fmt[i:j + 1]))
        i = j + 1
    return "".join(out)


def _convert(conv, flags, width, colons, d: datetime, nanos: int, raw: str) -> str:
    numeric = None  # (value, default width, default pad)
    text = None
    if conv == "%":
        text = "%"
    elif conv == "a":
        text = DAYS[d.weekday()][:3]
    elif conv == "A":
        text = DAYS[d.weekday()]
    elif conv in "bh":
        text = MONTHS[d.month - 1][:3]
    elif conv == "B":
        text = MONTHS[d.month - 1]
    elif conv == "c":
        text = format_date("%a %b %e %H:%M:%S %Y", d, nanos)
    elif conv == "C":
        numeric = (d.year // 100, 2, "0")
    elif conv == "d":
        numeric = (d.day, 2, "0")
    elif conv == "D":
        text = format_date("%m/%d/%y", d, nanos)
    elif conv == "e":
        numeric = (d.day, 2, " ")
    elif conv == "F":
        text = format_date("%Y-%m-%d", d, nanos)
        if width is not None and width > len(text):
            text = (" " if "_" in flags else "0") * (width - len(text)) + text if "-" not in flags else text
        return text
    elif conv == "g":
        numeric = (_iso_week(d)[0] % 100, 2, "0")
    elif conv == "G":
        numeric = (_iso_week(d)[0], 4, "0")
    elif conv == "H":
        numeric = (d.hour, 2, "0")
    elif conv == "I":
        numeric = ((d.hour % 12) or 12, 2, "0")
    elif conv == "j":
        numeric = (d.timetuple().tm_yday, 3, "0")
    elif conv == "k":
        numeric = (d.hour, 2, " ")
    elif conv == "l":
        numeric = ((d.hour % 12) or 12, 2, " ")
    elif conv == "m":
        numeric = (d.month, 2, "0")
    elif conv == "M":
        numeric = (d.minute, 2, "0")
    elif conv == "n":
        text = "\n"
    elif conv == "N":
        digits = f"{nanos:09d}"
        if width is not None:
            digits = digits[:width] if width <= 9 else digits + "0" * (width - 9)
        return digits
    elif conv == "p":
        text = "AM" if d.hour < 12 else "PM"
        if "#" in flags:
            return text.lower()
    elif conv == "P":
        text = "am" if d.hour < 12 else "pm"
    elif conv == "q":
        numeric = ((d.month - 1) // 3 + 1, 1, "0")
    elif conv == "r":
        text = format_date("%I:%M:%S %p", d, nanos)
    elif conv == "R":
        text = format_date("%H:%M", d, nanos)
    elif conv == "s":
        numeric = (int(d.timestamp()), 1, "0")
    elif conv == "S":
        numeric = (d.second, 2, "0")
    elif conv == "t":
        text = "\t"
    elif conv == "T":
        text = format_date("%H:%M:%S", d, nanos)
    elif conv == "u":
        numeric = (d.isoweekday(), 1, "0")
    elif conv == "U":
        numeric = (int(d.strftime("%U")), 2, "0")
    elif conv == "V":
        numeric = (_iso_week(d)[1], 2, "0")
    elif conv == "w":
        numeric = (d.isoweekday() % 7, 1, "0")
    elif conv == "W":
        numeric = (int(d.strftime("%W")), 2, "0")
    elif conv == "x":
        text = format_date("%m/%d/%y", d, nanos)
    elif conv == "X":
        text = format_date("%H:%M:%S", d, nanos)
    elif conv == "y":
        numeric = (d.year % 100, 2, "0")
    elif conv == "Y":
        numeric = (d.year, 4, "0")  # gnulib pads %Y to 4 digits (0001)
    elif conv == "z":
        text = _offset_text(d, colons)
    elif conv == "Z":
        text = d.tzname() or ""
        if "#" in flags:
            return text.lower()
    else:
        return raw
    if numeric is not None:
        value, default_width, pad = numeric
        if "-" in flags:
            return str(value)
        if "_" in flags:
            pad = " "
        elif "0" in flags:
            pad = "0"
        w = width if width is not None else default_width
        digits = str(abs(value))
        sign = "-" if value < 0 else ""
        if pad == " ":
            return (sign + digits).rjust(w)
        return sign + digits.rjust(w - len(sign), "0")
    if "^" in flags:
        text = text.upper()
    elif "#" in flags:
        text = text.swapcase() if not text.isupper() else text.lower()
    if width is not None and width > len(text) and "-" not in flags:
        text = text.rjust(width, "0" if "0" in flags else " ")
    return text


# ----------------------------------------------------------------------------- parsing -d

_MONTH_WORDS = {m[:3].lower(): i + 1 for i, m in enumerate(MONTHS)}
_MONTH_WORDS.update({m.lower(): i + 1 for i, m in enumerate(MONTHS)})
_MONTH_WORDS["sept"] = 9
_DAY_WORDS = {d[:3].lower(): i for i, d in enumerate(DAYS)}
_DAY_WORDS.update({d.lower(): i for i, d in enumerate(DAYS)})
_DAY_WORDS.update({"tues": 1, "wednes": 2, "thur": 3, "thurs": 3})
_UNITS = {"year": ("months", 12), "month": ("months", 1), "fortnight": ("seconds", 14 * 86400),
          "week": ("seconds", 7 * 86400), "day": ("seconds", 86400), "hour": ("seconds", 3600),
          "minute": ("seconds", 60), "min": ("seconds", 60), "second": ("seconds", 1),
          "sec": ("seconds", 1)}
_ORDINALS = {"last": -1, "this": 0, "next": 1, "first": 1, "third": 3, "fourth": 4, "fifth": 5,
             "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
             "twelfth": 12}
_ZONE_WORDS = {"utc": 0, "gmt": 0, "z": 0, "ut": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5,
               "mst": -7, "mdt": -6, "pst": -8, "pdt": -7, "cet": 1, "cest": 2, "bst": 1}

_TOKEN = re.compile(r"""
    (?P<iso>[0-9]{4}-[0-9]{1,2}-[0-9]{1,2})(?:T(?=[0-9]))?
  | (?P<time>[0-9]{1,2}:[0-9]{1,2}(?::[0-9]{1,2}(?:[.,][0-9]+)?)?)
  | (?P<zone>[+-][0-9]{2}:?[0-9]{2}\b)
  | (?P<slash>[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}|[0-9]{1,2}/[0-9]{1,2}(?:/[0-9]{2,4})?)
  | (?P<num>(?:[+-]\s*)?[0-9]+)
  | (?P<word>[A-Za-z]+\.?)
  | (?P<comma>,)
  | (?P<space>\s+)
""", re.X)


@dataclass
class _Parsed:
    date: tuple[int, int, int] | None = None
    time: tuple[int, int, int, int] | None = None  # h, m, s, ns
    zone: timedelta | None = None
    weekday: tuple[int, int] | None = None  # (ordinal, weekday)
    months: int = 0
    seconds: int = 0
    days: int = 0
    midnight_base: bool = False  # today/yesterday/tomorrow keep the time; weekday resets it
    items: list = field(default_factory=list)


def parse_date(text: str, now: datetime, zone: tzinfo) -> tuple[datetime, int | None]:
    """GNU-style free-form date -> (aware datetime, nanoseconds, None when the text is only
    relative to now so the current nanoseconds carry over)."""
    s = text.strip()
    m = re.fullmatch(r"@\s*([+-]?[0-9]+)(?:[.,]([0-9]+))?", s)
    if m:
        secs = int(m.group(1))
        frac = (m.group(2) or "")[:9].ljust(9, "0")
        try:
            return datetime.fromtimestamp(secs, zone), int(frac)
        except (OverflowError, OSError, ValueError):
            raise DateError(text) from None
    tokens = []
    pos = 0
    while pos < len(s):
        tm = _TOKEN.match(s, pos)
        if not tm:
            raise DateError(text)
        pos = tm.end()
        kind = tm.lastgroup
        if kind in ("space", "comma"):
            continue
        tokens.append((kind, tm.group(kind).replace(" ", "")))
    p = _Parsed()
    i = 0
    nanos = 0

    def set_date(y, mo, d):
        if p.date is not None:
            raise DateError(text)
        p.date = (y, mo, d)

    def set_date_year(y):
        p.date = (y, p.date[1], p.date[2])

    year_defaulted = False

    def set_time(h, mi, sec, ns=0):
        if p.time is not None:
            raise DateError(text)
        p.time = (h, mi, sec, ns)

    while i < len(tokens):
        kind, val = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else (None, None)
        low = val.lower().rstrip(".") if kind == "word" else val
        if kind == "iso":
            y, mo, d = (int(x) for x in val.split("-"))
            set_date(y, mo, d)
        elif kind == "time":
            parts = re.split(r"[:.,]", val)
            h, mi = int(parts[0]), int(parts[1])
            sec = int(parts[2]) if len(parts) > 2 else 0
            ns = int(parts[3][:9].ljust(9, "0")) if len(parts) > 3 else 0
            if nxt[0] == "word" and nxt[1].lower().replace(".", "") in ("am", "pm"):
                h = _meridian(h, nxt[1].lower().replace(".", ""), text)
                i += 1
            if h > 23 or mi > 59 or sec > 60:
                raise DateError(text)
            set_time(h, mi, sec, ns)
            nanos = ns
            if nxt[0] == "num" and nxt[1][0] in "+-":
                p.zone = _hhmm_offset(nxt[1], text)  # 3:4:5 +6: a zone offset in hours
                i += 1
        elif kind == "zone":
            digits = val[1:].replace(":", "")
            off = timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
            p.zone = off if val[0] == "+" else -off
        elif kind == "slash":
            parts = [int(x) for x in val.split("/")]
            if len(val.split("/")[0]) == 4:
                set_date(parts[0], parts[1], parts[2])
            else:
                mo, d = parts[0], parts[1]
                y = parts[2] if len(parts) > 2 else now.year
                if len(parts) > 2 and y < 100:
                    y += 2000 if y < 69 else 1900
                set_date(y, mo, d)
                year_defaulted = len(parts) == 2
        elif kind == "num":
            number = int(val)
            if nxt[0] == "word" and _unit_of(nxt[1]) is not None:
                i += 1
                _add_relative(p, number, nxt[1], tokens, i)
                if i + 1 < len(tokens) and tokens[i + 1][1].lower() == "ago":
                    i += 1
            elif nxt[0] == "word" and nxt[1].lower().replace(".", "") in ("am", "pm"):
                set_time(_meridian(number, nxt[1].lower().replace(".", ""), text), 0, 0)
                i += 1
            elif nxt[0] == "word" and nxt[1].lower().rstrip(".") in _MONTH_WORDS:
                # 15 Jan [2024]
                mo = _MONTH_WORDS[nxt[1].lower().rstrip(".")]
                i += 1
                y = now.year
                if i + 1 < len(tokens) and tokens[i + 1][0] == "num" and val[0] not in "+-":
                    y = int(tokens[i + 1][1])
                    i += 1
                set_date(y, mo, number)
            elif len(val) == 4 and isdigits(val) and p.date is not None and year_defaulted:
                # "Wed Dec  2 17:49:55 UTC 2026": the year may follow the time (date's output)
                set_date_year(int(val))
                year_defaulted = False
            elif len(val) == 8 and isdigits(val) and p.date is None:
                set_date(int(val[:4]), int(val[4:6]), int(val[6:]))
            elif isdigits(val) and len(val) == 4 and p.date is not None and p.time is None:
                set_time(int(val[:2]), int(val[2:]), 0)
            elif isdigits(val) and len(val) == 4 and p.date is None and p.time is not None:
                set_date(int(val), 1, 1)
            elif p.date is not None and len(val) == 4 and p.time is not None:
                raise DateError(text)
            else:
                raise DateError(text)
        elif kind == "word":
            if low in ("now",):
                pass
            elif low == "today":
                pass
            elif low == "yesterday":
                p.days -= 1
            elif low == "tomorrow":
                p.days += 1
            elif low in ("midnight",):
                set_time(0, 0, 0)
            elif low == "noon":
                set_time(12, 0, 0)
            elif low in _ORDINALS:
                ordinal = _ORDINALS[low]
                if nxt[0] == "word" and _unit_of(nxt[1]) is not None:
                    i += 1
                    _add_relative(p, ordinal, nxt[1], tokens, i)
                    if i + 1 < len(tokens) and tokens[i + 1][1].lower() == "ago":
                        i += 1
                elif nxt[0] == "word" and nxt[1].lower().rstrip(".,") in _DAY_WORDS:
                    i += 1
                    p.weekday = (ordinal, _DAY_WORDS[nxt[1].lower().rstrip(".,")])
                else:
                    raise DateError(text)
            elif low in _DAY_WORDS:
                p.weekday = (0, _DAY_WORDS[low])
            elif low in _MONTH_WORDS:
                mo = _MONTH_WORDS[low]
                if nxt[0] == "num" and isdigits(nxt[1]):
                    d = int(nxt[1])
                    i += 1
                    y = now.year
                    year_defaulted = True
                    if i + 1 < len(tokens) and tokens[i + 1][0] == "num" and isdigits(tokens[i + 1][1]) \
                            and len(tokens[i + 1][1]) == 4:
                        y = int(tokens[i + 1][1])
                        year_defaulted = False
                        i += 1
                    set_date(y, mo, d)
                else:
                    raise DateError(text)
            elif _unit_of(val) is not None:
                _add_relative(p, 1, val, tokens, i)
                if i + 1 < len(tokens) and tokens[i + 1][1].lower() == "ago":
                    i += 1
            elif low in _ZONE_WORDS:
                p.zone = timedelta(hours=_ZONE_WORDS[low])
                if nxt[0] == "num" and nxt[1][0] in "+-":
                    p.zone += _hhmm_offset(nxt[1], text)  # UTC+3, EST-130
                    i += 1
            elif low == "t" and p.date is not None:
                pass
            elif low == "ago":
                raise DateError(text)
            else:
                raise DateError(text)
        i += 1
    absolute = p.time is not None or p.date is not None or p.weekday is not None
    return _resolve(p, now, zone, text), (nanos if absolute else None)


def _hhmm_offset(val: str, text: str) -> timedelta:
    """A signed zone offset as GNU's parser reads one: up to two digits are hours, more are
    hhmm."""
    digits = val[1:]
    if not isdigits(digits) or len(digits) > 4:
        raise DateError(text)
    value = int(digits)
    minutes = value * 60 if len(digits) <= 2 else value // 100 * 60 + value % 100
    if minutes > 24 * 60:
        raise DateError(text)
    return timedelta(minutes=-minutes if val[0] == "-" else minutes)


def _meridian(h: int, word: str, text: str) -> int:
    if not 1 <= h <= 12:
        raise DateError(text)
    if word == "am":
        return 0 if h == 12 else h
    return 12 if h == 12 else h + 12


def _unit_of(word: str) -> str | None:
    w = word.lower().rstrip(".")
    if w in _UNITS:
        return w
    if w.endswith("s") and w[:-1] in _UNITS:
        return w[:-1]
    return None


def _add_relative(p: _Parsed, number: int, word: str, tokens, i: int) -> None:
    unit = _unit_of(word)
    ago = i + 1 < len(tokens) and tokens[i + 1][1].lower() == "ago"
    if ago:
        number = -number
    kind, size = _UNITS[unit]
    if kind == "months":
        p.months += number * size
    elif unit == "day":
        p.days += number
    elif unit in ("week", "fortnight"):
        p.days += number * size // 86400
    else:
        p.seconds += number * size


def _resolve(p: _Parsed, now: datetime, zone: tzinfo, text: str) -> datetime:
    local = now.astimezone(zone)
    y, mo, d = p.date if p.date else (local.year, local.month, local.day)
    if p.time is not None:
        h, mi, s, _ = p.time
    elif p.date is not None or p.weekday is not None:
        h = mi = s = 0
    else:
        h, mi, s = local.hour, local.minute, local.second
    try:
        base = datetime(y, mo, d, h, mi, min(s, 59))
    except ValueError:
        raise DateError(text) from None
    if p.weekday is not None:
        ordinal, wd = p.weekday
        cur = base.weekday()
        shift = (wd - cur + 7) % 7 + 7 * (ordinal - (1 if ordinal > 0 and cur != wd else 0))
        base += timedelta(days=shift)
    if p.months:
        total = base.year * 12 + (base.month - 1) + p.months
        ny, nm = divmod(total, 12)
        # like mktime, an out-of-range day spills into the next month
        first = datetime(ny, nm + 1, 1, base.hour, base.minute, base.second)
        base = first + timedelta(days=base.day - 1)
    base += timedelta(days=p.days)
    if p.zone is not None:
        aware = base.replace(tzinfo=timezone(p.zone))
    else:
        localized = _localize(base, zone)
        if localized is None:
            raise DateError(text)
        aware = localized
    aware = aware + timedelta(seconds=p.seconds) if p.seconds else aware
    if p.time is None and p.date is None and p.weekday is None and not p.months and not p.days \
            and not p.seconds:
        return now.astimezone(zone)
    return aware.astimezone(zone)


_EPOCH = datetime(1970, 1, 1)


def _localize(naive: datetime, zone: tzinfo) -> datetime | None:
    """The local time NAIVE in ZONE as glibc's mktime finds it (GNU date's parser calls it):
    a first guess reads it as UTC, each probe moves by the difference, so of a time that comes
    twice (the hour DST ends) the one reached first wins -- EET in Athens, EDT in New York --
    and a time DST skips matches nothing (None: GNU's 'invalid date')."""
    try:
        t = (naive - _EPOCH) // timedelta(seconds=1)
        for _ in range(6):
            local = datetime.fromtimestamp(t, zone)
            step = (naive - local.replace(tzinfo=None)) // timedelta(seconds=1)
            if step == 0:
                return local
            t += step
        return None
    except (OverflowError, OSError, ValueError):
        return naive.replace(tzinfo=zone)


# ----------------------------------------------------------------------------- commands' uses

def local_zone(env: dict | None) -> tzinfo:
    """The zone ``TZ`` in the command's environment names (UTC when unset)."""
    return _zone_named((env or {}).get("TZ"))


#: the POSIX times a datetime holds (0001-01-01 to 9999-12-31 23:59:59 UTC)
_FIRST_TS = -62135596800.0
_LAST_TS = 253402300799.0


def zoned_datetime(ts: float, zone: tzinfo) -> datetime:
    """``ts`` in ``zone``, for any number: a time outside what a datetime holds is shown at its
    nearest end (NaN as 0), and one whose local time would leave that range (9999-12-31 23:00
    UTC in UTC+2) in UTC instead of failing."""
    ts = min(max(ts, _FIRST_TS), _LAST_TS) if ts == ts else 0.0
    try:
        return datetime.fromtimestamp(ts, zone)
    except (OverflowError, ValueError, OSError):
        return datetime.fromtimestamp(ts, timezone.utc)


def local_datetime(ts: float, env: dict | None) -> datetime:
    return zoned_datetime(ts, local_zone(env))


def full_timestamp(ts: float, env: dict | None) -> str:
    """``2024-01-02 03:04:05.123456789 +0000`` (stat %y, ls --full-time)."""
    ts = min(max(ts, _FIRST_TS), _LAST_TS) if ts == ts else 0.0
    dt = local_datetime(ts, env)
    nanos = int(round((ts - int(ts)) * 1e9)) if ts >= 0 else 0
    if nanos >= 1_000_000_000:
        nanos = 999_999_999
    return dt.strftime("%Y-%m-%d %H:%M:%S") + f".{nanos:09d} " + dt.strftime("%z")


def parse_timestamp(text: str, env: dict | None, now: float | None = None) -> float:
    """What ``date -d TEXT`` means, as a POSIX timestamp (touch -d, find -newermt): the
    current time's fraction is kept when TEXT is only relative to now. Raises DateError."""
    zone = local_zone(env)
    now = time.time() if now is None else now
    whole = int(now // 1)
    when, nanos = parse_date(text, datetime.fromtimestamp(whole, timezone.utc).astimezone(zone), zone)
    frac = now - whole if nanos is None else nanos / 1e9
    return int(when.timestamp()) + frac


def parse_touch_stamp(text: str, env: dict | None = None) -> float | None:
    """``touch -t [[CC]YY]MMDDhhmm[.ss]``; None when invalid."""
    m = re.fullmatch(r"([0-9]{8}|[0-9]{10}|[0-9]{12})(?:\.([0-9]{2}))?", text)
    if not m:
        return None
    digits, secs = m.group(1), int(m.group(2) or 0)
    zone = local_zone(env)
    if len(digits) == 8:
        year = datetime.now(zone).year
    elif len(digits) == 10:
        yy = int(digits[:2])
        year = 2000 + yy if yy < 69 else 1900 + yy
        digits = digits[2:]
    else:
        year = int(digits[:4])
        digits = digits[4:]
    try:
        naive = datetime(year, int(digits[0:2]), int(digits[2:4]), int(digits[4:6]),
                         int(digits[6:8]), min(secs, 59))
    except ValueError:
        return None
    aware = _localize(naive, zone)
    return None if aware is None else aware.timestamp()  # a time DST skips is invalid
