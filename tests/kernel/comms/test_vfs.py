"""The VFS comm protocol handler, without a kernel: every op, every error code, fuzz."""
from __future__ import annotations

import asyncio
import io
import tarfile

import pytest
from hypothesis import given, settings, strategies as hs

import base64

from sandbox_kernel.kernel.comms.vfs import (MAX_READ, MAX_WATCHERS, MAX_WRITE, VfsRequestHandler, encode_payload,
                                        requested_encoding)
from sandbox_kernel.vfs import make_vfs


@pytest.fixture
def handler():
    return VfsRequestHandler(make_vfs(1 << 20, 1000))


def call(handler, buffers=None, **req):
    req.setdefault("id", "1")
    return handler.handle(req, buffers)


def ok(handler, buffers=None, **req):
    reply, bufs = call(handler, buffers, **req)
    assert reply["ok"], reply
    return reply["result"], bufs


def err(handler, buffers=None, **req):
    reply, bufs = call(handler, buffers, **req)
    assert not reply["ok"], reply
    assert bufs == []
    return reply["error"]["code"]


def test_write_read_binary_round_trip(handler):
    data = bytes(range(256)) * 100 + b"\0\0"
    ok(handler, [data], op="write", path="/workspace/bin.dat")
    result, bufs = ok(handler, op="read", path="/workspace/bin.dat")
    assert bufs == [data] and result["size"] == len(data) and result["eof"]
    result, bufs = ok(handler, op="read", path="/workspace/bin.dat", offset=10, length=5)
    assert bufs == [data[10:15]] and not result["eof"]


def test_chunked_write_with_offsets(handler):
    ok(handler, [b"hello "], op="write", path="/workspace/a.txt")
    ok(handler, [b"world"], op="write", path="/workspace/a.txt", offset=6, truncate=False)
    assert handler.fs.read_bytes("/workspace/a.txt") == b"hello world"
    ok(handler, [b"J"], op="write", path="/workspace/a.txt", offset=0, truncate=False)
    assert handler.fs.read_bytes("/workspace/a.txt") == b"Jello world"


def test_list_stat_mkdir_rename_copy_delete(handler):
    ok(handler, op="mkdir", path="/workspace/d/e", parents=True)
    ok(handler, [b"x"], op="write", path="/workspace/d/e/f.txt")
    handler.fs.symlink("e/f.txt", "/workspace/d/link")
    result, _ = ok(handler, op="list", path="/workspace/d")
    by_name = {e["name"]: e for e in result["entries"]}
    assert by_name["e"]["type"] == "dir" and by_name["link"]["type"] == "symlink"
    assert by_name["link"]["target"] == "e/f.txt"
    result, _ = ok(handler, op="stat", path="/workspace/d/e/f.txt")
    assert result["size"] == 1 and result["type"] == "file"
    ok(handler, op="copy", path="/workspace/d", to="/workspace/d2")
    assert handler.fs.read_bytes("/workspace/d2/e/f.txt") == b"x"
    ok(handler, op="rename", path="/workspace/d2", to="/workspace/d3")
    assert err(handler, op="delete", path="/workspace/d3") == "ENOTEMPTY"
    ok(handler, op="delete", path="/workspace/d3", recursive=True)
    assert not handler.fs.exists("/workspace/d3")


def test_export_import_tar(handler):
    ok(handler, [b"one"], op="write", path="/workspace/p/1.txt", parents=True)
    ok(handler, [b"two"], op="write", path="/workspace/p/q/2.txt", parents=True)
    result, bufs = ok(handler, op="export", path="/workspace/p", chunk_size=1024)
    assert result["chunks"] == len(bufs) > 1
    names = tarfile.open(fileobj=io.BytesIO(b"".join(bufs))).getnames()
    assert sorted(names) == ["1.txt", "q", "q/2.txt"]
    ok(handler, bufs, op="import", path="/workspace/restored")
    assert handler.fs.read_bytes("/workspace/restored/q/2.txt") == b"two"


