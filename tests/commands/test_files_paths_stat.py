"""readlink, realpath, basename, dirname, pwd, mktemp, stat, chmod, chown, chgrp, du, df."""
from __future__ import annotations

import re

import pytest

from .helpers import new_fs, run_cmd


@pytest.fixture
def fs():
    fs = new_fs()
    fs.write_bytes("/workspace/f", b"hello")
    fs.symlink("f", "/workspace/l")
    fs.symlink("nope", "/workspace/dang")
    fs.symlink("loop1", "/workspace/loop2")
    fs.symlink("loop2", "/workspace/loop1")
    fs.mkdir("/workspace/d")
    return fs


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


# ------------------------------------------------------------------ stat
def test_stat_format(fs):
    out, _, _ = run_cmd(["stat", "-c", "%n|%N|%s|%a|%A|%F|%U|%G|%u|%g|%h|%b|%B|%o|%f|%m", "f", "l", "d"], fs=fs)
    assert out == ("f|'f'|5|644|-rw-r--r--|regular file|user|user|1000|1000|1|8|512|4096|81a4|/\n"
                   "l|'l' -> 'f'|1|777|lrwxrwxrwx|symbolic link|user|user|1000|1000|1|0|512|4096|a1ff|/\n"
                   "d|'d'|4096|755|drwxr-xr-x|directory|user|user|1000|1000|2|8|512|4096|41ed|/\n")
    assert run_cmd(["stat", "-L", "-c", "%N %F", "l"], fs=fs)[0] == "'l' regular file\n"
    assert run_cmd(["stat", "--printf", "%n\\t%s\\n\\101", "f"], fs=fs)[0] == "f\t5\nA"
    assert run_cmd(["stat", "-c", "%5s|%-5s|%05s|%04a|%%|%q", "f"], fs=fs)[0] == "    5|5    |00005|0644|%|?\n"
    fs.utime("/workspace/f", 1577836800.25)
    assert run_cmd(["stat", "-c", "%Y %.3Y %y", "f"], fs=fs)[0] == \
        "1577836800 1577836800.250 2020-01-01 00:00:00.250000000 +0000\n"
    assert run_cmd(["stat", "-c", "%F", "/dev/null", "-c", "%t %T %F"], fs=fs)[0] == "1 3 character special file\n"
    fs.write_bytes("/workspace/empty", b"")
    assert run_cmd(["stat", "-c", "%F", "empty"], fs=fs)[0] == "regular empty file\n"


def test_stat_default_and_errors(fs):
    out, _, status = run_cmd(["stat", "f"], fs=fs)
    lines = out.splitlines()
    assert lines[0] == "  File: f"
    assert lines[1] == "  Size: 5         \tBlocks: 8          IO Block: 4096   regular file"
    assert re.fullmatch(r"Device: 0,42\tInode: \d+ +Links: 1", lines[2])
    assert lines[3] == "Access: (0644/-rw-r--r--)  Uid: ( 1000/    user)   Gid: ( 1000/    user)"
    assert lines[4].startswith("Access: 20") and lines[7] == " Birth: -"
    assert run_cmd(["stat", "l"], fs=fs)[0].startswith("  File: l -> f\n")
    assert run_cmd(["stat", "nope"], fs=fs) == ("", "stat: cannot statx 'nope': No such file or directory\n", 1)
    assert run_cmd(["stat"], fs=fs)[1].startswith("stat: missing operand\n")
    out, _, _ = run_cmd(["stat", "-f", "-c", "%T %l", "/"], fs=fs)
    assert out == "sandbox 255\n"


# ------------------------------------------------------------------ chmod / chown
def test_chmod(fs):
    assert run_cmd(["chmod", "-v", "755", "f"], fs=fs)[0] == \
        "mode of 'f' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\n"
    assert run_cmd(["chmod", "-v", "755", "f"], fs=fs)[0] == "mode of 'f' retained as 0755 (rwxr-xr-x)\n"
    assert run_cmd(["chmod", "-c", "755", "f"], fs=fs)[0] == ""
    for mode, start, want in [("u+x", 0o644, 0o744), ("go-w", 0o666, 0o644), ("a=r", 0o777, 0o444),
                              ("-w", 0o755, 0o555), ("+x", 0o644, 0o755), ("o=u", 0o750, 0o757),
                              ("u=rwx,g=rx,o=", 0o000, 0o750), ("a+X", 0o644, 0o644), ("=", 0o777, 0)]:
        fs.chmod("/workspace/f", start)
        assert run_cmd(["chmod", mode, "f"], fs=fs) == ("", "", 0), mode
        assert fs.stat("/workspace/f").st_mode & 0o7777 == want, mode
    assert run_cmd(["chmod", "a+X", "d"], fs=fs)[2] == 0
    assert run_cmd(["chmod", "zz", "f"], fs=fs) == (
        "", "chmod: invalid mode: 'zz'\nTry 'chmod --help' for more information.\n", 1)
    assert run_cmd(["chmod", "755"], fs=fs)[1].startswith("chmod: missing operand after '755'\n")
    assert run_cmd(["chmod", "755", "nope"], fs=fs) == (
        "", "chmod: cannot access 'nope': No such file or directory\n", 1)
    assert run_cmd(["chmod", "644", "/etc/passwd"], fs=fs) == (
        "", "chmod: changing permissions of '/etc/passwd': Operation not permitted\n", 1)


