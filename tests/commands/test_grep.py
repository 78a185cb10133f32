"""grep against GNU grep 3.8 on the same files (LC_ALL=C)."""
from __future__ import annotations

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits

from .helpers import DEFAULT_ENV, assert_like_gnu, new_fs, run_cmd

TEXT = ("alpha one\nBeta two\ngamma three\nalphabet soup\n\nfoo-bar baz\nthe end\n"
        "x1 x22 x333\nabcabc\n(paren) [bracket] {brace}\nline with a.dot\ntab\there\n")
CTX = "".join(f"{i}\n" if i % 5 else "m\n" for i in range(1, 23))
FILES = {"t.txt": TEXT, "c.txt": CTX, "empty": "", "noeol": "abc\nlast alpha",
         "d/one.txt": "alpha in d\n", "d/two.log": "beta alpha\n", "d/sub/three.txt": "gamma\n",
         "bin": b"abc\0def\nalpha\n"}

CASES = [
    ["grep", "alpha", "t.txt"],
    ["grep", "-i", "BETA", "t.txt"],
    ["grep", "-v", "a", "t.txt"],
    ["grep", "-c", "a", "t.txt"],
    ["grep", "-n", "x", "t.txt"],
    ["grep", "-o", "x[0-9]*", "t.txt"],
    ["grep", "-on", "[0-9]\\+", "t.txt"],
    ["grep", "-ob", "abc", "t.txt"],
    ["grep", "-b", "a", "t.txt"],
    ["grep", "-l", "alpha", "t.txt", "c.txt", "noeol"],
    ["grep", "-L", "alpha", "t.txt", "c.txt", "noeol"],
    ["grep", "-q", "alpha", "t.txt"],
    ["grep", "-q", "zzz", "t.txt"],
    ["grep", "alpha", "t.txt", "missing"],
    ["grep", "-s", "alpha", "t.txt", "missing"],
    ["grep", "-q", "alpha", "missing", "t.txt"],
    ["grep", "-h", "alpha", "t.txt", "noeol"],
    ["grep", "-H", "alpha", "t.txt"],
    ["grep", "-w", "alpha", "t.txt"],
    ["grep", "-w", "x2*", "t.txt"],
    ["grep", "-x", "the end", "t.txt"],
    ["grep", "-x", "", "t.txt"],
    ["grep", "-E", "x[0-9]{2,}|gamma", "t.txt"],
    ["grep", "-E", "(abc){2}", "t.txt"],
    ["grep", "\\(abc\\)\\1", "t.txt"],
    ["grep", "-E", "a|ab", "-o", "t.txt"],
    ["grep", "-F", "a.dot", "t.txt"],
    ["grep", "-F", "(paren) [", "t.txt"],
    ["grep", "[[:digit:]]\\{3\\}", "t.txt"],
    ["grep", "[[:upper:]]", "t.txt"],
    ["grep", "[]}]", "t.txt"],
    ["grep", "\\<two\\>", "t.txt"],
    ["grep", "-e", "one", "-e", "two", "t.txt"],
    ["grep", "-E", "-e", "o(n)e", "-e", "t(w)o", "-o", "t.txt"],
    ["grep", "-P", "x\\d{2}\\b", "t.txt"],
    ["grep", "-A", "1", "m", "c.txt"],
    ["grep", "-B", "2", "m", "c.txt"],
    ["grep", "-C", "1", "m", "c.txt"],
    ["grep", "-2", "-n", "m", "c.txt"],
    ["grep", "-C", "1", "m", "c.txt", "c.txt"],
    ["grep", "-A", "1", "--no-group-separator", "m", "c.txt"],
    ["grep", "-A", "1", "--group-separator=XX", "m", "c.txt"],
    ["grep", "-m", "2", "m", "c.txt"],
    ["grep", "-m", "1", "-A", "2", "m", "c.txt"],
    ["grep", "-n", "-m", "1", "-A", "6", "m", "c.txt"],
    ["grep", "-c", "-m", "3", "m", "c.txt"],
    ["grep", "-c", "m", "c.txt", "t.txt"],
    ["grep", "alpha", "noeol"],
    ["grep", "-r", "alpha", "d"],
    ["grep", "-r", "--include=*.txt", "alpha", "d"],
    ["grep", "-r", "--exclude=*.txt", "alpha", "d"],
    ["grep", "-r", "--exclude-dir=sub", "a", "d"],
    ["grep", "-rl", "a", "d"],
    ["grep", "-r", "--exclude-dir=d", "alpha", "d"],
    ["grep", "-r", "--exclude-dir=d", "alpha", "."],
    ["grep", "--include=*.txt", "alpha", "t.txt", "noeol"],
    ["grep", "--exclude=./t*", "alpha", "./t.txt"],
    ["grep", "-rc", "alpha", "d"],
    ["grep", "alpha", "d"],
    ["grep", "alpha", "bin"],
    ["grep", "-c", "alpha", "bin"],
    ["grep", "-a", "abc", "bin"],
    ["grep", "-I", "alpha", "bin"],
    ["grep", "-z", "alpha", "t.txt"],
    ["grep", "--color=always", "-n", "alp", "t.txt"],
    ["grep", "--color=always", "-o", "a", "t.txt"],
    ["grep", "--color=never", "alp", "t.txt"],
    ["grep", "-Z", "-l", "alpha", "t.txt", "noeol"],
    ["grep", "a\\{1", "t.txt"],
    ["grep", "-E", "a{1", "t.txt"],
    ["grep", "[a", "t.txt"],
    ["grep", "-E", "(a", "t.txt"],
    ["grep", "\\(a", "t.txt"],
    ["grep", "x\\{3,1\\}", "t.txt"],
    ["grep", "[[:nope:]]", "t.txt"],
    ["grep", "-P", "(", "t.txt"],
    ["grep", "--bogus", "a", "t.txt"],
    ["grep", "-A", "x", "a", "t.txt"],
    ["grep"],
    ["grep", "-f", "pats", "t.txt"],
    ["grep", "-f", "empty", "t.txt"],
    ["grep", "-f", "/dev/stdin", "t.txt"],
    ["grep", "-e", "", "t.txt"],
    ["grep", "-ix", "BETA TWO", "t.txt"],
    ["grep", "-E", "^(alpha|gamma) ", "t.txt"],
    ["grep", "-E", "o$", "t.txt"],
    ["grep", "^$", "-n", "t.txt"],
    ["grep", "-E", "x+?", "-o", "t.txt"],
    ["grep", "*a", "t.txt"],
    ["grep", "-E", "\\.", "t.txt"],
    ["grep", "-n", "-e", "a", "--", "-", "t.txt"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c[1:]) for c in CASES])
