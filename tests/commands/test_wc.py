"""wc against GNU coreutils (LC_ALL=C)."""
from __future__ import annotations

import pytest

from .helpers import assert_like_gnu, run_cmd

FILES = {"f": "hello world\nfoo  bar baz\n\tindented line here\n", "g": "a\x01b \x01 c\x80 \x80",
         "w": "abc\rd\nab\bc\n\x0bx\x0cyy\n" + "x" * 100 + "\n", "empty": "", "d/x": "1\n",
         "big": "word " * 30000 + "\n"}

CASES = [
    ["wc", "f"], ["wc", "-l", "f"], ["wc", "-w", "f"], ["wc", "-c", "f"], ["wc", "-m", "f"],
    ["wc", "-L", "f"], ["wc", "-L", "w"], ["wc", "-lL", "f"], ["wc", "f", "g"], ["wc", "-w", "g"],
    ["wc", "f", "g", "w", "empty"], ["wc", "-l", "f", "-"], ["wc"], ["wc", "-l"], ["wc", "-c", "-"],
    ["wc", "nope"], ["wc", "-c", "nope", "f"], ["wc", "f", "nope"], ["wc", "d"], ["wc", "d", "f"],
    ["wc", "-lwmcL", "f", "w"], ["wc", "big"], ["wc", "-x"], ["wc", "--lines", "--words", "f"],
    ["wc", "/dev/null"], ["wc", "f", "/dev/null"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(argv):
    assert_like_gnu(argv, FILES, stdin="one two\nthree\n")


def test_words_spanning_chunks():
    data = ("x" * 70000 + " y\n") * 3
    out, _, status = run_cmd(["wc", "-w"], stdin=data)
    assert out == "6\n" and status == 0


def test_files0_from():
    assert_like_gnu(["wc", "-l", "--files0-from=list"], {**FILES, "list": "f\0w\0"})
