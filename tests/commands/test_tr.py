"""tr against GNU tr (LC_ALL=C), and the set parser."""
from __future__ import annotations

import pytest

from sandbox_kernel.commands.tr import parse_set

from .helpers import assert_like_gnu, run_cmd

TEXT = "Hello, World!\n\tTabs  and   spaces\nabc123xyz\n\x01ctl\xff\nAAAaaa\n"

CASES = [
    ["a-z", "A-Z"], ["[:lower:]", "[:upper:]"], ["[:upper:][:lower:]", "[:lower:][:upper:]"],
    ["a-z", "[:upper:]"], ["[:lower:]", "A-Z"], ["a-z", "A-C"], ["-t", "a-z", "A-C"],
    ["-c", "a-z", "X"], ["-c", "lo", "XY"], ["-C", "a-z\\n", "_"], ["-d", "a-z"], ["-d", "[:digit:]"],
    ["-dc", "[:alpha:]\\n"], ["-s", " "], ["-s", "[:space:]"], ["-s", "a-z", "A-Z"], ["-ds", "l", "o"],
    ["-d", "l", "x"], ["abc", "[x*]yz"], ["a-f", "[x*2]y"], ["a-f", "[x*02]y"], ["a[b*2]", "x"],
    ["[b*]", "x"], ["z-a", "x"], ["[:foo:]", "x"], ["[=l=]", "L"], ["a-z", ""], [], ["-d"], ["-s"],
    ["abc"], ["a", "b", "c"], ["\\\\", "x"], ["\\n\\t", "NT"], ["\\101-\\103", "x"], ["\\0-\\10", "?"],
    ["[:punct:]", "."], ["[:alnum:]", "#"], ["-cs", "[:alnum:]", "\\n"], ["aa", "xy"], ["[:xdigit:]", "h"],
    ["[:cntrl:]", "c"], ["[:graph:]", "g"], ["[:print:]", "p"], ["[:blank:]", "_"], ["-x"],
    ["a-z", "[:digit:]"], ["-c", "[:lower:]", "[:upper:]"], ["\\", "x"], ["-", "_"], ["a-", "xy"],
    ["-s", "-c", "a-zA-Z", "\\n"], ["[:space:]", "[\\n*]"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(args):
    assert_like_gnu(["tr", *args], stdin=TEXT.encode("latin-1"))


def test_squeeze_across_chunks():
    out, _, status = run_cmd(["tr", "-s", "a"], stdin="a" * 200000 + "b")
    assert out == "ab" and status == 0


def test_parse_set_elements():
    elems, _ = parse_set("a-c[:digit:]x", False)
    assert [e.kind for e in elems] == ["range", "class", "char"]
    assert [v for e in elems for v in e.values][:4] == [97, 98, 99, 48]
    rep, _ = parse_set("[x*3]", True)
    assert rep[0].values == [120] * 3
