"""date: GNU formats (%Y %N %:z, flags - _ 0 ^ #, widths), -d with the common free-form
dates (ISO, @EPOCH, month names, weekdays, relative items like '2 days ago'), -u, -I, -R,
--rfc-3339, -r FILE, and TZ from the environment (IANA names or POSIX 'NAME[+-]H')."""
from __future__ import annotations

import re
import time as _time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..chars import isdigits
from ._lib.quoting import quote
from .options import UsageError, getopt
from .registry import CommandContext, command

DATE_HELP = """Usage: date [OPTION]... [+FORMAT]
Display the current time in the given FORMAT.

Mandatory arguments to long options are mandatory for short options too.
  -d, --date=STRING          display time described by STRING, not 'now'
  -f, --file=DATEFILE        like --date; once for each line of DATEFILE
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
  -R, --rfc-email            output date and time in RFC 5322 format.
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
  -r, --reference=FILE       display the last modification time of FILE
  -s, --set=STRING           set time described by STRING
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)

FORMAT controls the output.  Interpreted sequences are:
  %%   a literal %
  %a   locale's abbreviated weekday name (e.g., Sun)
  %A   locale's full weekday name (e.g., Sunday)
  %b   locale's abbreviated month name (e.g., Jan)
  %B   locale's full month name (e.g., January)
  %c   locale's date and time (e.g., Thu Mar  3 23:05:25 2005)
  %C   century; like %Y, except omit last two digits (e.g., 20)
  %d   day of month (e.g., 01)
  %D   date; same as %m/%d/%y
  %e   day of month, space padded; same as %_d
  %F   full date; like %+4Y-%m-%d
  %g   last two digits of year of ISO week number (see %G)
  %G   year of ISO week number (see %V); normally useful only with %V
  %h   same as %b
  %H   hour (00..23)
  %I   hour (01..12)
  %j   day of year (001..366)
  %k   hour, space padded ( 0..23); same as %_H
  %l   hour, space padded ( 1..12); same as %_I
  %m   month (01..12)
  %M   minute (00..59)
  %n   a newline
  %N   nanoseconds (000000000..999999999)
  %p   locale's equivalent of either AM or PM; blank if not known
  %P   like %p, but lower case
  %q   quarter of year (1..4)
  %r   locale's 12-hour clock time (e.g., 11:11:04 PM)
  %R   24-hour hour and minute; same as %H:%M
  %s   seconds since the Epoch (1970-01-01 00:00 UTC)
  %S   second (00..60)
  %t   a tab
  %T   time; same as %H:%M:%S
  %u   day of week (1..7); 1 is Monday
  %U   week number of year, with Sunday as first day of week (00..53)
  %V   ISO week number, with Monday as first day of week (01..53)
  %w   day of week (0..6); 0 is Sunday
  %W   week number of year, with Monday as first day of week (00..53)
  %x   locale's date representation (e.g., 12/31/99)
  %X   locale's time representation (e.g., 23:13:48)
  %y   last two digits of year (00..99)
  %Y   year
  %z   +hhmm numeric time zone (e.g., -0400)
  %:z  +hh:mm numeric time zone (e.g., -04:00)
  %::z  +hh:mm:ss numeric time zone (e.g., -04:00:00)
  %Z   alphabetic time zone abbreviation (e.g., EDT)

By default, date pads numeric fields with zeroes.
The following optional flags may follow '%':

  -  (hyphen) do not pad the field
  _  (underscore) pad with spaces
  0  (zero) pad with zeros
  ^  use upper case if possible
  #  use opposite case if possible
"""

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


_POSIX_TZ = re.compile(r"^:?([A-Za-z]{3,}|<[^>]+>)([+-]?)([0-9]{1,2})(?::([0-9]{2}))?(?::([0-9]{2}))?$")


