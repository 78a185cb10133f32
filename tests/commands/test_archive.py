"""tar, gzip/gunzip/zcat and zip/unzip over the VFS, checked with the stdlib readers."""
import gzip
import io
import tarfile
import zipfile

import pytest

from .helpers import new_fs, run_cmd_bytes


@pytest.fixture
def fs():
    fs = new_fs()
    fs.mkdir("/workspace/src/sub", parents=True)
    fs.write_bytes("/workspace/src/a", b"hi\n")
    fs.write_bytes("/workspace/src/sub/b", b"there\n" * 100)
    fs.chmod("/workspace/src/a", 0o750)
    fs.symlink("a", "/workspace/src/lnk")
    return fs


def test_tar_czf_is_readable_by_tarfile(fs):
    assert run_cmd_bytes(["tar", "czf", "x.tgz", "src"], fs=fs) == (b"", b"", 0)
    with tarfile.open(fileobj=io.BytesIO(fs.read_bytes("/workspace/x.tgz"))) as tf:
        members = {m.name: m for m in tf.getmembers()}
        assert sorted(members) == ["src", "src/a", "src/lnk", "src/sub", "src/sub/b"]
        assert tf.extractfile("src/sub/b").read() == b"there\n" * 100
        assert members["src/a"].mode == 0o750 and members["src/a"].uname == "user"
        assert members["src/lnk"].issym() and members["src/lnk"].linkname == "a"


def test_tar_member_names_as_written(fs):
    run_cmd_bytes(["tar", "-C", "src", "-cf", "d.tar", "."], fs=fs)
    assert run_cmd_bytes(["tar", "-tf", "d.tar"], fs=fs)[0] == b"./\n./a\n./lnk\n./sub/\n./sub/b\n"
    run_cmd_bytes(["tar", "-cf", "e.tar", "src//", "src/./a"], fs=fs)
    assert run_cmd_bytes(["tar", "-tf", "e.tar"], fs=fs)[0].split(b"\n")[:2] == [b"src/", b"src/a"]
    assert run_cmd_bytes(["tar", "-tf", "e.tar"], fs=fs)[0].endswith(b"src/sub/b\nsrc/./a\n")
    assert run_cmd_bytes(["tar", "-C", "src/sub", "-cf", "f.tar", "../a"], fs=fs)[1] == \
        b"tar: Removing leading `../' from member names\n"
    assert run_cmd_bytes(["tar", "-tf", "f.tar"], fs=fs)[0] == b"a\n"


def test_tar_list_verbose_and_bundled_forms(fs):
    run_cmd_bytes(["tar", "-cf", "y.tar", "src"], fs=fs)
    assert run_cmd_bytes(["tar", "tf", "y.tar"], fs=fs)[0] == b"src/\nsrc/a\nsrc/lnk\nsrc/sub/\nsrc/sub/b\n"
    lines = run_cmd_bytes(["tar", "-tvf", "y.tar"], fs=fs)[0].decode().splitlines()
    assert lines[1].startswith("-rwxr-x--- user/user         3 ") and lines[1].endswith(" src/a")
    assert lines[2].endswith("src/lnk -> a")
    assert run_cmd_bytes(["tar", "-cvf", "v.tar", "src/a"], fs=fs)[0] == b"src/a\n"


def test_tar_round_trip_extract_with_C_exclude_strip(fs):
    run_cmd_bytes(["tar", "-czf", "x.tgz", "--exclude=sub", "src"], fs=fs)
    fs.mkdir("/workspace/out")
    assert run_cmd_bytes(["tar", "xzf", "x.tgz", "-C", "out"], fs=fs) == (b"", b"", 0)
    assert sorted(fs.listdir("/workspace/out/src")) == ["a", "lnk"]
    assert fs.read_bytes("/workspace/out/src/a") == b"hi\n"
    assert fs.readlink("/workspace/out/src/lnk") == "a"
    run_cmd_bytes(["tar", "cf", "y.tar", "src"], fs=fs)
    fs.mkdir("/workspace/flat")
    run_cmd_bytes(["tar", "-x", "-f", "y.tar", "-C", "flat", "--strip-components=1", "src/sub"], fs=fs)
    assert fs.listdir("/workspace/flat") == ["sub"]
    assert run_cmd_bytes(["tar", "xOf", "y.tar", "src/a"], fs=fs)[0] == b"hi\n"


