"""date (commands/date.py): parsing, formats, zones, relative items."""
import time

import pytest

from .helpers import run_cmd_bytes

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/user", "USER": "user", "TZ": "UTC"}


@pytest.mark.parametrize("spec,fmt,want", [
    ("2024-01-15", "%F %T %z", "2024-01-15 00:00:00 +0000"),
    ("2024-01-15 10:30", "%F %T", "2024-01-15 10:30:00"),
    ("@1700000000", "%F %T %s", "2023-11-14 22:13:20 1700000000"),
    ("2024-01-15T10:30:00Z", "%F %T", "2024-01-15 10:30:00"),
    ("2024-01-15 10:30:00 +0200", "%F %T", "2024-01-15 08:30:00"),
    ("Jan 15 2024", "%F", "2024-01-15"),
    ("15 Jan 2024 10:00", "%F %R", "2024-01-15 10:00"),
    ("2024-01-31 + 1 month", "%F", "2024-03-02"),
    ("2024-03-05 07:08:09.123456789", "%j %a %b %Z %:z %::z %-d %_m %e %k %l %^a %p %P %q %U %V %W %G %g %C %u %w %D "
                                      "%r %R %c %5N %3N %N",
     "065 Tue Mar UTC +00:00 +00:00:00 5  3  5  7  7 TUE AM am 1 09 10 10 2024 24 20 2 2 03/05/24 "
     "07:08:09 AM 07:08 Tue Mar  5 07:08:09 2024 12345 123 123456789"),
])
def test_date_parsing_and_formats(spec, fmt, want):
    assert run_cmd_bytes(["date", "-d", spec, "+" + fmt], env=ENV) == ((want + "\n").encode(), b"", 0)


def test_date_zones_iso_rfc_and_errors():
    ny = dict(ENV, TZ="America/New_York")
    assert run_cmd_bytes(["date", "-d", "2024-07-01 12:00", "+%F %T %Z %z"], env=ny)[0] == \
        b"2024-07-01 12:00:00 EDT -0400\n"
    assert run_cmd_bytes(["date", "-d", "@1700000000"], env=dict(ENV, TZ="UTC+3"))[0] == \
        b"Tue Nov 14 19:13:20 UTC 2023\n"
    assert run_cmd_bytes(["date", "-u", "-d", "@0"], env=ny)[0] == b"Thu Jan  1 00:00:00 UTC 1970\n"
    assert run_cmd_bytes(["date", "-d", "2024-01-01 10:00", "-Iseconds"], env=ENV)[0] == b"2024-01-01T10:00:00+00:00\n"
    assert run_cmd_bytes(["date", "-d", "@0", "-R"], env=ENV)[0] == b"Thu, 01 Jan 1970 00:00:00 +0000\n"
    assert run_cmd_bytes(["date", "-d", "2024-01-01", "--rfc-3339=ns"], env=ENV)[0] == \
        b"2024-01-01 00:00:00.000000000+00:00\n"
    assert run_cmd_bytes(["date", "-d", "garbage"], env=ENV) == (b"", b"date: invalid date 'garbage'\n", 1)
    assert run_cmd_bytes(["date", "-d", "2024-02-30"], env=ENV)[2] == 1


def test_date_relative_items_follow_now():
    import datetime
    out = run_cmd_bytes(["date", "-d", "yesterday", "+%F"], env=ENV)[0].decode().strip()
    want = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).strftime("%F")
    assert out == want
    now = int(time.time())
    later = int(run_cmd_bytes(["date", "-d", "now + 1 hour", "+%s"], env=ENV)[0])
    assert abs(later - now - 3600) <= 2