def zone_from_tz(tz: str | None) -> tzinfo:
    """The zone TZ names: an IANA key, a POSIX 'NAME[+-]H[:MM]', else UTC (like glibc)."""
    if not tz:
        return FixedZone(timedelta(0), "UTC")
    key = tz[1:] if tz.startswith(":") else tz
    if ".." not in key and not key.startswith("/"):
        try:
            return ZoneInfo(key)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
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
        numeric = (d.year, 1, "0")
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
  | (?P<time>[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?)
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
            elif low == "t" and p.date is not None:
                pass
            elif low == "ago":
                raise DateError(text)
            else:
                raise DateError(text)
        i += 1
    absolute = p.time is not None or p.date is not None or p.weekday is not None
    return _resolve(p, now, zone, text), (nanos if absolute else None)


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
        aware = _localize(base, zone)
    aware = aware + timedelta(seconds=p.seconds) if p.seconds else aware
    if p.time is None and p.date is None and p.weekday is None and not p.months and not p.days \
            and not p.seconds:
        return now.astimezone(zone)
    return aware.astimezone(zone)


def _localize(naive: datetime, zone: tzinfo) -> datetime:
    aware = naive.replace(tzinfo=zone)
    # a time in a DST gap does not round-trip; GNU moves it forward
    back = aware.astimezone(timezone.utc).astimezone(zone)
    if back.replace(tzinfo=None) != naive:
        aware = naive.replace(tzinfo=zone, fold=1)
    return aware


# ----------------------------------------------------------------------------- command

_ISO_FORMATS = {"date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
                "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z"}
_RFC3339_FORMATS = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z",
                    "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}


def _pick(arg: str, choices: dict, option: str) -> str:
    matches = [k for k in choices if k.startswith(arg)] if arg else []
    if arg in choices:
        return arg
    if len(matches) == 1:
        return matches[0]
    kind = "ambiguous" if matches else "invalid"
    valid = "".join(f"  - '{k}'\n" for k in choices)
    raise UsageError(f"{kind} argument {quote(arg, 'locale')} for '{option}'\nValid arguments are:\n{valid.rstrip()}", 1)


@command("date", help=DATE_HELP)
async def date(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "d:f:I::Rr:s:u", status=1, long={
        "date=": "d", "file=": "f", "iso-8601==": "I", "rfc-email": "R", "rfc-822": "R",
        "rfc-2822": "R", "rfc-3339=": None, "reference=": "r", "set=": "s", "utc": "u",
        "universal": "u", "debug": None})
    date_text = file_arg = reference = None
    fmt = None
    formats_given = 0
    utc = False
    for o, v in opts:
        if o == "d":
            date_text = v
        elif o == "f":
            file_arg = v
        elif o == "I":
            fmt = _ISO_FORMATS[_pick(v, _ISO_FORMATS, "--iso-8601") if v else "date"]
            formats_given += 1
        elif o == "R":
            fmt = "%a, %d %b %Y %H:%M:%S %z"
            formats_given += 1
        elif o == "rfc-3339":
            fmt = _RFC3339_FORMATS[_pick(v, _RFC3339_FORMATS, "--rfc-3339")]
            formats_given += 1
        elif o == "r":
            reference = v
        elif o == "s":
            await ctx.error("cannot set date: Operation not permitted")
            return 1
        elif o == "u":
            utc = True
    if sum(x is not None for x in (date_text, file_arg, reference)) > 1:
        raise UsageError("the options to specify dates for printing are mutually exclusive", 1)
    if len(operands) > 1:
        raise UsageError(f"extra operand {quote(operands[1], 'locale')}", 1)
    for operand in operands:
        if operand.startswith("+"):
            if fmt is not None or formats_given:
                raise UsageError("multiple output formats specified", 1)
            fmt = operand[1:]
        else:
            await ctx.error(f"invalid date {quote(operand, 'locale')}")
            return 1
    if fmt is None:
        fmt = "%a %b %e %H:%M:%S %Z %Y"
    zone = FixedZone(timedelta(0), "UTC") if utc else zone_from_tz(ctx.env.get("TZ"))
    now_ns = _time.time_ns()
    now = datetime.fromtimestamp(now_ns // 1_000_000_000, timezone.utc).astimezone(zone)
    now_frac = now_ns % 1_000_000_000
    if reference is not None:
        st = ctx.fs.stat(reference, cwd=ctx.cwd)
        secs = int(st.st_mtime // 1)
        frac = int(round((st.st_mtime - secs) * 1e9)) % 1_000_000_000
        await ctx.out(format_date(fmt, datetime.fromtimestamp(secs, zone), frac) + "\n")
        return 0
    if file_arg is not None:
        inp = ctx.open_input(file_arg)
        status = 0
        async for raw in inp.lines():
            line = raw.decode("utf-8", "surrogateescape").rstrip("\n")
            try:
                when, frac = parse_date(line, now, zone)
            except DateError:
                await ctx.error(f"invalid date {quote(line, 'locale')}")
                status = 1
                continue
            await ctx.out(format_date(fmt, when, now_frac if frac is None else frac) + "\n")
        return status
    if date_text is not None:
        try:
            when, frac = parse_date(date_text, now, zone)
        except DateError:
            await ctx.error(f"invalid date {quote(date_text, 'locale')}")
            return 1
        if frac is None:
            frac = now_frac
    else:
        when, frac = now, now_frac
    await ctx.out(format_date(fmt, when, frac) + "\n")
    return 0