def test_grep_like_gnu(argv):
    files = dict(FILES, pats="one\nx3\n")
    # -r walks directories in readdir order (hash order on ext4): compare sorted lines
    recursive = any(a.startswith("-r") for a in argv)
    assert_like_gnu(argv, files, stdin="stdin alpha\nnothing\n", sort_lines=recursive)


def test_grep_stdin_label():
    assert_like_gnu(["grep", "-H", "a"], stdin="a\nb\n")
    assert_like_gnu(["grep", "--label=IN", "-H", "a"], stdin="a\nb\n")


def test_recursive_without_operand_omits_dot_slash():
    out, err, status = run_cmd(["grep", "-r", "needle"], cwd="/workspace", fs=None)
    assert status == 1
    fs = new_fs()
    fs.write_bytes("/workspace/f", b"needle\n")
    out, err, status = run_cmd(["grep", "-r", "needle"], fs=fs)
    assert (out, status) == ("f:needle\n", 0)


def test_catastrophic_regex_stops_with_a_message():
    out, err, status = run_script("grep -E '(.*a){12}x'", stdin=b"a" * 3000 + b"\n", limits=Limits(wall_time=0.3))
    assert b"grep: regular expression '(.*a){12}x' stopped: wall time limit exceeded" in err
    assert status == 124


def test_pattern_newlines_are_alternatives():
    out, _, status = run_cmd(["grep", "one\nthree"], stdin=TEXT)
    assert out == "alpha one\ngamma three\n" and status == 0


