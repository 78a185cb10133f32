"""Text commands in a UTF-8 locale (the sandbox's default LANG=C.UTF-8) against GNU tools."""
from __future__ import annotations

import pytest

from .helpers import run_cmd_bytes, run_gnu

CASES = [
    (["wc"], "héllo wörld\n日本語 x\n"), (["wc", "-L"], "héllo wörld\n日本語\tx\n"), (["wc", "-m"], "héllo\n"),
    (["wc", "-w"], "a\u00a0b c\n"), (["wc", "-w"], "x\x01 \x01 é\n"), (["wc", "-lwmL"], "ab é\n\tüber\n" * 3),
    (["wc", "-c"], "日本\n"), (["rev"], "héllo\n日本語\nabc\n"), (["expr", "length", "héllo"], ""),
    (["expr", "substr", "héllo", "2", "2"], ""), (["expr", "index", "héllo", "l"], ""),
    (["expr", "héllo", ":", "h.l"], ""), (["expr", "héllo", ":", "\\(h.\\)"], ""),
    (["column"], "héllo\nwörld\n日本語\n"), (["column", "-t"], "é b\nccc d\n日本 x\n"),
    (["sort"], "é\ne\nz\n日\n"), (["cut", "-c1-2"], "héllo\n"), (["tr", "a-z", "A-Z"], "héllo\n"),
]


@pytest.mark.parametrize("argv,stdin", CASES, ids=[" ".join(a) + " " + s[:8] for a, s in CASES])
def test_utf8_locale_like_gnu(argv, stdin):
    want_out, _, want_status, _ = run_gnu(argv, stdin=stdin.encode(),
                                          env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    out, err, status = run_cmd_bytes(argv, stdin=stdin.encode(),
                                     env={"LANG": "C.UTF-8", "HOME": "/home/user", "PATH": "/usr/bin"})
    assert (out, status) == (want_out, want_status), err


def test_c_locale_counts_bytes():
    out, _, _ = run_cmd_bytes(["expr", "length", "héllo"], env={"LC_ALL": "C"})
    assert out == b"6\n"
    out, _, _ = run_cmd_bytes(["rev"], stdin="é\n".encode(), env={"LC_ALL": "C"})
    assert out == b"\xa9\xc3\n"
