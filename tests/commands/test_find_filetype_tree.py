"""find, file and tree."""
from __future__ import annotations

import gzip
import io
import struct
import zipfile

import pytest

from tests.support.prereqs import host_tool, require

from .helpers import new_fs, run_cmd, run_cmd_bytes


@pytest.fixture
def fs():
    fs = new_fs()
    fs.mkdir("/workspace/a/b/c", parents=True)
    fs.mkdir("/workspace/e")
    fs.mkdir("/workspace/emp")
    fs.write_bytes("/workspace/a/x", b"")
    fs.write_bytes("/workspace/a/b/y", b"hello\n")
    fs.write_bytes("/workspace/.hid", b"")
    fs.write_bytes("/workspace/e/z", b"z" * 5000)
    fs.write_bytes("/workspace/f", b"")
    fs.chmod("/workspace/f", 0o755)
    fs.symlink("a", "/workspace/lnk")
    fs.symlink("nope", "/workspace/dang")
    return fs


def lines(argv, fs, **kw):
    out, err, status = run_cmd(argv, fs=fs, **kw)
    assert err == "" and status == 0, (err, status)
    return out.splitlines()


ALL = [".", "./.hid", "./a", "./a/b", "./a/b/c", "./a/b/y", "./a/x", "./dang", "./e", "./e/z",
       "./emp", "./f", "./lnk"]


def test_find_default_print_and_tests(fs):
    assert lines(["find"], fs) == ALL
    assert lines(["find", ".", "-type", "f"], fs) == ["./.hid", "./a/b/y", "./a/x", "./e/z", "./f"]
    assert lines(["find", ".", "-type", "l"], fs) == ["./dang", "./lnk"]
    assert lines(["find", ".", "-type", "d,l", "-name", "[de]*"], fs) == ["./dang", "./e", "./emp"]
    assert lines(["find", ".", "-name", "*.x", "-o", "-type", "d", "-print"], fs) == \
        [".", "./a", "./a/b", "./a/b/c", "./e", "./emp"]
    assert lines(["find", ".", "-path", "./a/b", "-prune", "-o", "-print"], fs) == \
        [p for p in ALL if not p.startswith("./a/b")]
    assert lines(["find", ".", "-iname", "X"], fs) == ["./a/x"]
    assert lines(["find", ".", "-wholename", "*b*"], fs) == ["./a/b", "./a/b/c", "./a/b/y"]
    assert lines(["find", "a", "e", "-name", "[xz]"], fs) == ["a/x", "e/z"]
    assert lines(["find", "a/", "-name", "x"], fs) == ["a/x"]
    assert lines(["find", ".", "-lname", "no*"], fs) == ["./dang"]


def test_find_regex_types(fs):
    assert lines(["find", ".", "-regex", ".*/[xy]"], fs) == ["./a/b/y", "./a/x"]
    assert lines(["find", ".", "-regex", r".*/\(x\|z\)"], fs) == ["./a/x", "./e/z"]
    assert lines(["find", ".", "-regextype", "posix-extended", "-regex", ".*/(x|z)"], fs) == ["./a/x", "./e/z"]
    assert lines(["find", ".", "-iregex", ".*/X"], fs) == ["./a/x"]


def test_find_size_empty_perm_user_links(fs):
    assert lines(["find", ".", "-empty"], fs) == ["./.hid", "./a/b/c", "./a/x", "./emp", "./f"]
    assert lines(["find", ".", "-type", "d", "-empty"], fs) == ["./a/b/c", "./emp"]
    assert lines(["find", ".", "-size", "+1k", "-type", "f"], fs) == ["./e/z"]
    assert lines(["find", ".", "-size", "-1k", "-type", "f"], fs) == ["./.hid", "./a/x", "./f"]
    assert lines(["find", ".", "-size", "6c"], fs) == ["./a/b/y"]
    assert lines(["find", ".", "-perm", "755", "-type", "f"], fs) == ["./f"]
    assert lines(["find", ".", "-perm", "-u+x", "-type", "f"], fs) == ["./f"]
    assert lines(["find", ".", "-perm", "/111", "-type", "f"], fs) == ["./f"]
    assert lines(["find", ".", "-user", "user", "-name", "f"], fs) == ["./f"]
    assert lines(["find", ".", "-links", "3", "-type", "d"], fs) == ["./a", "./a/b"]
    assert lines(["find", ".", "-not", "-name", "x", "-type", "f", "!", "-name", ".*"], fs) == \
        ["./a/b/y", "./e/z", "./f"]


