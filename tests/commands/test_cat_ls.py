"""cat and ls, run directly through the registry (no shell)."""
from __future__ import annotations

import asyncio

import pytest

from .helpers import DirectRunner, assert_like_gnu, new_fs, run_cmd, run_cmd_bytes


@pytest.fixture
def fs():
    fs = new_fs()
    fs.write_bytes("/workspace/x", b"a")
    fs.write_bytes("/workspace/y", b"b\n\n\n\nc\n")
    fs.mkdir("/workspace/d")
    return fs


def test_cat_concatenates_and_reads_stdin(fs):
    assert run_cmd(["cat", "x", "-", "y"], stdin="IN\n", fs=fs) == ("aIN\nb\n\n\n\nc\n", "", 0)


def test_cat_numbering_continues_across_files(fs):
    out, _, _ = run_cmd(["cat", "-n", "x", "y"], fs=fs)
    assert out == "     1\tab\n     2\t\n     3\t\n     4\t\n     5\tc\n"


def test_cat_nonblank_squeeze_and_ends(fs):
    out, _, _ = run_cmd(["cat", "-bsE", "y"], fs=fs)
    assert out == "     1\tb$\n$\n     2\tc$\n"


def test_cat_show_all_nonprinting():
    out, _, _ = run_cmd_bytes(["cat", "-A"], stdin=b"\x80\xff\x01\t\x7f\n")
    assert out == b"M-^@M-^?^A^I^?$\n"
    out, _, _ = run_cmd_bytes(["cat", "-v"], stdin=b"\t\x1b\n")
    assert out == b"\t^[\n"
    out, _, _ = run_cmd_bytes(["cat", "-T"], stdin=b"a\tb\n")
    assert out == b"a^Ib\n"


def test_cat_errors_keep_going(fs):
    out, err, status = run_cmd(["cat", "d", "nope", "a b", "x"], fs=fs)
    assert out == "a"
    assert err == ("cat: d: Is a directory\ncat: nope: No such file or directory\n"
                   "cat: 'a b': No such file or directory\n")
    assert status == 1


def test_cat_bad_option_exits_1():
    _, err, status = run_cmd(["cat", "-z"])
    assert err == "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n"
    assert status == 1
    _, err, status = run_cmd(["cat", "--foo"])
    assert err.startswith("cat: unrecognized option '--foo'\n") and status == 1


def test_cat_help():
    out, _, status = run_cmd(["cat", "--help"])
    assert out.startswith("Usage: cat [OPTION]... [FILE]...") and status == 0


def test_cat_binary_roundtrip():
    data = bytes(range(256)) * 3
    out, _, _ = run_cmd_bytes(["cat"], stdin=data)
    assert out == data


# ------------------------------------------------------------------ ls
NAMES = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
         "rho sigma tau upsilon").split()


@pytest.fixture
def lsfs():
    fs = new_fs()
    for n in NAMES:
        fs.write_bytes("/workspace/" + n, b"")
    fs.chmod("/workspace/pi", 0o755)
    fs.mkdir("/workspace/sub")
    fs.symlink("sub", "/workspace/lnk")
    fs.symlink("nope", "/workspace/broken")
    return fs


def test_ls_one_per_line_sorted(lsfs):
    out, _, status = run_cmd(["ls"], fs=lsfs)
    assert out.split("\n")[:3] == ["alpha", "beta", "broken"] and status == 0
    assert len(out.splitlines()) == 23


def test_ls_columns_match_gnu_layout(lsfs):
    # measured with GNU ls -C (width 80, tab stops of 8)
    out, _, _ = run_cmd(["ls", "-C"], fs=lsfs)
    assert out == ("alpha\tdelta\t gamma\tlambda\tnu\t rho\ttau\t xi\n"
                   "beta\tepsilon  iota\tlnk\tomicron  sigma\ttheta\t zeta\n"
                   "broken\teta\t kappa\tmu\tpi\t sub\tupsilon\n")
    out, _, _ = run_cmd(["ls", "-C", "-w", "30"], fs=lsfs)
    assert out.splitlines()[0] == "alpha\t kappa\t  sigma"
    assert out.splitlines()[-1] == "iota\t rho"


@pytest.mark.parametrize("args", [["-C", "--quoting-style=shell-escape"], ["-x", "--quoting-style=shell"],
                                  ["-l", "-go", "--time-style=+", "--quoting-style=shell-escape"],
                                  ["-m", "--quoting-style=shell"], ["-C", "--quoting-style=literal"]])
