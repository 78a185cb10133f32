"""head and tail against GNU coreutils (LC_ALL=C)."""
from __future__ import annotations

import pytest

from .helpers import assert_like_gnu, run_cmd

LINES = "".join(f"line {i}\n" for i in range(1, 31))
FILES = {"f": LINES, "short": "a\nb\nc\n", "noeol": "x\ny\nz", "empty": "", "z": "a\0b\0c\0",
         "d/x": "in d\n"}

CASES = [
    ["head", "f"], ["head", "-n", "3", "f"], ["head", "-3", "f"], ["head", "-n", "-25", "f"],
    ["head", "-c", "7", "f"], ["head", "-c", "-200", "f"], ["head", "--bytes=1K", "f"],
    ["head", "-n", "2", "f", "short"], ["head", "-q", "-n1", "f", "short"],
    ["head", "-v", "-n1", "f"], ["head", "-n", "x", "f"], ["head", "-c", "1x", "f"],
    ["head", "nope"], ["head", "-n1", "f", "nope", "short"], ["head", "d"], ["head", "f", "d"],
    ["head", "-n", "0", "f"], ["head", "-n", "-0", "noeol"], ["head", "-n", "-1", "noeol"],
    ["head", "-z", "-n", "2", "z"], ["head", "-2c", "f"], ["head", "-n", "+2", "f"],
    ["head", "--lines=4", "-", "f"], ["head", "-x"], ["head", "--bogus"],
    ["tail", "f"], ["tail", "-n", "3", "f"], ["tail", "-3", "f"], ["tail", "+28", "f"],
    ["tail", "-n", "+28", "f"], ["tail", "-c", "5", "f"], ["tail", "-c", "+200", "f"],
    ["tail", "-n", "2", "noeol"], ["tail", "-n", "1", "f", "short", "noeol"],
    ["tail", "-q", "-n1", "f", "short"], ["tail", "-v", "empty"], ["tail", "-n", "0", "f"],
    ["tail", "-n", "+0", "short"], ["tail", "-n", "y", "f"], ["tail", "nope"],
    ["tail", "-z", "-n1", "z"], ["tail", "-3c", "f"], ["tail", "-n", "100", "short"],
    ["tail", "-c", "0", "f"], ["tail", "-n", "-2", "short"], ["tail", "d", "short"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(argv):
    assert_like_gnu(argv, FILES, stdin=LINES)


def test_stdin_headers():
    assert_like_gnu(["head", "-n1", "-", "short"], FILES, stdin="s1\ns2\n")
    assert_like_gnu(["tail", "-n1", "short", "-"], FILES, stdin="s1\ns2\n")


def test_big_stream_tail_keeps_only_the_end():
    data = "".join(f"{i}\n" for i in range(300000))
    out, err, status = run_cmd(["tail", "-n", "2"], stdin=data)
    assert (out, status) == ("299998\n299999\n", 0)


def test_follow_is_refused_clearly():
    out, err, status = run_cmd(["tail", "-f", "short"], fs=None, stdin="")
    assert status == 1 and "follow" in err


def test_head_leaves_rest_of_stdin_unread():
    out, err, status = run_cmd(["head", "-n", "1"], stdin="a\nb\n")
    assert out == "a\n" and status == 0