def test_find_times(fs):
    now = fs.stat("/workspace/f").st_mtime
    fs.utime("/workspace/a/x", now - 90)
    fs.utime("/workspace/e/z", now - 36 * 3600)
    assert lines(["find", ".", "-mmin", "-1", "-name", "[xz]"], fs) == []
    assert lines(["find", ".", "-mmin", "2", "-name", "[xz]"], fs) == ["./a/x"]
    assert lines(["find", ".", "-mmin", "+1", "-name", "[xz]"], fs) == ["./a/x", "./e/z"]
    assert lines(["find", ".", "-mtime", "1"], fs) == ["./e/z"]
    assert lines(["find", ".", "-mtime", "-1", "-name", "[xz]"], fs) == ["./a/x"]
    assert lines(["find", ".", "-mtime", "+0", "-type", "f"], fs) == ["./e/z"]
    assert lines(["find", ".", "-newer", "a/x", "-name", "[xyz]"], fs) == ["./a/b/y"]


def test_find_depth_options(fs):
    assert lines(["find", "a", "-maxdepth", "1", "-mindepth", "1"], fs) == ["a/b", "a/x"]
    assert lines(["find", "a", "-depth"], fs) == ["a/b/c", "a/b/y", "a/b", "a/x", "a"]
    assert lines(["find", "-maxdepth", "0"], fs) == ["."]
    assert lines(["find", ".", "-name", "y", "-quit", "-o", "-print"], fs) == [".", "./.hid", "./a", "./a/b", "./a/b/c"]
    assert lines(["find", "-L", ".", "-type", "d", "-name", "c"], fs) == ["./a/b/c", "./lnk/b/c"]


def test_find_printf_and_print0(fs):
    out = lines(["find", "a", "-printf", r"%d %y %p|%P|%f|%h %s %m %M %n\n"], fs)
    assert out == ["0 d a||a|. 4096 755 drwxr-xr-x 3",
                   "1 d a/b|b|b|a 4096 755 drwxr-xr-x 3",
                   "2 d a/b/c|b/c|c|a/b 4096 755 drwxr-xr-x 2",
                   "2 f a/b/y|b/y|y|a/b 6 644 -rw-r--r-- 1",
                   "1 f a/x|x|x|a 0 644 -rw-r--r-- 1"]
    assert lines(["find", ".", "-maxdepth", "1", "-name", "[df]*", "-printf", r"%-6f|%5s|%Y|%l\n"], fs) == \
        ["dang  |    4|N|nope", "f     |    0|f|"]
    out, _, _ = run_cmd_bytes(["find", "a", "-type", "f", "-print0"], fs=fs)
    assert out == b"a/b/y\0a/x\0"
    fs.utime("/workspace/a/x", 1577836800.0)
    assert lines(["find", "a/x", "-printf", r"%TY-%Tm-%Td %TH:%TM %t %T@\n"], fs) == \
        ["2020-01-01 00:00 Wed Jan  1 00:00:00.0000000000 2020 1577836800"]


