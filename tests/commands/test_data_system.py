"""env, printenv, id, uname, which, getconf, kill, ps, sleep, timeout, time, date."""
import re
import time

import pytest

from .helpers import run_cmd_bytes

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/user", "USER": "user", "TZ": "UTC"}


def test_env_prints_sets_unsets_and_runs():
    assert run_cmd_bytes(["env"], env=ENV)[0] == b"PATH=/usr/bin:/bin\nHOME=/home/user\nUSER=user\nTZ=UTC\n"
    assert run_cmd_bytes(["env", "-i", "A=1", "B=2"], env=ENV)[0] == b"A=1\nB=2\n"
    assert b"HOME" not in run_cmd_bytes(["env", "-u", "HOME"], env=ENV)[0]
    assert run_cmd_bytes(["env", "FOO=bar", "printenv", "FOO"], env=ENV) == (b"bar\n", b"", 0)
    assert run_cmd_bytes(["env", "-i", "printenv"], env=ENV) == (b"", b"", 0)
    assert run_cmd_bytes(["env", "nosuch"], env=ENV) == (b"", b"env: 'nosuch': No such file or directory\n", 127)
    assert run_cmd_bytes(["env", "-u"], env=ENV)[2] == 125


def test_printenv_status():
    assert run_cmd_bytes(["printenv", "HOME", "NOPE"], env=ENV) == (b"/home/user\n", b"", 1)


def test_identity_commands():
    assert run_cmd_bytes(["id"])[0] == b"uid=1000(user) gid=1000(user) groups=1000(user)\n"
    assert run_cmd_bytes(["id", "-un"])[0] == b"user\n"
    assert run_cmd_bytes(["id", "-u"])[0] == b"1000\n"
    assert run_cmd_bytes(["id", "root"])[0] == b"uid=0(root) gid=0(root) groups=0(root)\n"
    assert run_cmd_bytes(["id", "nosuch"]) == (b"", b"id: 'nosuch': no such user\n", 1)
    assert run_cmd_bytes(["id", "-n"])[2] == 1
    assert run_cmd_bytes(["whoami"])[0] == b"user\n"
    assert run_cmd_bytes(["hostname"])[0] == b"sandbox\n"
    assert run_cmd_bytes(["uname"])[0] == b"Linux\n"
    assert run_cmd_bytes(["uname", "-srm"])[0] == b"Linux 6.1.0-sandbox x86_64\n"
    assert run_cmd_bytes(["uname", "-a"])[0].split()[:2] == [b"Linux", b"sandbox"]
    assert run_cmd_bytes(["nproc"])[0] == b"1\n"


def test_which_searches_path_in_vfs():
    assert run_cmd_bytes(["which", "ls", "nosuch"], env=ENV) == (b"/usr/bin/ls\n", b"", 1)
    assert run_cmd_bytes(["which", "-a", "ls"], env=ENV)[0] == b"/usr/bin/ls\n/bin/ls\n"


def test_getconf_kill_ps():
    assert run_cmd_bytes(["getconf", "PAGESIZE"])[0] == b"4096\n"
    assert run_cmd_bytes(["getconf", "PATH_MAX", "/"])[0] == b"4096\n"
    assert run_cmd_bytes(["getconf", "FOO"]) == (b"", b"getconf: Unrecognized variable `FOO'\n", 2)
    assert run_cmd_bytes(["kill", "-l", "9"])[0] == b"KILL\n"
    assert run_cmd_bytes(["kill", "-l", "TERM"])[0] == b"15\n"
    assert run_cmd_bytes(["kill", "4242"]) == (b"", b"kill: (4242): No such process\n", 1)
    out = run_cmd_bytes(["ps"])[0].decode().splitlines()
    assert out[0].split() == ["PID", "TTY", "TIME", "CMD"] and out[-1].endswith("ps")


def test_sleep_validation_and_duration():
    assert run_cmd_bytes(["sleep"]) == (b"", b"sleep: missing operand\nTry 'sleep --help' for more information.\n", 1)
    assert run_cmd_bytes(["sleep", "1x"])[2] == 1
    start = time.monotonic()
    assert run_cmd_bytes(["sleep", "0.05", "0.05s"])[2] == 0
    assert 0.09 < time.monotonic() - start < 1.5


def test_timeout_kills_with_124_and_passes_status():
    start = time.monotonic()
    assert run_cmd_bytes(["timeout", "0.2", "sleep", "5"])[2] == 124
    assert time.monotonic() - start < 2
    assert run_cmd_bytes(["timeout", "-v", "--preserve-status", "0.1", "sleep", "5"]) == \
        (b"", b"timeout: sending signal TERM to command 'sleep'\n", 143)
    assert run_cmd_bytes(["timeout", "5", "false"])[2] == 1
    assert run_cmd_bytes(["timeout", "1x", "true"])[2] == 125
    assert run_cmd_bytes(["timeout", "1", "nosuch"])[2] == 127


def test_timeout_status_per_signal():
    # KILL ends GNU timeout itself: 137 with or without --foreground/--preserve-status
    assert run_cmd_bytes(["timeout", "-s", "KILL", "0.1", "sleep", "5"])[2] == 137
    assert run_cmd_bytes(["timeout", "--foreground", "-s", "9", "0.1", "sleep", "5"])[2] == 137
    assert run_cmd_bytes(["timeout", "-s", "INT", "0.1", "sleep", "5"])[2] == 124
    assert run_cmd_bytes(["timeout", "--preserve-status", "-s", "HUP", "-k", "1", "0.1", "sleep", "5"])[2] == 129
    assert run_cmd_bytes(["timeout", "-s", "FOO", "1", "true"]) == \
        (b"", b"timeout: 'FOO': invalid signal\nTry 'timeout --help' for more information.\n", 125)


def test_time_reports_like_gnu_time():
    out, err, status = run_cmd_bytes(["time", "false"])
    assert status == 1
    lines = err.decode().split("\n")
    assert lines[0] == "Command exited with non-zero status 1"
    assert re.fullmatch(r"\d+\.\d\duser \d+\.\d\dsystem \d+:\d\d\.\d\delapsed (\d+|\?)%CPU "
                        r"\(0avgtext\+0avgdata 0maxresident\)k", lines[1]), lines[1]
    out, err, status = run_cmd_bytes(["time", "-p", "true"])
    assert status == 0 and re.fullmatch(r"real \d+\.\d\d\nuser \d+\.\d\d\nsys \d+\.\d\d\n", err.decode())


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


def test_env_unset_reaches_a_nested_shell():
    # builtins env runs (sh, bash) get env's environment instead of the shell's exported variables
    from sandbox_kernel.cli import run_script

    out, _err, _status = run_script("X=1 Y=2 env -u X sh -c 'echo ${X-unset} $Y'; export Z=1; "
                                    "env -i bash -c 'echo ${Z-unset}'")
    assert out == b"unset 2\nunset\n"
