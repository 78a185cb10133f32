"""date: GNU formats (%Y %N %:z, flags - _ 0 ^ #, widths), -d with the common free-form
dates (ISO, @EPOCH, month names, weekdays, relative items like '2 days ago'), -u, -I, -R,
--rfc-3339, -r FILE, and TZ from the environment (IANA names or POSIX 'NAME[+-]H')."""
from __future__ import annotations

import time
from datetime import datetime, timezone

from ._lib.dates import UTC, DateError, format_date, local_zone, parse_date, zoned_datetime
from ._lib.quoting import quote
from .options import UsageError, argmatch, getopt
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

# ----------------------------------------------------------------------------- command

_ISO_FORMATS = {"date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
                "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z"}
_RFC3339_FORMATS = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z",
                    "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}


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
            precision = argmatch(v, ["hours", "minutes", "date", "seconds", "ns"], "--iso-8601") if v else "date"
            fmt = _ISO_FORMATS[precision]
            formats_given += 1
        elif o == "R":
            fmt = "%a, %d %b %Y %H:%M:%S %z"
            formats_given += 1
        elif o == "rfc-3339":
            fmt = _RFC3339_FORMATS[argmatch(v, list(_RFC3339_FORMATS), "--rfc-3339")]
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
    zone = UTC if utc else local_zone(ctx.env)
    now_ns = time.time_ns()
    now = datetime.fromtimestamp(now_ns // 1_000_000_000, timezone.utc).astimezone(zone)
    now_frac = now_ns % 1_000_000_000
    if reference is not None:
        st = ctx.fs.stat(reference, cwd=ctx.cwd)
        secs = int(st.st_mtime // 1)
        frac = int(round((st.st_mtime - secs) * 1e9)) % 1_000_000_000
        await ctx.out(format_date(fmt, zoned_datetime(secs, zone), frac) + "\n")
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

