"""readlink, realpath, basename, dirname, pwd, mktemp (commands/pathnames.py)."""
from __future__ import annotations

import re

import pytest

from .helpers import links_fs, new_fs, run_cmd


@pytest.fixture
def fs():
    return links_fs()


def test_readlink(fs):
    assert run_cmd(["readlink", "l"], fs=fs) == ("f\n", "", 0)
    assert run_cmd(["readlink", "f"], fs=fs) == ("", "", 1)
    assert run_cmd(["readlink", "-v", "f"], fs=fs) == ("", "readlink: f: Invalid argument\n", 1)
    assert run_cmd(["readlink", "-f", "dang"], fs=fs) == ("/workspace/nope\n", "", 0)
    assert run_cmd(["readlink", "-e", "dang"], fs=fs) == ("", "", 1)
    assert run_cmd(["readlink", "-m", "a/b/../c"], fs=fs) == ("/workspace/a/c\n", "", 0)
    assert run_cmd(["readlink", "-f", "nope/x"], fs=fs) == ("", "", 1)
    assert run_cmd(["readlink", "-f", "loop1"], fs=fs) == ("", "", 1)
    assert run_cmd(["readlink", "-n", "l"], fs=fs) == ("f", "", 0)
    assert run_cmd(["readlink", "-f", "/bin/ls"], fs=fs) == ("/usr/bin/ls\n", "", 0)
    assert run_cmd(["readlink"], fs=fs)[2] == 1


def test_realpath(fs):
    out, err, status = run_cmd(["realpath", "l", "dang", "nope/x", "d/..", "/workspace/./d//"], fs=fs)
    assert out == "/workspace/f\n/workspace/nope\n/workspace\n/workspace/d\n"
    assert err == "realpath: nope/x: No such file or directory\n" and status == 1
    assert run_cmd(["realpath", "-e", "dang"], fs=fs) == ("", "realpath: dang: No such file or directory\n", 1)
    assert run_cmd(["realpath", "-m", "a/../b"], fs=fs)[0] == "/workspace/b\n"
    assert run_cmd(["realpath", "-s", "l"], fs=fs)[0] == "/workspace/l\n"
    assert run_cmd(["realpath", "--relative-to=d", "f"], fs=fs)[0] == "../f\n"
    assert run_cmd(["realpath", "--relative-to=/usr/bin", "/workspace/f"], fs=fs)[0] == "../../workspace/f\n"
    assert run_cmd(["realpath", "--relative-base=/workspace", "/workspace/f", "/usr"], fs=fs)[0] == "f\n/usr\n"
    assert run_cmd(["realpath", "loop1"], fs=fs) == (
        "", "realpath: loop1: Too many levels of symbolic links\n", 1)


def test_basename_dirname():
    assert run_cmd(["basename", "/a/b/"])[0] == "b\n"
    assert run_cmd(["basename", "a.txt", ".txt"])[0] == "a\n"
    assert run_cmd(["basename", ".txt", ".txt"])[0] == ".txt\n"
    assert run_cmd(["basename", "-a", "x/y", "z/w"])[0] == "y\nw\n"
    assert run_cmd(["basename", "-s", ".c", "a.c", "b.c"])[0] == "a\nb\n"
    assert run_cmd(["basename", "/"])[0] == "/\n"
    assert run_cmd(["basename", ""])[0] == "\n"
    assert run_cmd(["basename", "a", "b", "c"]) == (
        "", "basename: extra operand 'c'\nTry 'basename --help' for more information.\n", 1)
    assert run_cmd(["dirname", "/a/b/", "a", "/", "", "a/b", "c//d//"])[0] == "/a\n.\n/\n.\na\nc\n"
    assert run_cmd(["dirname"])[2] == 1


def test_pwd(fs):
    assert run_cmd(["pwd"], fs=fs, cwd="/workspace/d") == ("/workspace/d\n", "", 0)
    fs.symlink("d", "/workspace/ld")
    assert run_cmd(["pwd", "-P"], fs=fs, cwd="/workspace/ld")[0] == "/workspace/d\n"
    env = {"PWD": "/workspace/ld"}
    assert run_cmd(["pwd", "-L"], fs=fs, cwd="/workspace/ld", env=env)[0] == "/workspace/ld\n"


def test_mktemp(fs):
    out, _, status = run_cmd(["mktemp"], fs=fs)
    assert re.fullmatch(r"/tmp/tmp\.[A-Za-z0-9]{10}\n", out) and status == 0
    assert fs.is_file(out.strip()) and fs.stat(out.strip()).st_mode & 0o777 == 0o600
    out, _, _ = run_cmd(["mktemp", "-d"], fs=fs)
    assert fs.is_dir(out.strip()) and fs.stat(out.strip()).st_mode & 0o777 == 0o700
    out, _, _ = run_cmd(["mktemp", "fooXXXX.txt"], fs=fs)
    assert re.fullmatch(r"foo[A-Za-z0-9]{4}\.txt\n", out) and fs.exists("/workspace/" + out.strip())
    out, _, _ = run_cmd(["mktemp", "-p", "d", "xXXX"], fs=fs)
    assert out.startswith("d/x")
    out, _, _ = run_cmd(["mktemp", "-u", "zzXXX"], fs=fs)
    assert not fs.exists("/workspace/" + out.strip())
    assert run_cmd(["mktemp", "abc"], fs=fs) == ("", "mktemp: too few X's in template 'abc'\n", 1)
    assert run_cmd(["mktemp", "nodir/xXXX"], fs=fs)[1] == \
        "mktemp: failed to create file via template 'nodir/xXXX': No such file or directory\n"


def test_mktemp_is_reproducible_with_a_seed():
    a = run_cmd(["mktemp", "-u"], fs=new_fs(seed=7))[0]
    b = run_cmd(["mktemp", "-u"], fs=new_fs(seed=7))[0]
    assert a == b