def test_tar_reads_archives_made_by_tarfile():
    fs = new_fs()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        info = tarfile.TarInfo("dir/file.txt")
        info.size = 5
        tf.addfile(info, io.BytesIO(b"12345"))
    fs.write_bytes("/workspace/in.tar.gz", buf.getvalue())
    assert run_cmd_bytes(["tar", "-xzf", "in.tar.gz"], fs=fs)[2] == 0
    assert fs.read_bytes("/workspace/dir/file.txt") == b"12345"


def test_tar_errors(fs):
    assert run_cmd_bytes(["tar", "tf", "nosuch.tar"], fs=fs) == (
        b"", b"tar: nosuch.tar: Cannot open: No such file or directory\n"
             b"tar: Error is not recoverable: exiting now\n", 2)
    run_cmd_bytes(["tar", "cf", "y.tar", "src/a"], fs=fs)
    assert run_cmd_bytes(["tar", "xf", "y.tar", "nosuch"], fs=fs) == (
        b"", b"tar: nosuch: Not found in archive\n"
             b"tar: Exiting with failure status due to previous errors\n", 2)
    assert run_cmd_bytes(["tar", "cf", "z.tar", "missing"], fs=fs)[2] == 2
    assert run_cmd_bytes(["tar", "cf", "z.tar"], fs=fs)[1].startswith(b"tar: Cowardly refusing")
    out, err, status = run_cmd_bytes(["tar", "cf", "abs.tar", "/workspace/src/a"], fs=fs)
    assert err == b"tar: Removing leading `/' from member names\n" and status == 0


def test_gzip_gunzip_zcat(fs):
    assert run_cmd_bytes(["gzip", "-k", "src/sub/b"], fs=fs) == (b"", b"", 0)
    packed = fs.read_bytes("/workspace/src/sub/b.gz")
    assert gzip.decompress(packed) == b"there\n" * 100
    assert run_cmd_bytes(["zcat", "src/sub/b.gz"], fs=fs)[0] == b"there\n" * 100
    assert run_cmd_bytes(["gzip", "src/sub/b"], fs=fs) == \
        (b"", b"gzip: src/sub/b.gz already exists;\tnot overwritten\n", 2)
    fs.unlink("/workspace/src/sub/b")
    assert run_cmd_bytes(["gunzip", "src/sub/b.gz"], fs=fs)[2] == 0
    assert fs.read_bytes("/workspace/src/sub/b") == b"there\n" * 100
    assert not fs.exists("/workspace/src/sub/b.gz")
    assert run_cmd_bytes(["gzip", "-d"], stdin=gzip.compress(b"abc") + gzip.compress(b"def"))[0] == b"abcdef"
    assert run_cmd_bytes(["gzip", "-c"], stdin=b"")[2] == 0
    # GNU's blank line before the message
    assert run_cmd_bytes(["gzip", "-d"], stdin=b"not gzip") == (b"", b"\ngzip: stdin: not in gzip format\n", 1)
    # gunzip is gzip -d
    assert run_cmd_bytes(["gunzip", "nosuch.gz"], fs=fs) == (b"", b"gzip: nosuch.gz: No such file or directory\n", 1)
    listing = run_cmd_bytes(["gzip", "-l"], stdin=gzip.compress(b"x" * 1000), fs=fs)[0].decode().splitlines()
    assert listing[0].split() == ["compressed", "uncompressed", "ratio", "uncompressed_name"]
    assert listing[1].split()[1] == "1000"


