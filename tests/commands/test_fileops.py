"""cp, mv, rm, mkdir, rmdir, touch, ln, truncate, mkfifo over the VFS."""
from __future__ import annotations

import stat

import pytest

from .helpers import new_fs, run_cmd
from sandbox_kernel.commands._lib.dates import DateError, parse_timestamp


@pytest.fixture
def fs():
    fs = new_fs()
    fs.write_bytes("/workspace/f", b"hello\n")
    fs.mkdir("/workspace/d")
    fs.mkdir("/workspace/e/d/x", parents=True)
    return fs


def ok(argv, fs, out=""):
    got = run_cmd(argv, fs=fs)
    assert got == (out, "", 0), got


# ------------------------------------------------------------------ rm
def test_rm_messages(fs):
    assert run_cmd(["rm"], fs=fs) == ("", "rm: missing operand\nTry 'rm --help' for more information.\n", 1)
    assert run_cmd(["rm", "-f"], fs=fs) == ("", "", 0)
    assert run_cmd(["rm", "nope"], fs=fs) == ("", "rm: cannot remove 'nope': No such file or directory\n", 1)
    assert run_cmd(["rm", "-f", "nope"], fs=fs) == ("", "", 0)
    assert run_cmd(["rm", "d"], fs=fs) == ("", "rm: cannot remove 'd': Is a directory\n", 1)
    assert run_cmd(["rm", "-d", "e"], fs=fs) == ("", "rm: cannot remove 'e': Directory not empty\n", 1)
    assert run_cmd(["rm", "-r", "."], fs=fs)[1] == "rm: refusing to remove '.' or '..' directory: skipping '.'\n"
    _, err, status = run_cmd(["rm", "-rf", "/"], fs=fs)
    assert err == ("rm: it is dangerous to operate recursively on '/'\n"
                   "rm: use --no-preserve-root to override this failsafe\n") and status == 1


def test_rm_verbose_recursive(fs):
    fs.write_bytes("/workspace/e/d/x/file", b"")
    out, err, status = run_cmd(["rm", "-rv", "e"], fs=fs)
    assert out == ("removed 'e/d/x/file'\nremoved directory 'e/d/x'\nremoved directory 'e/d'\n"
                   "removed directory 'e'\n")
    assert status == 0 and not fs.exists("/workspace/e")
    ok(["rm", "-dv", "d"], fs, "removed directory 'd'\n")


def test_rm_permission_denied_in_system_dir(fs):
    assert run_cmd(["rm", "/etc/passwd"], fs=fs) == (
        "", "rm: cannot remove '/etc/passwd': Permission denied\n", 1)


def test_rm_symlink_not_target(fs):
    fs.symlink("d", "/workspace/l")
    ok(["rm", "l"], fs)
    assert fs.is_dir("/workspace/d")


# ------------------------------------------------------------------ mkdir / rmdir
def test_mkdir(fs):
    assert run_cmd(["mkdir"], fs=fs)[2] == 1
    assert run_cmd(["mkdir", "d"], fs=fs) == ("", "mkdir: cannot create directory 'd': File exists\n", 1)
    ok(["mkdir", "-pv", "a/b/c"], fs, "mkdir: created directory 'a'\nmkdir: created directory 'a/b'\n"
                                      "mkdir: created directory 'a/b/c'\n")
    ok(["mkdir", "-p", "a/b/c", "d"], fs)
    assert run_cmd(["mkdir", "x/y"], fs=fs) == (
        "", "mkdir: cannot create directory 'x/y': No such file or directory\n", 1)
    ok(["mkdir", "-m", "700", "m"], fs)
    assert fs.stat("/workspace/m").st_mode & 0o7777 == 0o700
    ok(["mkdir", "-m", "u=rwx,go=x", "m2"], fs)
    assert fs.stat("/workspace/m2").st_mode & 0o7777 == 0o711
    assert run_cmd(["mkdir", "-m", "zz", "q"], fs=fs) == ("", "mkdir: invalid mode 'zz'\n", 1)
    assert run_cmd(["mkdir", "/etc/x"], fs=fs)[1] == "mkdir: cannot create directory '/etc/x': Permission denied\n"


def test_rmdir(fs):
    assert run_cmd(["rmdir", "e"], fs=fs) == ("", "rmdir: failed to remove 'e': Directory not empty\n", 1)
    assert run_cmd(["rmdir", "f"], fs=fs) == ("", "rmdir: failed to remove 'f': Not a directory\n", 1)
    ok(["rmdir", "-pv", "e/d/x"], fs, "rmdir: removing directory, 'e/d/x'\nrmdir: removing directory, 'e/d'\n"
                                      "rmdir: removing directory, 'e'\n")
    fs.write_bytes("/workspace/d/keep", b"")
    ok(["rmdir", "--ignore-fail-on-non-empty", "d"], fs)
    assert fs.exists("/workspace/d/keep")