def test_ls_lines_up_unquoted_names_after_quoted_ones_like_gnu(args):
    # align_variable_outer_quotes: the space a quote takes is given to the other names
    files = {"a b": "", "it's": "x", **{f"file{i}.txt": "" for i in range(12)}}
    assert_like_gnu(["ls", *args], files)


def test_ls_commas_wrap(lsfs):
    out, _, _ = run_cmd(["ls", "-m"], fs=lsfs)
    assert out == ("alpha, beta, broken, delta, epsilon, eta, gamma, iota, kappa, lambda, lnk, mu,\n"
                   "nu, omicron, pi, rho, sigma, sub, tau, theta, upsilon, xi, zeta\n")


def test_ls_long_format(lsfs):
    lsfs.write_bytes("/workspace/sub/big", b"x" * 1500)
    lsfs.utime("/workspace/sub/big", 1577836800.0)  # 2020-01-01: an "old" file shows the year
    out, _, _ = run_cmd(["ls", "-l", "sub"], fs=lsfs)
    assert out == "total 4\n-rw-r--r-- 1 user user 1500 Jan  1  2020 big\n"
    out, _, _ = run_cmd(["ls", "-lh", "sub/big"], fs=lsfs)
    assert out.startswith("-rw-r--r-- 1 user user 1.5K Jan  1  2020 sub/big")
    out, _, _ = run_cmd(["ls", "-lF", "lnk", "broken", "pi"], fs=lsfs)
    lines = out.splitlines()
    assert lines[0].startswith("lrwxrwxrwx 1 user user 4 ") and lines[0].endswith(" broken -> nope")
    assert lines[1].endswith(" lnk -> sub/")
    assert lines[2].startswith("-rwxr-xr-x") and lines[2].endswith(" pi*")


def test_ls_recent_time_format(lsfs):
    out, _, _ = run_cmd(["ls", "-l", "alpha"], fs=lsfs)
    import re
    assert re.fullmatch(r"-rw-r--r-- 1 user user 0 [A-Z][a-z]{2} [ \d]\d \d\d:\d\d alpha\n", out)


def test_ls_errors_and_headers(lsfs):
    out, err, status = run_cmd(["ls", "nope", "sub"], fs=lsfs)
    assert out == "sub:\n"
    assert err == "ls: cannot access 'nope': No such file or directory\n"
    assert status == 2
    _, err, status = run_cmd(["ls", "-Y"], fs=lsfs)
    assert err.startswith("ls: invalid option -- 'Y'") and status == 2


def test_ls_all_almost_all_dir_recursive(lsfs):
    lsfs.write_bytes("/workspace/sub/.hidden", b"")
    lsfs.write_bytes("/workspace/sub/f", b"")
    assert run_cmd(["ls", "-a", "sub"], fs=lsfs)[0] == ".\n..\n.hidden\nf\n"
    assert run_cmd(["ls", "-A", "sub"], fs=lsfs)[0] == ".hidden\nf\n"
    assert run_cmd(["ls", "-d", "sub", "pi"], fs=lsfs)[0] == "pi\nsub\n"
    lsfs.mkdir("/workspace/sub/deeper")
    out = run_cmd(["ls", "-R", "sub"], fs=lsfs)[0]
    assert out == "sub:\ndeeper\nf\n\nsub/deeper:\n"


def test_ls_symlink_to_dir_operand_is_followed_unless_long(lsfs):
    lsfs.write_bytes("/workspace/sub/inside", b"")
    assert run_cmd(["ls", "lnk"], fs=lsfs)[0] == "inside\n"
    assert run_cmd(["ls", "-l", "lnk"], fs=lsfs)[0].endswith("lnk -> sub\n")


def test_ls_sort_by_size_time_reverse():
    fs = new_fs()
    fs.write_bytes("/workspace/small", b"1")
    fs.write_bytes("/workspace/big", b"1" * 100)
    fs.write_bytes("/workspace/mid", b"1" * 10)
    assert run_cmd(["ls", "-S"], fs=fs)[0] == "big\nmid\nsmall\n"
    assert run_cmd(["ls", "-Sr"], fs=fs)[0] == "small\nmid\nbig\n"
    fs.utime("/workspace/small", 3000.0)
    fs.utime("/workspace/big", 1000.0)
    fs.utime("/workspace/mid", 2000.0)
    assert run_cmd(["ls", "-t"], fs=fs)[0] == "small\nmid\nbig\n"
    assert run_cmd(["ls", "-tr"], fs=fs)[0] == "big\nmid\nsmall\n"