def test_find_exec(fs):
    assert lines(["find", "a", "-type", "f", "-exec", "cat", "{}", ";"], fs) == ["hello"]
    assert lines(["find", "a", "-type", "f", "-exec", "ls", "-d", "{}", "+"], fs) == ["a/b/y", "a/x"]
    assert lines(["find", "a", "-name", "y", "-exec", "basename", "{}", ";", "-print"], fs) == ["y", "a/b/y"]
    # -exec is a test: false commands make it false; with + a failure makes find exit 1
    assert lines(["find", "a", "-type", "f", "-exec", "false", ";", "-o", "-print"], fs) == \
        ["a", "a/b", "a/b/c", "a/b/y", "a/x"]
    out, err, status = run_cmd(["find", "a", "-type", "f", "-exec", "false", "{}", "+"], fs=fs)
    assert status == 1
    assert lines(["find", "a", "-name", "y", "-execdir", "pwd", ";"], fs) == ["/workspace/a/b"]


def test_find_delete(fs):
    assert run_cmd(["find", "a/b", "-delete"], fs=fs) == ("", "", 0)
    assert not fs.exists("/workspace/a/b")
    out, err, status = run_cmd(["find", "/etc", "-name", "hostname", "-delete"], fs=fs)
    assert err == "find: cannot delete '/etc/hostname': Permission denied\n" and status == 1


@pytest.mark.parametrize("argv,message", [
    (["nope"], "find: 'nope': No such file or directory"),
    ([".", "-foo"], "find: unknown predicate `-foo'"),
    ([".", "-name"], "find: missing argument to `-name'"),
    ([".", "-type", "z"], "find: Unknown argument to -type: z"),
    ([".", "-maxdepth", "x"], "find: Expected a positive decimal integer argument to -maxdepth, but got 'x'"),
    ([".", "(", "-name", "x"], "find: invalid expression; "
                               "I was expecting to find a ')' somewhere but did not see one."),
    ([".", "-name", "x", ")"], "find: you have too many ')'"),
    ([".", "-exec", "echo"], "find: missing argument to `-exec'"),
    ([".", "-size", "3q"], "find: invalid -size type `q'"),
    ([".", "-mtime", "x"], "find: invalid argument `x' to `-mtime'"),
    (["-name", "x", "-o"], "find: expected an expression after '-o'"),
    ([".", "-name", "x", "a"], "find: paths must precede expression: `a'"),
    ([".", "-newer", "nope"], "find: 'nope': No such file or directory"),
    ([".", "-perm", "zz"], "find: invalid mode 'zz'"),
    ([".", "-user", "bob"], "find: 'bob' is not the name of a known user"),
])
def test_find_errors(fs, argv, message):
    out, err, status = run_cmd(["find", *argv], fs=fs)
    assert err.splitlines()[0] == message and status == 1


# ------------------------------------------------------------------ file
def _png(w, h):
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)


def _jpeg(units, density, sof, width, height, comps):
    app0 = b"JFIF\0" + bytes([1, 1, units]) + struct.pack(">HH", density, density) + b"\0\0"
    sof_body = bytes([8]) + struct.pack(">HH", height, width) + bytes([comps]) + b"\x01\x11\x00" * comps
    return (b"\xff\xd8\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0 + bytes([0xFF, sof]) +
            struct.pack(">H", len(sof_body) + 2) + sof_body + b"\xff\xd9")


def test_file_jpeg_details():
    fs = new_fs()
    fs.write_bytes("/workspace/a.jpg", _jpeg(1, 72, 0xC0, 100, 50, 3))
    fs.write_bytes("/workspace/b.jpg", _jpeg(2, 28, 0xC2, 640, 480, 1))
    # both measured with file 5.44
    assert run_cmd(["file", "-b", "a.jpg", "b.jpg"], fs=fs)[0] == (
        "JPEG image data, JFIF standard 1.01, resolution (DPI), density 72x72, segment length 16, "
        "baseline, precision 8, 100x50, components 3\n"
        "JPEG image data, JFIF standard 1.01, resolution (DPCM), density 28x28, segment length 16, "
        "progressive, precision 8, 640x480, components 1\n")