# ------------------------------------------------------------------ touch
def test_touch_create_and_times(fs):
    ok(["touch", "new"], fs)
    assert fs.read_bytes("/workspace/new") == b""
    ok(["touch", "-c", "absent"], fs)
    assert not fs.exists("/workspace/absent")
    ok(["touch", "-d", "2020-01-01 12:00:00", "f"], fs)
    assert fs.stat("/workspace/f").st_mtime == 1577880000.0
    ok(["touch", "-t", "202001011200.30", "f"], fs)
    assert fs.stat("/workspace/f").st_mtime == 1577880030.0
    ok(["touch", "-d", "@100", "new"], fs)
    ok(["touch", "-r", "new", "f"], fs)
    assert fs.stat("/workspace/f").st_mtime == 100.0
    ok(["touch", "-m", "-d", "@200", "f"], fs)
    s = fs.stat("/workspace/f")
    assert (s.st_mtime, s.st_atime) == (200.0, 100.0)
    ok(["touch", "-a", "-d", "@300", "f"], fs)
    s = fs.stat("/workspace/f")
    assert (s.st_mtime, s.st_atime) == (200.0, 300.0)


def test_touch_errors(fs):
    assert run_cmd(["touch", "x/y"], fs=fs) == ("", "touch: cannot touch 'x/y': No such file or directory\n", 1)
    assert run_cmd(["touch", "-d", "garbage", "f"], fs=fs) == ("", "touch: invalid date format 'garbage'\n", 1)
    assert run_cmd(["touch", "/etc/new"], fs=fs) == ("", "touch: cannot touch '/etc/new': Permission denied\n", 1)
    assert run_cmd(["touch"], fs=fs)[1].startswith("touch: missing file operand\n")


# ------------------------------------------------------------------ ln
def test_ln(fs):
    ok(["ln", "-s", "f", "l"], fs)
    assert fs.readlink("/workspace/l") == "f"
    assert run_cmd(["ln", "-s", "f", "l"], fs=fs) == ("", "ln: failed to create symbolic link 'l': File exists\n", 1)
    assert run_cmd(["ln", "f", "l"], fs=fs) == ("", "ln: failed to create hard link 'l': File exists\n", 1)
    assert run_cmd(["ln", "e", "hl"], fs=fs) == ("", "ln: e: hard link not allowed for directory\n", 1)
    ok(["ln", "-sv", "f", "l2"], fs, "'l2' -> 'f'\n")
    ok(["ln", "-v", "f", "hl"], fs, "'hl' => 'f'\n")
    assert fs.stat("/workspace/f").st_nlink == 2
    assert run_cmd(["ln", "nope", "h3"], fs=fs) == ("", "ln: failed to access 'nope': No such file or directory\n", 1)
    assert run_cmd(["ln", "-s", "a", "b", "c"], fs=fs) == ("", "ln: target 'c': No such file or directory\n", 1)
    ok(["ln", "-sf", "d", "l"], fs)
    assert fs.readlink("/workspace/l") == "d"
    ok(["ln", "-s", "/workspace/f", "d"], fs)          # into a directory
    assert fs.readlink("/workspace/d/f") == "/workspace/f"
    # -n: a symlink to a directory is replaced, not entered
    ok(["ln", "-sfn", "e", "l"], fs)
    assert fs.readlink("/workspace/l") == "e"
    ok(["ln", "-sr", "/workspace/e/d", "/workspace/d/rel"], fs)
    assert fs.readlink("/workspace/d/rel") == "../e/d"


def test_ln_single_operand_links_into_cwd(fs):
    ok(["ln", "-s", "/etc/hostname"], fs)
    assert fs.readlink("/workspace/hostname") == "/etc/hostname"


