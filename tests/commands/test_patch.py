"""patch: applying unified diffs made by our diff (round trips) and GNU's messages."""
import random

import pytest

from .helpers import new_fs, random_edits, run_cmd_bytes

P1 = b"a\nb\nc\nd\ne\nf\ng\nh\n"
P2 = b"a\nB\nc\nd\ne\nf\ng\nH\n"


def _diff(fs, a, b):
    return run_cmd_bytes(["diff", "-u", "--label", a, "--label", b, a, b], fs=fs)[0]


@pytest.mark.parametrize("seed", range(4))
def test_diff_patch_round_trip(seed):
    rng = random.Random(seed)
    words = [f"w{i}\n".encode() for i in range(12)]
    for _ in range(15):
        a = b"".join(rng.choice(words) for _ in range(rng.randint(0, 30)))
        b = b"".join(random_edits(rng, a.splitlines(keepends=True), words, rng.randint(1, 5)))
        if rng.random() < 0.3 and b:
            b = b.rstrip(b"\n")  # also exercise "\ No newline at end of file"
        fs = new_fs()
        fs.write_bytes("/workspace/old", a)
        fs.write_bytes("/workspace/new", b)
        patch = _diff(fs, "old", "new")
        out, err, status = run_cmd_bytes(["patch", "old"], stdin=patch, fs=fs)
        assert (err, status) == (b"", 0), out
        assert fs.read_bytes("/workspace/old") == b
        out, err, status = run_cmd_bytes(["patch", "-R", "old"], stdin=patch, fs=fs)
        assert status == 0 and fs.read_bytes("/workspace/old") == a


def test_offsets_failures_rejects_and_backups():
    fs = new_fs()
    fs.write_bytes("/workspace/p1", P1)
    fs.write_bytes("/workspace/p2", P2)
    patch = _diff(fs, "p1", "p2")
    fs.write_bytes("/workspace/p.diff", patch)
    fs.write_bytes("/workspace/t", b"z\nz\n" + P1)
    assert run_cmd_bytes(["patch", "t", "p.diff"], fs=fs) == (
        b"patching file t\nHunk #1 succeeded at 3 (offset 2 lines).\n", b"", 0)
    assert fs.read_bytes("/workspace/t") == b"z\nz\n" + P2
    assert fs.read_bytes("/workspace/t.orig") == b"z\nz\n" + P1
    out, _, status = run_cmd_bytes(["patch", "-N", "t", "p.diff"], fs=fs)
    assert status == 1 and b"Reversed (or previously applied) patch detected!  Skipping patch." in out
    fs.write_bytes("/workspace/q", b"q\n")
    out, _, status = run_cmd_bytes(["patch", "q", "p.diff"], fs=fs)
    assert (out, status) == (b"patching file q\nHunk #1 FAILED at 1.\n"
                             b"1 out of 1 hunk FAILED -- saving rejects to file q.rej\n", 1)
    assert fs.read_bytes("/workspace/q.rej") == patch


def test_tree_patch_creates_and_deletes_files_with_strip():
    fs = new_fs()
    for path, data in {"a/f": b"old\n", "a/gone": b"bye\n", "b/f": b"new\n", "b/made/new": b"x\n"}.items():
        fs.mkdir("/workspace/" + path.rsplit("/", 1)[0], parents=True, exist_ok=True)
        fs.write_bytes("/workspace/" + path, data)
    tree = run_cmd_bytes(["diff", "-ruN", "a", "b"], fs=fs)[0]
    fs.mkdir("/workspace/work")
    fs.write_bytes("/workspace/work/f", b"old\n")
    fs.write_bytes("/workspace/work/gone", b"bye\n")
    out, err, status = run_cmd_bytes(["patch", "-p1"], stdin=tree, fs=fs, cwd="/workspace/work")
    assert (out, err, status) == (b"patching file f\npatching file gone\npatching file made/new\n", b"", 0)
    assert sorted(fs.listdir("/workspace/work")) == ["f", "made"]
    assert fs.read_bytes("/workspace/work/made/new") == b"x\n"
    out, err, status = run_cmd_bytes(["patch", "-p1", "--dry-run", "-R"], stdin=tree, fs=fs, cwd="/workspace/work")
    assert status == 0 and out.startswith(b"checking file f\n")
    assert sorted(fs.listdir("/workspace/work")) == ["f", "made"]


def test_missing_file_and_garbage():
    fs = new_fs()
    out, err, status = run_cmd_bytes(["patch", "-p0"], stdin=b"--- x\n+++ x\n@@ -1 +1 @@\n-a\n+b\n", fs=fs)
    assert status == 1 and out.startswith(b"can't find file to patch at input line 3\n")
    assert run_cmd_bytes(["patch"], stdin=b"garbage\n", fs=fs) == (
        b"", b"patch: **** Only garbage was found in the patch input.\n", 2)


def test_normal_diff_needs_target_and_applies():
    fs = new_fs()
    fs.write_bytes("/workspace/a", b"".join(b"%d\n" % i for i in range(1, 11)))
    fs.write_bytes("/workspace/b", b"1\n2\nthree\n4\n5\n6\n8\n9\n10\neleven\n")
    normal = run_cmd_bytes(["diff", "a", "b"], fs=fs)[0]
    fs.write_bytes("/workspace/t", b"x\n" + fs.read_bytes("/workspace/a"))
    out, err, status = run_cmd_bytes(["patch", "t"], stdin=normal, fs=fs)
    assert (out, status) == (b"patching file t\nHunk #1 succeeded at 4 (offset 1 line).\n"
                             b"Hunk #2 succeeded at 8 (offset 1 line).\n"
                             b"Hunk #3 succeeded at 11 (offset 1 line).\n", 0)
    assert fs.read_bytes("/workspace/t") == b"x\n" + fs.read_bytes("/workspace/b")
    assert run_cmd_bytes(["patch"], stdin=normal, fs=fs)[2] == 2