@pytest.mark.parametrize("req,code", [
    ({"op": "read", "path": "/nope"}, "ENOENT"),
    ({"op": "read", "path": "/workspace"}, "EISDIR"),
    ({"op": "list", "path": "/etc/passwd"}, "ENOTDIR"),
    ({"op": "mkdir", "path": "/workspace"}, "EEXIST"),
    ({"op": "mkdir", "path": "/etc/x"}, "EACCES"),
    ({"op": "read", "path": "relative"}, "EINVAL"),
    ({"op": "read", "path": "/a\0b"}, "EINVAL"),
    ({"op": "read", "path": 5}, "EINVAL"),
    ({"op": "read"}, "EINVAL"),
    ({"op": "read", "path": "/etc/passwd", "length": MAX_READ + 1}, "EINVAL"),
    ({"op": "read", "path": "/etc/passwd", "offset": -1}, "EINVAL"),
    ({"op": "frobnicate"}, "ENOSYS"),
    ({"op": "__init__"}, "ENOSYS"),
    ({"op": "write", "path": "/workspace/x"}, "EINVAL"),
    ({"op": "import", "path": "/workspace/x"}, "EINVAL"),
])
def test_error_codes(handler, req, code):
    assert err(handler, **req) == code


def test_symlink_loop_is_eloop(handler):
    handler.fs.symlink("b", "/workspace/a")
    handler.fs.symlink("a", "/workspace/b")
    assert err(handler, op="read", path="/workspace/a") == "ELOOP"


def test_dotdot_cannot_escape(handler):
    result, bufs = ok(handler, op="read", path="/workspace/../../../etc/hostname")
    assert bufs == [b"sandbox\n"]


def test_quota_write_keeps_old_content(handler):
    ok(handler, [b"precious"], op="write", path="/workspace/keep.txt")
    assert err(handler, [b"x" * (1 << 20)], op="write", path="/workspace/keep.txt") == "ENOSPC"
    assert handler.fs.read_bytes("/workspace/keep.txt") == b"precious"


def test_malformed_requests_get_error_replies(handler):
    for bad in (None, [], "x", 5, {"op": "list"}, {"id": True, "op": "list"}, {"id": "1"}):
        reply, bufs = handler.handle(bad)
        assert reply["ok"] is False and reply["error"]["code"] == "EINVAL"


def test_watch_batches_changes():
    events = []
    handler = VfsRequestHandler(make_vfs(1 << 20, 1000), emit=lambda d, b: events.append(d))

    async def scenario():
        ok(handler, op="watch")
        for i in range(50):
            handler.fs.write_bytes(f"/workspace/f{i}", b"x")
        handler.fs.unlink("/workspace/f0")
        handler.fs.write_bytes("/tmp/t", b"1")
        await asyncio.sleep(0.25)

    asyncio.run(scenario())
    assert len(events) == 1
    changes = {c["path"]: c["kind"] for c in events[0]["changes"]}
    assert changes["/workspace/f1"] == "created" and "/workspace/f0" not in changes
    assert changes["/tmp/t"] == "created"
    ok(handler, op="unwatch")
    assert handler.fs.listeners == []


def test_watching_comms_are_capped():
    """Red team: 3,000 watching comms made a 300-file cell take 25 s and 165,000 messages."""
    fs = make_vfs(1 << 20, 1000)
    shared: set = set()
    handlers = [VfsRequestHandler(fs, watchers=shared) for _ in range(MAX_WATCHERS + 3)]
    replies = [call(h, op="watch")[0] for h in handlers]
    assert [r["ok"] for r in replies].count(True) == MAX_WATCHERS
    refused = [r for r in replies if not r["ok"]]
    assert all(r["error"]["code"] == "EBUSY" and "close one" in r["error"]["message"] for r in refused)
    assert len(fs.listeners) == MAX_WATCHERS
    handlers[0].close()
    assert call(handlers[-1], op="watch")[0]["ok"]  # a slot freed by a closed comm is usable


def test_import_larger_than_the_free_space_is_refused_before_copying():
    handler = VfsRequestHandler(make_vfs(1 << 20, 1000))

    class Huge:  # a buffer that may only be measured, never copied
        def __len__(self):
            return 1536 * 1024 * 1024

        def __bytes__(self):
            raise AssertionError("copied before the size check")
    reply, _ = call(handler, [Huge()], op="import", path="/workspace")
    assert not reply["ok"] and reply["error"]["code"] == "ENOSPC"
    reply, _ = call(handler, [Huge()], op="write", path="/workspace/x")
    assert not reply["ok"] and reply["error"]["code"] == "EFBIG"