# ------------------------------------------------------------------ cp
def test_cp_messages(fs):
    assert run_cmd(["cp"], fs=fs) == ("", "cp: missing file operand\nTry 'cp --help' for more information.\n", 1)
    assert run_cmd(["cp", "f"], fs=fs)[1].startswith("cp: missing destination file operand after 'f'\n")
    assert run_cmd(["cp", "nope", "z"], fs=fs) == ("", "cp: cannot stat 'nope': No such file or directory\n", 1)
    assert run_cmd(["cp", "e", "z"], fs=fs) == ("", "cp: -r not specified; omitting directory 'e'\n", 1)
    assert run_cmd(["cp", "f", "f"], fs=fs) == ("", "cp: 'f' and 'f' are the same file\n", 1)
    assert run_cmd(["cp", "-r", "e", "e/d"], fs=fs) == (
        "", "cp: cannot copy a directory, 'e', into itself, 'e/d/e'\n", 1)
    assert run_cmd(["cp", "f", "f", "h"], fs=fs) == ("", "cp: target 'h': No such file or directory\n", 1)
    assert run_cmd(["cp", "-r", "e", "f"], fs=fs) == (
        "", "cp: cannot overwrite non-directory 'f' with directory 'e'\n", 1)
    assert run_cmd(["cp", "f", "d", "f"], fs=fs)[1] == "cp: target 'f': Not a directory\n"
    assert run_cmd(["cp", "f", "nodir/"], fs=fs)[1] == "cp: cannot create regular file 'nodir/': Not a directory\n"


def test_cp_copies_content_modes_and_trees(fs):
    ok(["cp", "-v", "f", "g"], fs, "'f' -> 'g'\n")
    assert fs.read_bytes("/workspace/g") == b"hello\n"
    ok(["cp", "f", "d"], fs)
    assert fs.read_bytes("/workspace/d/f") == b"hello\n"
    fs.write_bytes("/workspace/e/d/x/deep", b"deep")
    fs.symlink("deep", "/workspace/e/d/x/link")
    ok(["cp", "-r", "e", "copy"], fs)
    assert fs.read_bytes("/workspace/copy/d/x/deep") == b"deep"
    assert fs.readlink("/workspace/copy/d/x/link") == "deep"   # -r copies symlinks as links
    ok(["cp", "-rv", "e/d/x", "d/"], fs, "'e/d/x' -> 'd/x'\n'e/d/x/deep' -> 'd/x/deep'\n'e/d/x/link' -> 'd/x/link'\n")
    fs.chmod("/workspace/f", 0o751)
    fs.utime("/workspace/f", 1000.0)
    ok(["cp", "-p", "f", "p"], fs)
    s = fs.stat("/workspace/p")
    assert (s.st_mode & 0o777, s.st_mtime) == (0o751, 1000.0)
    ok(["cp", "f", "plain"], fs)
    assert fs.stat("/workspace/plain").st_mode & 0o777 == 0o751 & ~0o022
    assert fs.stat("/workspace/plain").st_mtime != 1000.0
    ok(["cp", "-a", "e", "arch"], fs)
    assert fs.readlink("/workspace/arch/d/x/link") == "deep"


def test_cp_no_clobber_update_target_dir(fs):
    fs.write_bytes("/workspace/g", b"old")
    ok(["cp", "-n", "f", "g"], fs)
    assert fs.read_bytes("/workspace/g") == b"old"
    ok(["cp", "-t", "d", "f", "g"], fs)
    assert fs.listdir("/workspace/d") == ["f", "g"]
    ok(["cp", "-T", "f", "d2"], fs)
    assert fs.read_bytes("/workspace/d2") == b"hello\n"
    fs.utime("/workspace/g", 10.0)
    fs.utime("/workspace/f", 5.0)
    ok(["cp", "-u", "f", "g"], fs)
    assert fs.read_bytes("/workspace/g") == b"old"


def test_cp_follows_symlink_source_without_r(fs):
    fs.symlink("f", "/workspace/l")
    ok(["cp", "l", "copy"], fs)
    assert fs.lstat("/workspace/copy").type == "file"
    ok(["cp", "-P", "l", "copy2"], fs)
    assert fs.readlink("/workspace/copy2") == "f"


def test_cp_over_quota_reports_enospc():
    fs = new_fs()
    fs.max_bytes = fs.bytes_used + 100
    fs.write_bytes("/workspace/f", b"x" * 60)
    out, err, status = run_cmd(["cp", "f", "g"], fs=fs)
    assert err == "cp: error writing 'g': No space left on device\n" and status == 1


