"""diff (the Myers engine, GNU hunk placement and formats), cmp, and diff|patch round trips."""
import random

import pytest

from sandbox_kernel.commands._lib.diffcore import diff_sequences
from tests.support.prereqs import host_tool

from .helpers import assert_like_gnu, new_fs, random_edits, run_cmd_bytes

A = b"a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
B = b"a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk"


@pytest.fixture
def fs():
    fs = new_fs()
    fs.write_bytes("/workspace/f1", A)
    fs.write_bytes("/workspace/f2", B)
    return fs


def test_normal_format(fs):
    out, err, status = run_cmd_bytes(["diff", "f1", "f2"], fs=fs)
    assert status == 1 and err == b""
    assert out == (b"2c2\n< b\n---\n> B\n9c9\n< i\n---\n> I\n10a11\n> k\n"
                   b"\\ No newline at end of file\n")


def test_unified_and_context_with_labels(fs):
    out = run_cmd_bytes(["diff", "-u", "--label", "A", "--label", "B", "f1", "f2"], fs=fs)[0]
    # GNU diff's output for these files
    assert out == (b"--- A\n+++ B\n@@ -1,10 +1,11 @@\n a\n-b\n+B\n c\n d\n e\n f\n g\n h\n-i\n+I\n"
                   b" j\n+k\n\\ No newline at end of file\n")
    out = run_cmd_bytes(["diff", "-U0", "--label", "A", "--label", "B", "f1", "f2"], fs=fs)[0]
    assert out.startswith(b"--- A\n+++ B\n@@ -2 +2 @@\n-b\n+B\n@@ -9 +9 @@\n")
    out = run_cmd_bytes(["diff", "-c", "--label", "A", "--label", "B", "f1", "f2"], fs=fs)[0]
    assert out.startswith(b"*** A\n--- B\n***************\n*** 1,10 ****\n  a\n! b\n")


def test_unified_header_has_mtime_stamp(fs):
    fs.utime("/workspace/f1", 0)
    out = run_cmd_bytes(["diff", "-u", "f1", "f2"], fs=fs, env={"TZ": "UTC"})[0]
    assert out.startswith(b"--- f1\t1970-01-01 00:00:00.000000000 +0000\n+++ f2\t")


def test_brief_identical_and_errors(fs):
    assert run_cmd_bytes(["diff", "-q", "f1", "f2"], fs=fs) == (b"Files f1 and f2 differ\n", b"", 1)
    assert run_cmd_bytes(["diff", "-s", "f1", "f1"], fs=fs) == (b"Files f1 and f1 are identical\n", b"", 0)
    assert run_cmd_bytes(["diff", "f1", "f1"], fs=fs) == (b"", b"", 0)
    assert run_cmd_bytes(["diff", "f1", "nope"], fs=fs) == (b"", b"diff: nope: No such file or directory\n", 2)
    assert run_cmd_bytes(["diff", "f1"], fs=fs) == (
        b"", b"diff: missing operand after 'f1'\ndiff: Try 'diff --help' for more information.\n", 2)
    fs.write_bytes("/workspace/bin", b"x\0y")
    assert run_cmd_bytes(["diff", "bin", "f1"], fs=fs) == (b"Binary files bin and f1 differ\n", b"", 1)


def test_whitespace_and_case_options():
    fs = new_fs()
    fs.write_bytes("/workspace/w1", b"hello  world\nfoo\n\nbar \n")
    fs.write_bytes("/workspace/w2", b"hello world\nFOO\nbar\n")
    assert run_cmd_bytes(["diff", "-w", "-i", "-B", "w1", "w2"], fs=fs) == (b"", b"", 0)
    assert run_cmd_bytes(["diff", "-b", "w1", "w2"], fs=fs)[0] == b"2,3c2\n< foo\n< \n---\n> FOO\n"


def test_directories_recursive_and_new_file():
    fs = new_fs()
    for path, data in {"d1/x": b"a\n", "d2/x": b"b\n", "d1/only": b"o\n", "d1/sub/f": b"s\n",
                       "d2/sub/f": b"t\n", "d1/same": b"q\n", "d2/same": b"q\n"}.items():
        fs.mkdir("/workspace/" + path.rsplit("/", 1)[0], parents=True, exist_ok=True)
        fs.write_bytes("/workspace/" + path, data)
    assert run_cmd_bytes(["diff", "d1", "d2"], fs=fs)[0] == (
        b"Only in d1: only\nCommon subdirectories: d1/sub and d2/sub\n"
        b"diff d1/x d2/x\n1c1\n< a\n---\n> b\n")
    assert run_cmd_bytes(["diff", "-rq", "d1", "d2"], fs=fs)[0] == (
        b"Only in d1: only\nFiles d1/sub/f and d2/sub/f differ\nFiles d1/x and d2/x differ\n")
    out = run_cmd_bytes(["diff", "-rN", "d1", "d2"], fs=fs)[0]
    assert b"diff -rN d1/only d2/only\n1d0\n< o\n" in out