def test_import_reads_the_buffers_in_place():
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        for i in range(3):
            data = f"file {i}\n".encode() * 1000
            info = tarfile.TarInfo(f"d/f{i}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    blob = raw.getvalue()
    parts = [memoryview(blob[i:i + 100]) for i in range(0, len(blob), 100)]  # many small frames
    handler = VfsRequestHandler(make_vfs(1 << 20, 1000))
    result, _ = ok(handler, parts, op="import", path="/workspace/in")
    assert result["entries"] == 3 and handler.fs.read_bytes("/workspace/in/d/f2") == b"file 2\n" * 1000


# ----------------------------------------------------------------- base64 (text-only relays)
def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_base64_payloads_are_decoded(handler):
    data = bytes(range(256)) * 10
    ok(handler, op="write", path="/workspace/b.bin", buffers_base64=[b64(data)])
    assert handler.fs.read_bytes("/workspace/b.bin") == data
    blob = io.BytesIO()
    with tarfile.open(fileobj=blob, mode="w") as tar:
        info = tarfile.TarInfo("t.txt")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"ok"))
    raw = blob.getvalue()
    parts = [b64(raw[:700]), b64(raw[700:])]  # one archive over several strings
    result, _ = ok(handler, op="import", path="/workspace/imp", buffers_base64=parts)
    assert result["entries"] == 1 and handler.fs.read_bytes("/workspace/imp/t.txt") == b"ok"


@pytest.mark.parametrize("value,code", [
    ("aGk=", "EINVAL"),              # not a list
    ([1], "EINVAL"),                 # not strings
    (["a*b="], "EINVAL"),            # not base64
    (["aGk"], "EINVAL"),             # bad padding
])
def test_bad_base64_is_einval(handler, value, code):
    assert err(handler, op="write", path="/workspace/x", buffers_base64=value) == code
    assert not handler.fs.exists("/workspace/x")


def test_base64_and_binary_together_is_einval(handler):
    assert err(handler, [b"x"], op="write", path="/workspace/x", buffers_base64=[b64(b"y")]) == "EINVAL"


def test_base64_size_is_checked_before_decoding(handler):
    over = "A" * ((MAX_WRITE // 3 + 2) * 4)
    assert err(handler, op="write", path="/workspace/x", buffers_base64=[over]) == "EFBIG"
    room = handler.fs.max_bytes - handler.fs.bytes_used
    assert err(handler, op="import", path="/workspace", buffers_base64=["A" * ((room // 3 + 8) * 4)]) == "ENOSPC"


def test_open_negotiates_the_encoding():
    assert requested_encoding({"encoding": "base64"}) == "base64"
    for data in ({}, None, {"encoding": "utf-7"}, {"encoding": ["base64"]}, "base64"):
        assert requested_encoding(data) == "binary"


def test_replies_of_a_base64_comm_carry_no_buffers(handler):
    ok(handler, [b"\xff\x00abc"], op="write", path="/workspace/r.bin")
    reply, bufs = call(handler, op="read", path="/workspace/r.bin")
    data, out = encode_payload(reply, bufs, "base64")
    assert out == [] and base64.b64decode(data["buffers_base64"][0]) == b"\xff\x00abc"
    assert data["result"] == reply["result"]
    assert encode_payload(reply, bufs, "binary") == (reply, bufs)
    listing = call(handler, op="list", path="/workspace")
    assert encode_payload(*listing, "base64") == listing  # nothing to move


json_values = hs.recursive(hs.none() | hs.booleans() | hs.integers() | hs.text(max_size=20),
                           lambda inner: (hs.lists(inner, max_size=3)
                                          | hs.dictionaries(hs.text(max_size=8), inner, max_size=3)),
                           max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(op=hs.sampled_from(["list", "stat", "read", "write", "mkdir", "delete", "rename", "copy",
                           "export", "import", "watch", "unwatch", "nope"]),
       fields=hs.dictionaries(hs.sampled_from(["id", "path", "to", "offset", "length", "truncate",
                                               "parents", "recursive", "chunk_size", "buffers_base64"]),
                              json_values, max_size=5),
       buffers=hs.lists(hs.binary(max_size=64), max_size=2))
def test_fuzz_never_raises(op, fields, buffers):
    handler = VfsRequestHandler(make_vfs(1 << 16, 200))
    reply, bufs = handler.handle({"op": op, **fields}, buffers)
    assert isinstance(reply, dict) and "ok" in reply
    if not reply["ok"]:
        assert reply["error"]["code"].isupper()
    handler.close()