# ------------------------------------------------------------------ mv
def test_mv(fs):
    assert run_cmd(["mv", "nope", "z"], fs=fs) == ("", "mv: cannot stat 'nope': No such file or directory\n", 1)
    assert run_cmd(["mv", "e", "e/d"], fs=fs) == (
        "", "mv: cannot move 'e' to a subdirectory of itself, 'e/d/e'\n", 1)
    ok(["mv", "-v", "f", "g"], fs, "renamed 'f' -> 'g'\n")
    assert run_cmd(["mv", "g", "g"], fs=fs) == ("", "mv: 'g' and 'g' are the same file\n", 1)
    ok(["mv", "g", "d"], fs)
    assert fs.read_bytes("/workspace/d/g") == b"hello\n"
    ok(["mv", "d", "e/d/x"], fs)
    assert fs.exists("/workspace/e/d/x/d/g")
    fs.write_bytes("/workspace/a", b"A")
    fs.write_bytes("/workspace/b", b"B")
    ok(["mv", "-n", "a", "b"], fs)
    assert fs.read_bytes("/workspace/b") == b"B"
    ok(["mv", "-f", "a", "b"], fs)
    assert fs.read_bytes("/workspace/b") == b"A" and not fs.exists("/workspace/a")
    fs.mkdir("/workspace/dir")
    fs.mkdir("/workspace/e2/dir", parents=True)
    fs.write_bytes("/workspace/e2/dir/x", b"")
    assert run_cmd(["mv", "b", "e2/dir"], fs=fs) == ("", "", 0)
    assert run_cmd(["mv", "-T", "dir", "e2/dir"], fs=fs)[1] == \
        "mv: cannot move 'dir' to 'e2/dir': Directory not empty\n"
    assert run_cmd(["mv", "/etc/passwd", "x"], fs=fs)[1] == \
        "mv: cannot move '/etc/passwd' to 'x': Permission denied\n"


# ------------------------------------------------------------------ truncate, sync, mkfifo
def test_truncate(fs):
    ok(["truncate", "-s", "3", "f"], fs)
    assert fs.read_bytes("/workspace/f") == b"hel"
    ok(["truncate", "-s", "+2", "f"], fs)
    assert fs.read_bytes("/workspace/f") == b"hel\0\0"
    ok(["truncate", "-s", "1K", "new"], fs)
    assert fs.stat("/workspace/new").st_size == 1024
    ok(["truncate", "-s", "%1000", "f"], fs)
    assert fs.stat("/workspace/f").st_size == 1000
    ok(["truncate", "-c", "-s", "0", "absent"], fs)
    assert not fs.exists("/workspace/absent")
    assert run_cmd(["truncate", "f"], fs=fs)[1].startswith(
        "truncate: you must specify either '--size' or '--reference'\n")


def test_sync_and_mkfifo(fs):
    ok(["sync"], fs)
    assert run_cmd(["mkfifo", "p"], fs=fs) == ("", "", 0)
    assert stat.S_ISFIFO(fs.stat("/workspace/p").st_mode)
    assert run_cmd(["mkfifo", "-m", "600", "q"], fs=fs) == ("", "", 0)
    assert stat.S_IMODE(fs.stat("/workspace/q").st_mode) == 0o600
    assert run_cmd(["mkfifo", "p"], fs=fs) == ("", "mkfifo: cannot create fifo 'p': File exists\n", 1)
    assert run_cmd(["mkfifo", "-m", "zz", "r"], fs=fs) == ("", "mkfifo: invalid mode\n", 1)


@pytest.mark.parametrize("text,want", [
    # expectations computed with GNU date -d (TZ=UTC) at now = 2026-12-02 17:00:00 (a Wednesday)
    ("2020-01-02 03:04:05", 1577934245), ("2020-01-02T03:04:05Z", 1577934245),
    ("2020-01-02 03:04:05 +0200", 1577927045), ("@1600000000", 1600000000),
    ("yesterday", 1796144400), ("2 days ago", 1796058000), ("-2 hours", 1796223600),
    ("1 month ago", 1793638800), ("Jan 2 2020", 1577923200), ("2 Jan 2020", 1577923200),
    ("01/02/2020", 1577923200), ("20200102", 1577923200), ("10am", 1796205600),
    ("3:30pm", 1796225400), ("friday", 1796342400), ("last friday", 1795737600),
    ("next monday", 1796601600), ("Thu, 02 Jan 2020 10:00:00 +0000", 1577959200),
    ("1 year ago 2020-01-01", 1546300800), ("2020-01-02 + 1 day", 1578009600),
    ("garbage", None), ("2020-02-30", None), ("25:00", None),
])
def test_parse_date_forms(text, want):
    if want is None:
        with pytest.raises(DateError):
            parse_timestamp(text, {"TZ": "UTC"}, now=1796230800.0)
    else:
        assert parse_timestamp(text, {"TZ": "UTC"}, now=1796230800.0) == want