BIG = "".join(f"line {i} {'error' if i % 7 == 0 else 'ok'} {'x' * (i % 50)}\n" for i in range(30000))
BIG_FILES = {"big": BIG, "big2": BIG[:100001], "latebin": BIG[:200000] + "\0error\n" + BIG[:1000],
             "crlf": "a error\r\nb ok\r\n"}


@pytest.mark.parametrize("argv", [
    ["grep", "error", "big"],
    ["grep", "-c", "error", "big", "big2"],
    ["grep", "-v", "error", "big2"],
    ["grep", "-vc", "error", "big"],
    ["grep", "-H", "-v", "ok", "big2"],
    ["grep", "error", "big", "big2"],
    ["grep", "-l", "error", "big", "big2", "crlf"],
    ["grep", "-L", "9999999", "big", "big2"],
    ["grep", "-q", "line 29999", "big"],
    ["grep", "-E", "^line [0-9]*5 (error|ok) x{49}$", "big"],
    ["grep", "-x", "line 7 error x*", "big"],
    ["grep", "-w", "x", "big"],
    ["grep", "-i", "LINE 1[0-9] ERROR", "big"],
    ["grep", "-F", "-e", "line 14 ", "-e", "line 21 ", "big"],
    ["grep", "error", "latebin"],
    ["grep", "-c", "error", "latebin"],
    ["grep", "-a", "-c", "error", "latebin"],
    ["grep", "\\(line\\) 1\\1*", "big2"],
    ["grep", "-e", "9 error", "-e", "8 ok", "big2"],
    ["grep", "ok.$", "crlf"],
    ["grep", "-m", "3", "error", "big"],
    ["grep", "-n", "line 2999[0-9]", "big"],
])
def test_grep_large_inputs_like_gnu(argv):
    assert_like_gnu(argv, BIG_FILES)


def test_grep_large_stdin_like_gnu():
    assert_like_gnu(["grep", "-c", "error"], stdin=BIG)
    assert_like_gnu(["grep", "7 error"], stdin=BIG)


UTF = "".join(f"{i} caf\u00e9 {'error' if i % 3 == 0 else 'fine'} na\u00efve\n" for i in range(3000)).encode()


@pytest.mark.parametrize("argv", [
    ["grep", "-n", "error", "big"],
    ["grep", "-b", "error", "big"],
    ["grep", "-nb", "7 error", "big", "big2"],
    ["grep", "-o", "x\\{10,\\}", "big"],
    ["grep", "-on", "line [0-9]*9 ", "big"],
    ["grep", "-ob", "error", "big2"],
    ["grep", "-ov", "error", "big2"],
    ["grep", "-c", "-o", "error", "big"],
    ["grep", "-o", "-E", "e|er|err", "big2"],
    ["grep", "-oi", "LINE 2[0-9]", "big2"],
    ["grep", "-n", "-E", "^line (1|22) ", "big"],
    ["grep", "-Hn", "error", "big2"],
    ["grep", "-o", "x*", "big2"],
    ["grep", "-b", "error", "utf"],
    ["grep", "-ob", "error", "utf"],
    ["grep", "-n", "error", "utf"],
])
def test_grep_fast_numbering_like_gnu(argv):
    assert_like_gnu(argv, dict(BIG_FILES, utf=UTF))


def test_dereference_recursive_stops_at_directory_loops():
    fs = new_fs()
    fs.mkdir("/workspace/a/b", parents=True)
    fs.write_bytes("/workspace/a/f", b"x\n")
    fs.symlink("..", "/workspace/a/b/up")
    out, err, status = run_cmd(["grep", "-R", "x", "a"], fs=fs)
    assert (out, status) == ("a/f:x\n", 0)
    assert err == "grep: a/b/up: warning: recursive directory loop\n"
    out, err, status = run_cmd(["grep", "-r", "x", "a"], fs=fs)
    assert (out, err, status) == ("a/f:x\n", "", 0)


