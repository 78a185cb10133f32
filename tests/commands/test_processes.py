"""kill, ps, sleep, timeout, time (commands/processes.py)."""
import re
import time

from .helpers import run_cmd_bytes


def test_kill_ps():
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
