"""md5sum/sha*sum/b2sum/cksum and base64/base32, checked against hashlib and GNU's formats."""
import base64
import hashlib

import pytest

from .helpers import new_fs, run_cmd_bytes


@pytest.fixture
def fs():
    fs = new_fs()
    fs.write_bytes("/workspace/a", b"hello\n")
    fs.write_bytes("/workspace/b", bytes(range(256)) * 40)
    return fs


@pytest.mark.parametrize("cmd,algo", [("md5sum", "md5"), ("sha1sum", "sha1"), ("sha224sum", "sha224"),
                                      ("sha256sum", "sha256"), ("sha384sum", "sha384"),
                                      ("sha512sum", "sha512"), ("b2sum", "blake2b")])
def test_digests_match_hashlib(fs, cmd, algo):
    out, err, status = run_cmd_bytes([cmd, "a", "b"], fs=fs)
    want = "".join(f"{hashlib.new(algo, fs.read_bytes('/workspace/' + n)).hexdigest()}  {n}\n" for n in "ab")
    assert (out.decode(), err, status) == (want, b"", 0)


def test_stdin_binary_tag_and_escaped_names(fs):
    assert run_cmd_bytes(["md5sum"], stdin=b"x")[0] == f"{hashlib.md5(b'x').hexdigest()}  -\n".encode()
    assert run_cmd_bytes(["sha256sum", "-b", "a"], fs=fs)[0].endswith(b" *a\n")
    assert run_cmd_bytes(["md5sum", "--tag", "a"], fs=fs)[0] == b"MD5 (a) = b1946ac92492d2347c6235b4d2611184\n"
    fs.write_bytes("/workspace/x\\y", b"a\\b")
    assert run_cmd_bytes(["md5sum", "x\\y"], fs=fs)[0] == b"\\2b28f46e64b4e84814aa8dc22ab1c36d  x\\\\y\n"
    assert run_cmd_bytes(["b2sum", "-l", "256", "a"], fs=fs)[0].startswith(
        hashlib.blake2b(b"hello\n", digest_size=32).hexdigest().encode())


def test_check_mode_ok_failed_and_warnings(fs):
    listing, _, _ = run_cmd_bytes(["md5sum", "a", "b"], fs=fs)
    fs.write_bytes("/workspace/sums", listing + b"garbage line\n" +
                   b"d41d8cd98f00b204e9800998ecf8427e  missing\n")
    fs.write_bytes("/workspace/b", b"changed")
    out, err, status = run_cmd_bytes(["md5sum", "-c", "sums"], fs=fs)
    assert out == b"a: OK\nb: FAILED\nmissing: FAILED open or read\n"
    assert err == (b"md5sum: missing: No such file or directory\n"
                   b"md5sum: WARNING: 1 line is improperly formatted\n"
                   b"md5sum: WARNING: 1 listed file could not be read\n"
                   b"md5sum: WARNING: 1 computed checksum did NOT match\n")
    assert status == 1
    assert run_cmd_bytes(["md5sum", "-c", "--quiet", "sums"], fs=fs)[0] == b"b: FAILED\nmissing: FAILED open or read\n"
    assert run_cmd_bytes(["md5sum", "-c", "--status", "sums"], fs=fs)[:3:2] == (b"", 1)
    good = run_cmd_bytes(["sha1sum", "a"], fs=fs)[0]
    assert run_cmd_bytes(["sha1sum", "-c"], stdin=good, fs=fs) == (b"a: OK\n", b"", 0)
    out, err, status = run_cmd_bytes(["md5sum", "-c"], stdin=b"nothing useful\n", fs=fs)
    assert (err, status) == (b"md5sum: standard input: no properly formatted checksum lines found\n", 1)


def test_cksum_crc_matches_posix():
    # POSIX cksum of "hello\n" measured with GNU cksum
    assert run_cmd_bytes(["cksum"], stdin=b"hello\n")[0] == b"3015617425 6\n"
    assert run_cmd_bytes(["cksum"], stdin=b"")[0] == b"4294967295 0\n"
    assert run_cmd_bytes(["cksum", "-a", "md5", "-"], stdin=b"x")[0] == \
        f"MD5 (-) = {hashlib.md5(b'x').hexdigest()}\n".encode()


def test_missing_file_and_bad_option():
    assert run_cmd_bytes(["sha1sum", "nope"]) == (b"", b"sha1sum: nope: No such file or directory\n", 1)
    out, err, status = run_cmd_bytes(["md5sum", "--bogus"])
    assert status == 1 and err.startswith(b"md5sum: unrecognized option '--bogus'\nTry 'md5sum --help'")


@pytest.mark.parametrize("data", [b"", b"a", b"hello world\n", bytes(range(256)) * 3])
def test_base64_round_trip_and_wrapping(data):
    out, _, status = run_cmd_bytes(["base64"], stdin=data)
    encoded = base64.b64encode(data)
    want = b"".join(encoded[i:i + 76] + b"\n" for i in range(0, len(encoded), 76))
    assert (out, status) == (want, 0)
    assert run_cmd_bytes(["base64", "-d"], stdin=out) == (data, b"", 0)
    assert run_cmd_bytes(["base64", "-w", "0"], stdin=data)[0] == encoded
    b32 = run_cmd_bytes(["base32", "-w0"], stdin=data)[0]
    assert b32 == base64.b32encode(data)
    assert run_cmd_bytes(["base32", "-d"], stdin=b32)[0] == data


def test_base64_decode_errors_like_gnu():
    assert run_cmd_bytes(["base64", "-d"], stdin=b"YWJjZA") == (b"abcd", b"base64: invalid input\n", 1)
    assert run_cmd_bytes(["base64", "-d"], stdin=b"YWJj!ZA==") == (b"abc", b"base64: invalid input\n", 1)
    assert run_cmd_bytes(["base64", "-di"], stdin=b"YWJj!ZA==") == (b"abcd", b"", 0)
    assert run_cmd_bytes(["base64", "-d"], stdin=b"YW==YWJj") == (b"aabc", b"", 0)
    assert run_cmd_bytes(["base64", "-w", "x"])[2] == 1
