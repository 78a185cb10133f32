"""sort against GNU sort (LC_ALL=C), plus unit tests of the key machinery."""
from __future__ import annotations

import pytest

from sandbox_kernel.commands._lib.versionsort import version_key
from sandbox_kernel.commands.sort import general_value, human_value, numeric_value

from .helpers import assert_like_gnu, run_cmd

WORDS = "banana\napple\nCherry\n  date\napple\nBanana\n\teggplant\nfig 10\nfig 9\n10\n9\n-3\n1.5\n1.50\n\n"
TABLE = ("bob,25,NY,3.5K\nalice,30,LA,1G\ncarol,25,SF,200\ndave,40,NY,1.5M\neve,30,LA,-2K\n"
         "frank,,SF,0\nalice,22,NY,10\n")
SPACED = "  b 2 x\na  10 y\n c 2  z\nd 1 w\n   e 3 v\nb 2 a\n"
VERS = ("foo-1.10.tar.gz\nfoo-1.9.tar.gz\nfoo-1.9a.tar.gz\nfoo-1.9~rc1.tar.gz\n"
        ".hidden\n..\n.\nfile10\nfile9\nfile1.0\nfile01\n")
NUMS = "1e3\n0x10\ninf\n-inf\nnan\nabc\n12\n-0\n+5\n1.5e-2\n  7\n"
HUMAN = "1K\n2M\n1024\n-1K\n-1\n0.5G\n3k\nx\n1.5K\n2T\n"
MONTHS = "Mar 3\njan 1\n  FEB 2\nxyz\nDec 9\nmay\n"
FILES = {"w": WORDS, "t": TABLE, "s": SPACED, "v": VERS, "g": NUMS, "h": HUMAN, "m": MONTHS,
         "sorted": "a\nb\nb\nc\n", "unsorted": "a\nc\nb\n", "z": "b\0a\0c\0", "noeol": "b\na",
         "d/x": ""}

CASES = [
    ["sort", "w"], ["sort", "-r", "w"], ["sort", "-f", "w"], ["sort", "-fu", "w"], ["sort", "-n", "w"],
    ["sort", "-nr", "w"], ["sort", "-nu", "w"], ["sort", "-b", "w"], ["sort", "-d", "w"],
    ["sort", "-i", "w"], ["sort", "-u", "w"], ["sort", "-s", "-f", "w"], ["sort", "-rs", "-f", "w"],
    ["sort", "-t,", "-k2,2n", "t"], ["sort", "-t,", "-k2,2nr", "-k1,1", "t"],
    ["sort", "-t,", "-k3,3", "-k2n", "t"], ["sort", "-t", ",", "-k4h", "t"],
    ["sort", "-t,", "-k2,2", "-u", "t"], ["sort", "-t,", "-k1.2,1.3", "t"], ["sort", "-t,", "-k3", "t"],
    ["sort", "-t,", "-s", "-k3,3", "t"], ["sort", "-t,", "-k3,3r", "-k1,1", "t"],
    ["sort", "-k2", "s"], ["sort", "-k2,2n", "s"], ["sort", "-k2,2", "s"], ["sort", "-b", "-k2,2", "s"],
    ["sort", "-k2b,2", "s"], ["sort", "-k1.2,1.3", "s"], ["sort", "-k1.2b,1.3b", "s"], ["sort", "-k3", "s"],
    ["sort", "-k2n", "-k3r", "s"], ["sort", "-k 2,2n", "-k 1,1", "s"], ["sort", "-r", "-k2,2n", "s"],
    ["sort", "-k2,2.1", "s"], ["sort", "-k5", "s"], ["sort", "-k1.10", "s"],
    ["sort", "-V", "v"], ["sort", "-rV", "v"], ["sort", "--version-sort", "v"],
    ["sort", "-g", "g"], ["sort", "-gr", "g"], ["sort", "-n", "g"], ["sort", "-h", "h"], ["sort", "-hr", "h"],
    ["sort", "-M", "m"], ["sort", "-Mr", "m"], ["sort", "--sort=month", "m"], ["sort", "--sort=bogus", "m"],
    ["sort", "-c", "sorted"], ["sort", "-c", "unsorted"], ["sort", "-C", "unsorted"], ["sort", "-cu", "sorted"],
    ["sort", "--check=quiet", "unsorted"], ["sort", "-c", "sorted", "unsorted"],
    ["sort", "-m", "sorted", "unsorted"], ["sort", "sorted", "unsorted", "w"], ["sort", "-z", "z"],
    ["sort", "noeol"], ["sort", "nope"], ["sort", "d"], ["sort", "-k0", "w"], ["sort", "-k1.0", "w"],
    ["sort", "-k", "1,x", "w"], ["sort", "-t", "ab", "w"], ["sort", "-gn", "w"], ["sort", "-nR", "w"],
    ["sort", "-x"], ["sort", "--bogus"], ["sort", "-o", "/nonexistent/x", "w"], ["sort", "-"],
    ["sort", "-k2,1", "s"], ["sort", "-t", "\t", "-k2", "w"], ["sort", "-uk1,1", "-t,", "t"],
    ["sort", "-dfk1", "w"], ["sort", "-n", "-k1.2", "h"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(argv):
    assert_like_gnu(argv, FILES, stdin=WORDS)


def test_output_file_may_be_an_input():
    assert_like_gnu(["sort", "-o", "w", "w"], FILES, check_files=True)


def test_random_sort_groups_equal_keys():
    out, _, status = run_cmd(["sort", "-R"], stdin="a\nb\na\nc\nb\na\n")
    assert status == 0 and sorted(out.splitlines()) == ["a", "a", "a", "b", "b", "c"]
    runs = [k for i, k in enumerate(out.splitlines()) if i == 0 or out.splitlines()[i - 1] != k]
    assert len(runs) == 3


def test_numeric_values():
    assert numeric_value(b"  -1.50") == numeric_value(b"-1.5")
    assert numeric_value(b"abc") == 0 and numeric_value(b"-") == 0
    assert numeric_value(b"12345678901234567890") > numeric_value(b"1234567890123456789")
    assert numeric_value(b"3x") == 3


def test_general_and_human_values():
    assert general_value(b"abc") < general_value(b"nan") < general_value(b"-inf") < general_value(b"1e3")
    assert general_value(b"0x10") == (2, 16.0)
    assert human_value(b"1K") > human_value(b"1000") and human_value(b"-1K") < human_value(b"-1")


def test_version_order():
    names = [b"a-1.10", b"a-1.9", b"a-1.9~rc1", b"a-1.9a"]
    assert sorted(names, key=version_key) == [b"a-1.9~rc1", b"a-1.9", b"a-1.9a", b"a-1.10"]


def test_big_numeric_sort():
    data = "".join(f"{(i * 7919) % 100003}\n" for i in range(50000))
    out, _, status = run_cmd(["sort", "-n"], stdin=data)
    values = [int(x) for x in out.split()]
    assert status == 0 and values == sorted(values)