def test_endless_input_without_newlines_fails_cleanly(monkeypatch):
    """/dev/zero has no newlines: the tools stop with an error instead of eating memory."""
    from sandbox_kernel.commands._lib import lineblocks as _lineblocks
    monkeypatch.setattr(_lineblocks, "MAX_LINE", 1 << 20)
    from sandbox_kernel.commands.awk import runtime as awk_runtime
    monkeypatch.setattr(awk_runtime, "MAX_LINE", 1 << 20)
    for argv, message in ((["grep", "x", "/dev/zero"], "grep: memory exhausted\n"),
                          (["grep", "-C1", "x", "/dev/zero"], "grep: memory exhausted\n"),
                          (["sed", "p", "/dev/zero"], "sed: couldn't re-allocate memory\n"),
                          (["sed", "s/a/b/g", "/dev/zero"], "sed: couldn't re-allocate memory\n"),
                          (["awk", "{ n++ }", "/dev/zero"], None)):
        out, err, status = run_cmd(argv)
        assert status in (2, 4) and out == "", argv
        assert err == message if message else "record too long" in err, (argv, err)


def test_utf8_split_across_reads_keeps_characters():
    utf8 = dict(DEFAULT_ENV, LC_ALL="C.UTF-8")
    text = ("\u00e9" * 40000 + "\n") * 3  # 80 000 bytes per line: reads split characters
    out, _, _ = run_cmd(["awk", "{ print length($0) }"], stdin=text.encode(), env=utf8)
    assert out == "40000\n" * 3
    out, _, _ = run_cmd(["grep", "-c", "^\u00e9*$"], stdin=text.encode(), env=utf8)
    assert out == "3\n"
    out, _, _ = run_cmd(["sed", "-n", "s/\u00e9\u00e9/x/gp"], stdin=text.encode(), env=utf8)
    assert out == ("x" * 20000 + "\n") * 3


@pytest.mark.parametrize("argv", [
    ["grep", "-o", "caf.", "utf"],
    ["grep", "-c", "^[0-9]* caf.\\{2\\} ", "utf"],
    ["grep", "-ob", "na.", "utf"],
    ["grep", "-w", "-c", "caf", "utf"],
    ["grep", "-i", "-c", "CAF\u00c9", "utf"],
])
def test_grep_c_locale_is_bytes_like_gnu(argv):
    assert_like_gnu(argv, {"utf": UTF})


EDGE_FILES = {"t": b"foo bar\nfoobar\n\nFOO\nbar-foo\nfoo_bar\n  foo\nx\n", "e": b"", "n": b"a\nb",
              "crlf": b"foo\r\nbar\r\n"}