def _normal(a, b):
    out = []
    for c in diff_sequences(a, b):
        out.append((c.a_start, c.a_count, c.b_start, c.b_count))
    return out


def _apply(a, b, changes):
    result, pos = [], 0
    for a0, na, b0, nb in changes:
        result += a[pos:a0] + b[b0:b0 + nb]
        pos = a0 + na
    return result + a[pos:]


@pytest.mark.parametrize("seed", range(5))
def test_engine_edit_script_is_valid_and_minimal(seed):
    rng = random.Random(seed)
    for _ in range(60):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 25))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 25))]
        changes = _normal(a, b)
        assert _apply(a, b, changes) == b
        # minimal: edit count equals len(a) + len(b) - 2 * LCS
        lcs = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i in range(len(a) - 1, -1, -1):
            for j in range(len(b) - 1, -1, -1):
                lcs[i][j] = lcs[i + 1][j + 1] + 1 if a[i] == b[j] else max(lcs[i + 1][j], lcs[i][j + 1])
        assert sum(na + nb for _, na, _, nb in changes) == len(a) + len(b) - 2 * lcs[0][0]


@host_tool("diff")
def test_same_output_as_gnu_diff_on_text_edits():
    rng = random.Random(42)
    words = [f"line {i}" for i in range(30)]
    for _ in range(40):
        a = [rng.choice(words) for _ in range(rng.randint(0, 30))]
        b = random_edits(rng, a, words, rng.randint(0, 6))
        files = {"a": "".join(x + "\n" for x in a), "b": "".join(x + "\n" for x in b)}
        for opts in ([], ["-u", "--label", "x", "--label", "y"], ["-U1", "--label", "x", "--label", "y"]):
            assert_like_gnu(["diff", *opts, "a", "b"], files)


def test_cmp_messages_and_status():
    fs = new_fs()
    fs.write_bytes("/workspace/c1", b"1\n2\n3\n")
    fs.write_bytes("/workspace/c2", b"1\n2\n")
    fs.write_bytes("/workspace/c3", b"1\nX\n3\n")
    assert run_cmd_bytes(["cmp", "c1", "c1"], fs=fs) == (b"", b"", 0)
    assert run_cmd_bytes(["cmp", "c1", "c3"], fs=fs) == (b"c1 c3 differ: char 3, line 2\n", b"", 1)
    assert run_cmd_bytes(["cmp", "c1", "c3"], fs=fs, env={"LANG": "C.UTF-8"})[0] == b"c1 c3 differ: byte 3, line 2\n"
    assert run_cmd_bytes(["cmp", "c1", "c2"], fs=fs) == (b"", b"cmp: EOF on c2 after byte 4, line 2\n", 1)
    assert run_cmd_bytes(["cmp", "-l", "c1", "c3"], fs=fs)[0] == b"3  62 130\n"
    assert run_cmd_bytes(["cmp", "-b", "c1", "c3"], fs=fs)[0] == b"c1 c3 differ: byte 3, line 2 is  62 2 130 X\n"
    assert run_cmd_bytes(["cmp", "-s", "c1", "c3"], fs=fs) == (b"", b"", 1)
    assert run_cmd_bytes(["cmp", "-n", "2", "c1", "c3"], fs=fs)[2] == 0
    assert run_cmd_bytes(["cmp", "c1", "nope"], fs=fs) == (b"", b"cmp: nope: No such file or directory\n", 2)
    assert run_cmd_bytes(["cmp", "-"], stdin=b"x", fs=fs)[2] == 0


def test_side_by_side_layout():
    fs = new_fs()
    fs.write_bytes("/workspace/y1", b"a\n\tb\nc\n" + b"x" * 70 + b"\n")
    fs.write_bytes("/workspace/y2", b"a\n\tB\nc\nnew\n")
    out, _, status = run_cmd_bytes(["diff", "-y", "y1", "y2"], fs=fs)
    # measured with GNU diff 3.8: tabs fill to the gutter at column 62, right column at 64
    assert status == 1 and out == (b"a" + b"\t" * 8 + b"a\n"
                                   b"\tb" + b"\t" * 6 + b"      |\t\tB\n"
                                   b"c" + b"\t" * 8 + b"c\n" + b"x" * 61 + b" |\tnew\n")
    out = run_cmd_bytes(["diff", "-y", "--suppress-common-lines", "-W", "40", "y1", "y2"], fs=fs)[0]
    assert out == b"\tb\t   |\t\tB\n" + b"x" * 16 + b"   |\tnew\n"
