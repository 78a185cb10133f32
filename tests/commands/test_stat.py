"""stat (commands/stat.py): formats, the default layout, errors."""
from __future__ import annotations

import re

import pytest

from .helpers import links_fs, run_cmd


@pytest.fixture
def fs():
    return links_fs()


def test_stat_format(fs):
    out, _, _ = run_cmd(["stat", "-c", "%n|%N|%s|%a|%A|%F|%U|%G|%u|%g|%h|%b|%B|%o|%f|%m", "f", "l", "d"], fs=fs)
    assert out == ("f|'f'|5|644|-rw-r--r--|regular file|user|user|1000|1000|1|8|512|4096|81a4|/\n"
                   "l|'l' -> 'f'|1|777|lrwxrwxrwx|symbolic link|user|user|1000|1000|1|0|512|4096|a1ff|/\n"
                   "d|'d'|4096|755|drwxr-xr-x|directory|user|user|1000|1000|2|8|512|4096|41ed|/\n")
    assert run_cmd(["stat", "-L", "-c", "%N %F", "l"], fs=fs)[0] == "'l' regular file\n"
    assert run_cmd(["stat", "--printf", "%n\\t%s\\n\\101", "f"], fs=fs)[0] == "f\t5\nA"
    assert run_cmd(["stat", "-c", "%5s|%-5s|%05s|%04a|%%|%q", "f"], fs=fs)[0] == "    5|5    |00005|0644|%|?\n"
    fs.utime("/workspace/f", 1577836800.25)
    assert run_cmd(["stat", "-c", "%Y %.3Y %y", "f"], fs=fs)[0] == \
        "1577836800 1577836800.250 2020-01-01 00:00:00.250000000 +0000\n"
    assert run_cmd(["stat", "-c", "%F", "/dev/null", "-c", "%t %T %F"], fs=fs)[0] == "1 3 character special file\n"
    fs.write_bytes("/workspace/empty", b"")
    assert run_cmd(["stat", "-c", "%F", "empty"], fs=fs)[0] == "regular empty file\n"


def test_stat_default_and_errors(fs):
    out, _, status = run_cmd(["stat", "f"], fs=fs)
    lines = out.splitlines()
    assert lines[0] == "  File: f"
    assert lines[1] == "  Size: 5         \tBlocks: 8          IO Block: 4096   regular file"
    assert re.fullmatch(r"Device: 0,42\tInode: \d+ +Links: 1", lines[2])
    assert lines[3] == "Access: (0644/-rw-r--r--)  Uid: ( 1000/    user)   Gid: ( 1000/    user)"
    assert lines[4].startswith("Access: 20") and lines[7] == " Birth: -"
    assert run_cmd(["stat", "l"], fs=fs)[0].startswith("  File: l -> f\n")
    assert run_cmd(["stat", "nope"], fs=fs) == ("", "stat: cannot statx 'nope': No such file or directory\n", 1)
    assert run_cmd(["stat"], fs=fs)[1].startswith("stat: missing operand\n")
    out, _, _ = run_cmd(["stat", "-f", "-c", "%T %l", "/"], fs=fs)
    assert out == "sandbox 255\n"