EDGE_CASES = [
 ["grep", "-w", "foo", "t"], ["grep", "-w", "", "t"], ["grep", "-wo", "foo", "t"],
 ["grep", "-x", "-e", "", "-e", "x", "t"],
 ["grep", "-e", "", "-e", "x", "-c", "t"], ["grep", "-v", "-e", "foo", "-e", "bar", "t"],
 ["grep", "-i", "-o", "FOO", "t"],
 ["grep", "-c", "", "e"], ["grep", "", "e"], ["grep", "-L", "", "e"], ["grep", "-l", "", "e"], ["grep", "b", "n"],
 ["grep", "-c", "b$", "n"],
 ["grep", "-v", "x", "n"], ["grep", "foo$", "crlf"], ["grep", "-c", "\\r$", "crlf"], ["grep", "-ow", "o*", "t"],
 ["grep", "-E", "^(foo|bar)", "t"], ["grep", "-E", "o{2,}b", "t"], ["grep", "-F", "-x", "foo", "t"],
 ["grep", "-F", "-w", "-i", "FOO", "t"],
 ["grep", "-n", "-v", "foo", "t"], ["grep", "-b", "-v", "foo", "t"], ["grep", "-c", "-v", "-x", "", "t"],
 ["grep", "-m1", "-c", "foo", "t"],
 ["grep", "-m2", "-o", "o", "t"], ["grep", "-A1", "-m1", "FOO", "t"], ["grep", "-h", "-c", "foo", "t", "n"],
 ["grep", "-H", "-c", "foo", "t"],
 ["grep", "-q", "-v", "zzz", "t"], ["grep", "-s", "x", "nothere", "t"], ["grep", "-E", "(", "t"],
 ["grep", "-E", "a{1,2}{3}", "t"],
 ["grep", "-P", "\\bfoo\\b", "t"], ["grep", "-P", "(?i)^foo$", "t"], ["grep", "-oP", "fo+(?=bar)", "t"],
 ["grep", "-cP", "\\d", "t"],
 ["grep", "-F", "", "t"], ["grep", "-Fc", "-e", "foo", "-e", "", "t"], ["grep", "--", "-x", "t"],
 ["grep", "-e", "-x", "t"],
 ["grep", "[[:space:]]foo", "t"], ["grep", "\\sfoo", "t"], ["grep", "\\Sbar", "t"], ["grep", "\\W", "t"],
 ["grep", "-c", "\\w\\+", "t"],
 ["grep", "-o", "\\<f", "t"], ["grep", "-o", "o\\>", "t"], ["grep", "\\bbar", "t"], ["grep", "-o", "\\Bo", "t"],
 ["grep", "foo\\|^x", "t"], ["grep", "-E", "foo|^x$", "t"], ["grep", "-c", "^", "t"], ["grep", "-c", "$", "n"],
 ["grep", "-o", "", "t"], ["grep", "-ob", "o", "n"], ["grep", "-z", "-c", "foo", "t"], ["grep", "-zo", "fo*", "t"],
 ["grep", "-r", "foo", "t"], ["grep", "-y", "FOO", "t"], ["grep", "--no-ignore-case", "-i", "FOO", "t"],
 ["grep", "-i", "--no-ignore-case", "FOO", "t"],
 ["grep", "--line-buffered", "foo", "t"], ["grep", "-U", "foo", "crlf"], ["grep", "--binary-files=text", "foo", "t"],
 ["grep", "-d", "skip", "foo", "t"], ["grep", "--null", "-c", "foo", "t", "n"], ["grep", "--label=L", "-H", "x", "-"],
]


@pytest.mark.parametrize("argv", EDGE_CASES, ids=[" ".join(c[1:]) for c in EDGE_CASES])
def test_grep_edges_like_gnu(argv):
    assert_like_gnu(argv, EDGE_FILES, stdin="x\ny\n")


@pytest.mark.parametrize("args", [[], ["-v"], ["-H"], ["-vH"], ["-x"], ["-w"], ["-i"], ["-F"], ["-c"]])
def test_blocks_of_few_and_many_selected_lines(args):
    """Plain output switches per block between a search per selected line and one regex call
    for all of them (dense): regions where few, most and no lines match give the lines a
    line-by-line filter gives, in order, across block ends (blocks are 64 KiB)."""
    import random
    import re

    rng = random.Random(18)
    words = ["ab", "x", "xy", "X", "foo", "a.b", "", "x x"]
    lines = []
    for share in (0.01, 0.9, 0.0, 0.5, 1.0, 0.05) * 4:
        for _ in range(rng.randint(2000, 9000)):
            rest = " ".join(rng.choice(words[:2] + words[3:]).replace("x", "q") for _ in range(rng.randint(0, 5)))
            lines.append(rng.choice(words) + " " + rest if rng.random() < share else rest)
    fs = new_fs()
    fs.write_bytes("/workspace/big", "\n".join(lines).encode() + b"\n")
    out, err, status = run_cmd(["grep", *args, "x", "big"], fs=fs)
    flags = "".join(a.lstrip("-") for a in args)
    rx = re.compile(r"(?<!\w)x(?!\w)" if "w" in flags else "x", re.I if "i" in flags else 0)
    if "x" in flags:
        selected = [line for line in lines if (line == "x") != ("v" in flags)]
    else:
        selected = [line for line in lines if bool(rx.search(line)) != ("v" in flags)]
    prefix = "big:" if "H" in flags else ""
    want = f"{len(selected)}\n" if "c" in flags else "".join(f"{prefix}{line}\n" for line in selected)
    assert (out, err, status) == (want, "", 0 if selected else 1)
