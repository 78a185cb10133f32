"""expr against GNU expr; xargs through the direct runner (commands from the registry)."""
from __future__ import annotations

import pytest

from sandbox_kernel.commands.expr import is_null

from .helpers import assert_like_gnu, new_fs, run_cmd

EXPR_CASES = [
    ["abc", ":", "^a"], ["^abc", ":", "^a"], ["abc", ":", "a\\(b\\)"], ["abc", ":", "x\\(b\\)"], ["abc", ":", ".*"],
    ["5", "+", "3"], ["5", "/", "0"], ["a", "+", "1"], ["7", "%", "3"], ["-7", "/", "2"], ["-7", "%", "2"],
    ["10", "<", "9"], ["abc", "<", "abd"], ["10", "<", "abc"], ["", "|", "0"], ["0", "|", "5"], ["3", "&", "0"],
    ["3", "&", "4"], ["length", "abcd"], ["substr", "hello", "2", "3"], ["substr", "hello", "0", "2"],
    ["index", "hello", "lo"], ["match", "abc", "a."], ["+", "length"], ["(", "1", "+", "2", ")", "*", "3"],
    ["1", "+"], ["1", "2"], [], ["007"], ["007", "+", "0"], ["5", "=", "05"], ["abc", "=", "abc"],
    ["99999999999999999999", "+", "1"], ["--", "-5", "+", "1"], ["(", "1"], ["00"], ["-0"], ["a", ":", "a\\|b"],
    ["ab", ":", "a\\{2\\}"], ["1", "!=", "2"], ["2", ">=", "2"], ["a b", ":", "a b"], ["x", "*", "2"], ["3", "-", "-2"],
    ["substr", "abc", "2", "-1"], ["substr", "abc", "2", "99"], ["", ":", ""], ["2", "*", "3", "+", "4"],
    ["2", "+", "3", "*", "4"], ["1", "|", "0", "&", "0"], ["a", "=", "b", "|", "c"], ["12", ">", "9"],
    ["12", ">", "9a"],
    ["abc", ":", "\\(a\\)\\(b\\)"], ["abc", ":", "b"], ["x", ")"], [")"], ["(", ")"], ["foo", ":", "\\("],
    ["length", "length"], ["+"], ["match", "a"], ["length", "+", "x"], ["+", "+"], ["index", "abc", ""],
    ["1", "+", "+", "1"], ["2", "==", "2"], ["-", "+", "1"],
]


@pytest.mark.parametrize("args", EXPR_CASES, ids=[" ".join(c) or "none" for c in EXPR_CASES])
def test_expr_like_gnu(args):
    assert_like_gnu(["expr", *args])


def test_null_values():
    assert is_null("") and is_null("0") and is_null("00") and is_null("-0") and is_null(0)
    assert not is_null("a") and not is_null("-") and not is_null(1)


def test_xargs_runs_registered_commands():
    fs = new_fs()
    out, err, status = run_cmd(["xargs", "touch"], stdin="a b\nc\n", fs=fs)
    assert status == 0 and all(fs.exists(f"/workspace/{n}") for n in "abc")
    out, err, status = run_cmd(["xargs", "-n", "1", "printenv"], stdin="USER\nHOME\n")
    assert (out, status) == ("user\n/home/user\n", 0)
    out, err, status = run_cmd(["xargs", "-I", "{}", "printenv", "{}"], stdin="USER\n")
    assert out == "user\n"


@pytest.mark.parametrize("argv,stdin,want", [
    (["xargs", "false"], "a\n", 123),
    (["xargs", "no-such-command"], "a\n", 127),
    (["xargs", "-r", "false"], "", 0),
    (["xargs", "false"], "", 123),
    (["xargs", "-s", "5", "true"], "abcdef\n", 1),
    (["xargs", "-n", "0", "true"], "a\n", 1),
    (["xargs", "true"], "a 'b\n", 1),
])
def test_xargs_statuses(argv, stdin, want):
    _, err, status = run_cmd(argv, stdin=stdin)
    assert status == want, err


def test_xargs_batches_by_count_and_lines():
    out, _, _ = run_cmd(["xargs", "-n", "2", "printf", "[%s]"], stdin="1 2 3 4 5")
    # printf is also a program (coreutils' printf), which the direct runner finds
    assert out == "[1][2][3][4][5]"
    _, err, status = run_cmd(["xargs", "-L", "1", "-t", "true"], stdin="a b\nc \nd\n")
    assert status == 0 and err == "true a b\ntrue c d\n"
    _, err, _ = run_cmd(["xargs", "-0", "-t", "true"], stdin="x y\0z\0")
    assert err == "true x y z\n"
    _, err, _ = run_cmd(["xargs", "-d", ",", "-n", "2", "-t", "true"], stdin="a,b,c")
    assert err == "true a b\ntrue c\n"
    _, err, _ = run_cmd(["xargs", "-E", "STOP", "-t", "true"], stdin="a STOP b\n")
    assert err == "true a\n"