def test_zip_and_unzip(fs):
    out, err, status = run_cmd_bytes(["zip", "-r", "z.zip", "src"], fs=fs)
    assert status == 0 and out.splitlines()[0] == b"  adding: src/ (stored 0%)"
    assert b"  adding: src/sub/b (deflated" in out
    with zipfile.ZipFile(io.BytesIO(fs.read_bytes("/workspace/z.zip"))) as zf:
        assert zf.read("src/sub/b") == b"there\n" * 100
        assert "src/a" in zf.namelist()
    assert run_cmd_bytes(["zip", "z.zip", "src/a"], fs=fs)[0] == b"updating: src/a (stored 0%)\n"
    listing = run_cmd_bytes(["unzip", "-l", "z.zip"], fs=fs)[0].decode().splitlines()
    assert listing[0] == "Archive:  z.zip" and listing[-1].split()[-2:] == ["5", "files"]
    fs.mkdir("/workspace/out")
    out, _, status = run_cmd_bytes(["unzip", "-q", "z.zip", "-d", "out"], fs=fs)
    assert (out, status) == (b"", 0)
    assert fs.read_bytes("/workspace/out/src/sub/b") == b"there\n" * 100
    assert run_cmd_bytes(["unzip", "-p", "z.zip", "src/a"], fs=fs)[0] == b"hi\n"
    assert run_cmd_bytes(["zip", "-d", "z.zip", "src/a"], fs=fs)[0] == b"deleting: src/a\n"
    assert run_cmd_bytes(["zip", "z3.zip", "nosuch"], fs=fs)[2] == 12
    assert run_cmd_bytes(["unzip", "nosuch.zip"], fs=fs)[2] == 9


def test_zip_split_parts_unzip_reads_back(fs):
    # issue #33: zip -s writes x.z01 ... x.zip; Info-ZIP's unzip cannot extract a split (it
    # only lists one, with a warning), ours reads the parts in order
    import os
    import subprocess
    import tempfile
    blobs = {f"/workspace/d/f{i}": os.urandom(700) + bytes(range(256)) * (i % 5) for i in range(200)}
    blobs["/workspace/d/big"] = os.urandom(150_000)
    fs.mkdir("/workspace/d")
    for path, data in blobs.items():
        fs.write_bytes(path, data)
    assert run_cmd_bytes(["zip", "-q", "-r", "-s", "64k", "x", "d"], fs=fs)[2] == 0
    names = sorted(n for n in fs.listdir("/workspace") if n.startswith("x."))
    assert len(names) > 3 and names == [f"x.z{n:02d}" for n in range(1, len(names))] + ["x.zip"]
    parts = [fs.read_bytes(f"/workspace/{n}") for n in names]
    assert parts[0][:4] == b"PK\x07\x08" and all(len(p) == 65536 for p in parts[:-1])
    out, err, status = run_cmd_bytes(["unzip", "-q", "x.zip", "-d", "out"], fs=fs)
    assert (out, err, status) == (b"", b"", 0)
    for path, data in blobs.items():
        assert fs.read_bytes(path.replace("/workspace/", "/workspace/out/")) == data
    tested = run_cmd_bytes(["unzip", "-t", "x.zip"], fs=fs)[0]
    assert tested.endswith(b"No errors detected in compressed data of x.zip.\n")
    assert run_cmd_bytes(["unzip", "-p", "x.zip", "d/f3"], fs=fs)[0] == blobs["/workspace/d/f3"]
    # the parts as the real unzip reads them (when it is here): it lists them with its warning
    if subprocess.run(["sh", "-c", "command -v unzip"], capture_output=True).returncode == 0:
        with tempfile.TemporaryDirectory() as tmp:
            for n, p in zip(names, parts):
                with open(f"{tmp}/{n}", "wb") as f:
                    f.write(p)
            real = subprocess.run(["unzip", "-l", "x.zip"], cwd=tmp, capture_output=True)
            ours = run_cmd_bytes(["unzip", "-l", "x.zip"], fs=fs)
            assert (ours[0], ours[1], ours[2]) == (real.stdout, real.stderr, real.returncode)
    fs.unlink("/workspace/x.z02")
    out, err, status = run_cmd_bytes(["unzip", "-q", "x.zip"], fs=fs)
    assert status == 9 and b"cannot find part x.z02" in err