def test_file_kinds():
    fs = new_fs()
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("x", "hello" * 10)
    samples = {
        "t": b"hello\n", "u": "h\u00e9llo\n".encode(), "crlf": b"a\r\nb\r\n", "nn": b"no newline",
        "long": b"x" * 400 + b"\n", "bom": b"\xef\xbb\xbfhi\n", "latin": b"\xe9t\xe9\n",
        "bin": bytes(range(256)), "s": b"#!/bin/sh\necho\n", "bs": b"#!/bin/bash\n",
        "py": b"#!/usr/bin/env python3\nprint(1)\n", "js": b'{"a": 1}\n',
        "h": b"<html><body></body></html>\n", "x.xml": b'<?xml version="1.0"?>\n<a/>\n',
        "p.png": _png(16, 32), "g": b"GIF89a\x10\x00\x20\x00", "j": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
        "a.zip": zbuf.getvalue(), "n.gz": gzip.compress(b"abc", mtime=0), "pdf": b"%PDF-1.4\n",
        "e": b"",
    }
    for name, data in samples.items():
        fs.write_bytes("/workspace/" + name, data)
    fs.mkdir("/workspace/d")
    fs.symlink("t", "/workspace/l")
    fs.symlink("nope", "/workspace/dl")
    want = {
        "t": "ASCII text", "u": "Unicode text, UTF-8 text",
        "crlf": "ASCII text, with CRLF line terminators", "nn": "ASCII text, with no line terminators",
        "long": "ASCII text, with very long lines (400)", "bom": "Unicode text, UTF-8 (with BOM) text",
        "latin": "ISO-8859 text", "bin": "data", "s": "POSIX shell script, ASCII text executable",
        "bs": "Bourne-Again shell script, ASCII text executable",
        "py": "Python script, ASCII text executable", "js": "JSON text data",
        "h": "HTML document, ASCII text", "x.xml": "XML 1.0 document, ASCII text",
        "p.png": "PNG image data, 16 x 32, 8-bit/color RGBA, non-interlaced",
        "g": "GIF image data, version 89a, 16 x 32", "j": "JPEG image data",
        "a.zip": "Zip archive data, at least v2.0 to extract, compression method=deflate",
        "n.gz": "gzip compressed data, max compression, from Unix, original size modulo 2^32 3",
        "pdf": "PDF document, version 1.4", "e": "empty", "d": "directory",
        "l": "symbolic link to t", "dl": "broken symbolic link to nope",
        "/dev/null": "character special (1/3)",
    }
    for name, desc in want.items():
        assert run_cmd(["file", "-b", name], fs=fs) == (desc + "\n", "", 0), name
    out, _, _ = run_cmd(["file", "t", "p.png"], fs=fs)
    assert out == "t:     ASCII text\np.png: PNG image data, 16 x 32, 8-bit/color RGBA, non-interlaced\n"
    assert run_cmd(["file", "-i", "t"], fs=fs)[0] == "t: text/plain; charset=us-ascii\n"
    assert run_cmd(["file", "--mime-type", "-b", "a.zip"], fs=fs)[0] == "application/zip\n"
    assert run_cmd(["file", "-L", "l"], fs=fs)[0] == "l: ASCII text\n"
    assert run_cmd(["file", "nope"], fs=fs) == ("nope: cannot open `nope' (No such file or directory)\n", "", 0)