def test_ls_file_operands_before_directories(lsfs):
    out, _, _ = run_cmd(["ls", "sub", "pi", "alpha"], fs=lsfs)
    assert out == "alpha\npi\n\nsub:\n"


def test_ls_unreadable_directory():
    fs = new_fs()
    out, err, status = run_cmd(["ls", "/root"], fs=fs)
    assert err == "ls: cannot open directory '/root': Permission denied\n" and status == 2


def test_ls_device_and_inode(lsfs):
    out, _, _ = run_cmd(["ls", "-l", "/dev/null"], fs=lsfs)
    assert out.startswith("crw-rw-rw- 1 root root 1, 3 ")
    out, _, _ = run_cmd(["ls", "-i", "pi"], fs=lsfs)
    ino = lsfs.stat("/workspace/pi").st_ino
    assert out == f"{ino} pi\n"


def _run_with_stdout(argv, fs, handle):
    import asyncio

    from sandbox_kernel.streams import BufferOutput, BytesInput, FileOutput

    err = BufferOutput()
    runner = DirectRunner(fs, {})
    status = asyncio.run(runner.run_argv(argv, BytesInput(b""), FileOutput(handle), err, cwd="/workspace"))
    return err.getvalue().decode(), status


def test_cat_refuses_to_append_a_file_to_itself(fs):
    with fs.open("/workspace/y", "ab") as handle:
        err, status = _run_with_stdout(["cat", "y"], fs, handle)
    assert err == "cat: y: input file is output file\n" and status == 1
    assert fs.read_bytes("/workspace/y") == b"b\n\n\n\nc\n"


def test_cat_reports_write_errors(fs):
    fs.write_bytes("/workspace/big", b"z" * 5000)
    fs.max_bytes = fs.bytes_used + 1000
    with fs.open("/workspace/out", "wb") as handle:
        err, status = _run_with_stdout(["cat", "big"], fs, handle)
    assert err == "cat: write error: No space left on device\n" and status == 1
    assert fs.stat("/workspace/out").st_size == 1000


def test_ls_recursive_unreadable_subdirectory_is_a_minor_problem():
    # measured as an unprivileged user with GNU ls 9.1
    fs = new_fs()
    fs.mkdir("/workspace/a/locked", parents=True)
    fs.mkdir("/workspace/b")
    fs.chmod("/workspace/a/locked", 0)
    assert run_cmd(["ls", "-R"], fs=fs) == (
        ".:\na\nb\n\n./a:\nlocked\n\n./b:\n",
        "ls: cannot open directory './a/locked': Permission denied\n", 1)
    assert run_cmd(["ls", "a/locked", "b"], fs=fs) == (
        "b:\n", "ls: cannot open directory 'a/locked': Permission denied\n", 2)


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data


def test_deep_walks_hold_inodes_and_stop_where_gnu_does():
    """du and find walk by inode, so a tree whose paths outgrow PATH_MAX (4096) is summed to
    the bottom, as GNU's fts does; GNU ls -R opens each directory by its path and reports
    'File name too long' below that depth, and so do we."""
    from sandbox_kernel.engine import CancelToken, Streams
    from sandbox_kernel.sandbox import Sandbox

    depth = 2200  # "t" + "/d" * 2199: 4399 characters
    sandbox = Sandbox()
    cwd = "/workspace"
    for name in ["t"] + ["d"] * (depth - 1):
        sandbox.fs.mkdir(name, cwd=cwd)
        cwd += "/" + name
    sandbox.fs.write_bytes("bottom", b"x", cwd=cwd)

    def sh(script: str) -> tuple[str, str, int]:
        out, err = _Sink(), _Sink()
        result = asyncio.run(sandbox.run("sh", script, Streams(out, err, CancelToken())))
        return out.data.decode(), err.data.decode(), result.status

    assert sh("cd /workspace && du -s t") == (f"{4 * depth + 4}\tt\n", "", 0)
    out, err, status = sh("cd /workspace && ls -R t > /tmp/listing; echo $?; grep -c ':$' /tmp/listing")
    assert out == "1\n2048\n"  # "t" + "/d" * 2047 is 4095 characters long
    assert err == "ls: cannot open directory '" + "t" + "/d" * 2048 + "': File name too long\n"