def test_chmod_recursive_and_reference(fs):
    fs.write_bytes("/workspace/d/inner", b"")
    assert run_cmd(["chmod", "-R", "g+w", "d"], fs=fs) == ("", "", 0)
    assert fs.stat("/workspace/d").st_mode & 0o777 == 0o775
    assert fs.stat("/workspace/d/inner").st_mode & 0o777 == 0o664
    fs.chmod("/workspace/f", 0o600)
    assert run_cmd(["chmod", "--reference=f", "d/inner"], fs=fs)[2] == 0
    assert fs.stat("/workspace/d/inner").st_mode & 0o777 == 0o600


def test_chown_chgrp(fs):
    assert run_cmd(["chown", "user", "f"], fs=fs) == ("", "", 0)
    assert run_cmd(["chown", "1000:1000", "f"], fs=fs) == ("", "", 0)
    assert run_cmd(["chown", "user:", "f"], fs=fs) == ("", "", 0)
    assert run_cmd(["chown", "root", "f"], fs=fs) == (
        "", "chown: changing ownership of 'f': Operation not permitted\n", 1)
    assert run_cmd(["chown", "bob", "f"], fs=fs) == ("", "chown: invalid user: 'bob'\n", 1)
    assert run_cmd(["chgrp", "root", "f"], fs=fs) == (
        "", "chgrp: changing group of 'f': Operation not permitted\n", 1)
    assert run_cmd(["chgrp", "-v", "user", "f"], fs=fs)[0] == "group of 'f' retained as user\n"
    assert run_cmd(["chgrp", "nogroup", "f"], fs=fs) == ("", "chgrp: invalid group: 'nogroup'\n", 1)
    assert fs.stat("/workspace/f").st_uid == 1000


# ------------------------------------------------------------------ du / df
def test_du(fs):
    fs.mkdir("/workspace/d/sub")
    fs.write_bytes("/workspace/d/sub/big", b"x" * 5000)
    assert run_cmd(["du", "d"], fs=fs)[0] == "12\td/sub\n16\td\n"
    assert run_cmd(["du", "-a", "d"], fs=fs)[0] == "8\td/sub/big\n12\td/sub\n16\td\n"
    assert run_cmd(["du", "-s", "d"], fs=fs)[0] == "16\td\n"
    assert run_cmd(["du", "-sh", "d"], fs=fs)[0] == "16K\td\n"
    assert run_cmd(["du", "-b", "d/sub/big"], fs=fs)[0] == "5000\td/sub/big\n"
    assert run_cmd(["du", "-c", "d", "f"], fs=fs)[0] == "12\td/sub\n16\td\n4\tf\n20\ttotal\n"
    assert run_cmd(["du", "--max-depth=0", "d"], fs=fs)[0] == "16\td\n"
    assert run_cmd(["du", "nope"], fs=fs) == ("", "du: cannot access 'nope': No such file or directory\n", 1)
    fs.link("/workspace/d/sub/big", "/workspace/d/hard")
    assert run_cmd(["du", "-s", "d"], fs=fs)[0] == "16\td\n"   # hard links count once


def test_df(fs):
    out, _, status = run_cmd(["df"], fs=fs)
    lines = out.splitlines()
    assert lines[0] == "Filesystem     1K-blocks  Used Available Use% Mounted on"
    assert re.fullmatch(r"sandbox +65536 +\d+ +\d+ +\d+% /", lines[1]) and status == 0
    out, _, _ = run_cmd(["df", "-h", "/workspace"], fs=fs)
    assert out.splitlines()[0] == "Filesystem      Size  Used Avail Use% Mounted on"
    assert out.splitlines()[1].startswith("sandbox          64M ")
    out, _, _ = run_cmd(["df", "-i"], fs=fs)
    assert out.splitlines()[0].split() == ["Filesystem", "Inodes", "IUsed", "IFree", "IUse%", "Mounted", "on"]
    assert run_cmd(["df", "nope"], fs=fs) == ("", "df: nope: No such file or directory\n", 1)
    used_before = fs.usage()["bytes_used"]
    fs.write_bytes("/workspace/big", b"x" * 2 * 1024 * 1024)
    out, _, _ = run_cmd(["df", "-B1", "/"], fs=fs)
    assert out.splitlines()[1].split()[2] == str(used_before + 2 * 1024 * 1024)