# ------------------------------------------------------------------ tree
def test_tree_layout_and_report(fs):
    out = run_cmd(["tree"], fs=fs, env={"LANG": "C.UTF-8"})[0]
    bar = "\u2502\u00a0\u00a0 "  # tree 2.x: a vertical bar, two no-break spaces, a space
    assert out == (f".\n├── a\n{bar}├── b\n{bar}{bar}├── c\n{bar}{bar}└── y\n{bar}└── x\n├── dang -> nope\n"
                   f"├── e\n{bar}└── z\n├── emp\n├── f\n└── lnk -> a\n\n7 directories, 5 files\n")
    out = run_cmd(["tree", "-a", "-L", "1", "-F"], fs=fs, env={})[0]
    assert out == ("./\n|-- .hid\n|-- a/\n|-- dang -> nope\n|-- e/\n|-- emp/\n|-- f*\n`-- lnk -> a/\n\n"
                   "5 directories, 3 files\n")
    assert run_cmd(["tree", "-d", "a"], fs=fs, env={})[0] == "a\n`-- b\n    `-- c\n\n3 directories\n"
    assert run_cmd(["tree", "emp"], fs=fs, env={})[0] == "emp\n\n0 directories, 0 files\n"
    assert run_cmd(["tree", "--noreport", "-i", "-f", "a"], fs=fs, env={})[0] == "a\na/b\na/b/c\na/b/y\na/x\n"
    assert run_cmd(["tree", "-s", "e"], fs=fs, env={})[0] == \
        "[       4096]  e\n`-- [       5000]  z\n\n1 directory, 1 file\n"
    assert run_cmd(["tree", "-I", "b|z", "-P", "x*", "a"], fs=fs, env={})[0] == "a\n`-- x\n\n1 directory, 1 file\n"
    assert run_cmd(["tree", "--dirsfirst", "-L", "1"], fs=fs, env={})[0].splitlines()[1:4] == \
        ["|-- a", "|-- e", "|-- emp"]
    assert run_cmd(["tree", "-l"], fs=fs, env={})[0].splitlines()[-3] == \
        "`-- lnk -> a  [recursive, not followed]"


def test_tree_errors(fs):
    out, err, status = run_cmd(["tree", "nope"], fs=fs, env={})
    assert out == "nope  [error opening dir]\n\n0 directories, 0 files\n" and status == 2
    out, err, status = run_cmd(["tree", "-L", "0"], fs=fs, env={})
    assert err.startswith("tree: Invalid level, must be greater than 0.\n") and status == 1
    assert run_cmd(["tree", "-Y"], fs=fs)[1].startswith("tree: Invalid argument -`Y'.\n")


@host_tool("file")
@pytest.mark.parametrize("host_path", ["/bin/true", "/usr/lib/x86_64-linux-gnu/libc.so.6",
                                       "/usr/bin/bash", "/usr/lib/os-release"])
def test_file_matches_host_file_on_host_binaries(host_path):
    import os
    import subprocess

    if not os.path.isfile(host_path):
        require(f"{host_path} not on this machine")
    fs = new_fs()
    with open(host_path, "rb") as f:
        fs.write_bytes("/workspace/sample", f.read())
    want = subprocess.run(["file", "-b", host_path], capture_output=True, text=True,
                          env={"LC_ALL": "C"}).stdout
    assert run_cmd(["file", "-b", "sample"], fs=fs)[0] == want


def test_unreadable_directories_in_find_du_tree():
    # each measured as an unprivileged user against findutils 4.9, coreutils 9.1, tree 2.1
    fs = new_fs()
    fs.mkdir("/workspace/a/locked", parents=True)
    fs.mkdir("/workspace/b")
    fs.write_bytes("/workspace/a/locked/x", b"")
    fs.chmod("/workspace/a/locked", 0)
    out, err, status = run_cmd(["find", "."], fs=fs)
    assert out == ".\n./a\n./a/locked\n./b\n" and status == 1
    assert err == "find: './a/locked': Permission denied\n"
    out, err, status = run_cmd(["du"], fs=fs)
    assert sorted(out.splitlines()) == sorted(["4\t./a/locked", "8\t./a", "4\t./b", "16\t."]) and status == 1
    assert err == "du: cannot read directory './a/locked': Permission denied\n"
    assert run_cmd(["cp", "-r", "a", "c"], fs=fs)[1:] == ("cp: cannot access 'a/locked': Permission denied\n", 1)
    out, err, status = run_cmd(["tree", "a"], fs=fs, env={})
    assert out == "a\n`-- locked  [error opening dir]\n\n2 directories, 0 files\n" and status == 2
