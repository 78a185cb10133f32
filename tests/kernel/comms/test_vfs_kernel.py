"""The sandbox.vfs comm through a real kernel, with the Python client."""
from __future__ import annotations

import base64
import hashlib
import os
import time
import uuid

import pytest

from sandbox_kernel.client.vfs import VfsClient, VfsError
from tests.support.kernelclient import execute, run_ok, shell_reply, stream_contains, wait_for_message


@pytest.fixture
def vfs(kernel):
    client = VfsClient(kernel[1])
    with client:
        yield client


def run_cell(kc, code: str, timeout: float = 30) -> dict:
    return execute(kc, code, timeout)[0]


def test_open_reports_protocol_version(vfs):
    assert vfs.protocol_version == 2 and vfs.encoding == "binary"


def test_base64_encoding_both_ways(kernel):
    """A comm opened with encoding base64 (what a client behind a text-only relay uses): the
    client's payloads and the kernel's replies travel in the JSON, no message has binary buffers."""
    data = os.urandom(5 * 1024 * 1024 + 7) + b"\0\xff"  # two chunks
    kc = kernel[1]
    with VfsClient(kc, encoding="base64") as vfs:
        assert vfs.encoding == "base64"
        vfs.write_bytes("/workspace/b64.bin", data)
        assert vfs.read_bytes("/workspace/b64.bin") == data
        assert hashlib.sha256(data).hexdigest() in run_ok(kc, "sha256sum /workspace/b64.bin")
        vfs.delete("/workspace/b64.bin")

    # the same by hand, to see the messages themselves
    comm_id = uuid.uuid4().hex
    kc.shell_channel.send(kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "sandbox.vfs",
                                                       "data": {"encoding": "base64"}}))
    request = {"id": "w", "op": "write", "path": "/workspace/t.bin",
               "buffers_base64": [base64.b64encode(b"\x00\xffhi").decode()]}
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": request}))
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id, "data": {
        "id": "r", "op": "read", "path": "/workspace/t.bin"}}))
    replies = {}
    deadline = time.monotonic() + 30
    while len(replies) < 3 and time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=30)
        if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == comm_id:
            assert not msg["buffers"]
            data_ = msg["content"]["data"]
            replies[data_.get("id", data_.get("event"))] = data_
    kc.shell_channel.send(kc.session.msg("comm_close", {"comm_id": comm_id, "data": {}}))
    assert replies["open"]["encoding"] == "base64" and replies["open"]["protocol_version"] == 2
    assert replies["w"]["ok"] and replies["w"]["result"]["size"] == 4
    assert base64.b64decode(replies["r"]["buffers_base64"][0]) == b"\x00\xffhi"


def test_file_made_by_shell_is_visible(kernel, vfs):
    assert run_cell(kernel[1], "echo hi > /workspace/from_shell.txt")["status"] == "ok"
    assert vfs.read_text("/workspace/from_shell.txt") == "hi\n"
    names = {e["name"]: e for e in vfs.list("/workspace")}
    assert names["from_shell.txt"]["size"] == 3 and names["from_shell.txt"]["type"] == "file"


def test_file_written_by_client_is_seen_by_shell(kernel, vfs):
    vfs.write_text("/workspace/seed/in.csv", "a,b\n1,2\n", parents=True)
    reply = kernel[1].execute_interactive("cut -d, -f2 /workspace/seed/in.csv > /workspace/seed/out.txt",
                                          timeout=30, output_hook=lambda m: None)
    assert reply["content"]["status"] == "ok"
    assert vfs.read_text("/workspace/seed/out.txt") == "b\n2\n"


def test_binary_round_trip_20mb_in_chunks(vfs, tmp_path):
    data = os.urandom(20 * 1024 * 1024) + b"\0\0\xff"
    seen = []
    vfs.write_bytes("/workspace/big.bin", data, progress=lambda done, total: seen.append(done))
    assert seen[-1] == len(data) and len(seen) >= 5
    assert vfs.stat("/workspace/big.bin")["size"] == len(data)
    assert vfs.read_bytes("/workspace/big.bin") == data
    local = tmp_path / "down.bin"
    vfs.download("/workspace/big.bin", local)
    assert local.read_bytes() == data
    vfs.delete("/workspace/big.bin")


def test_upload_then_shell_checksum(kernel, vfs, tmp_path):
    local = tmp_path / "up.txt"
    local.write_text("upload me\n")
    vfs.upload(local, "/workspace/up/up.txt")
    outputs = []
    kernel[1].execute_interactive("cat /workspace/up/up.txt", timeout=30,
                                  output_hook=lambda m: outputs.append(m["content"].get("text", "")))
    assert "".join(outputs) == "upload me\n"


def test_mkdir_rename_copy_delete_export_import(vfs):
    vfs.mkdir("/workspace/t/a", parents=True)
    vfs.write_text("/workspace/t/a/x.txt", "x")
    vfs.copy("/workspace/t/a", "/workspace/t/b")
    vfs.rename("/workspace/t/b/x.txt", "/workspace/t/b/y.txt")
    tar = vfs.export_tar("/workspace/t")
    vfs.delete("/workspace/t", recursive=True)
    with pytest.raises(VfsError) as e:
        vfs.stat("/workspace/t")
    assert e.value.code == "ENOENT"
    assert vfs.import_tar(tar, "/workspace/t2") >= 4
    assert vfs.read_text("/workspace/t2/b/y.txt") == "x"


@pytest.mark.parametrize("op,fields,code", [
    ("read", {"path": "/workspace/missing"}, "ENOENT"),
    ("list", {"path": "/etc/hostname"}, "ENOTDIR"),
    ("read", {"path": "/workspace"}, "EISDIR"),
    ("mkdir", {"path": "/etc/new"}, "EACCES"),
    ("mkdir", {"path": "/workspace"}, "EEXIST"),
    ("read", {"path": "no/slash"}, "EINVAL"),
    ("read", {"path": "/a\0b"}, "EINVAL"),
    ("read", {"path": "/etc/hostname", "length": 1 << 40}, "EINVAL"),
    ("bogus", {}, "ENOSYS"),
])
def test_errors_through_the_kernel(vfs, op, fields, code):
    with pytest.raises(VfsError) as e:
        vfs.request(op, **fields)
    assert e.value.code == code


def test_served_while_a_cell_runs(kernel, vfs):
    km, kc = kernel
    msg_id = kc.execute("echo started; sleep 300; echo done")
    wait_for_message(kc, msg_id, stream_contains("started"))  # the cell runs
    entries = vfs.list("/")
    assert {e["name"] for e in entries} >= {"workspace", "tmp", "etc"}
    # answered while the cell still ran: only the interrupt sent after the answer ends it
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=60)["content"]
    assert reply["status"] == "error" and reply["ename"] == "Interrupted", reply


def test_watch_reports_shell_changes(kernel, vfs):
    events: list[dict] = []
    vfs.watch(events.extend)
    run_cell(kernel[1], "mkdir -p /workspace/w && echo 1 > /workspace/w/f && rm /workspace/w/f "
                        "&& echo 2 > /workspace/w/g")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any(c["path"] == "/workspace/w/g" for c in events):
        vfs.poll_events(0.3)
    kinds = {c["path"]: c["kind"] for c in events}
    assert kinds.get("/workspace/w/g") == "created"
    assert "/workspace/w/f" not in kinds  # created and deleted within one batch


def test_burst_of_1000_requests(kernel, vfs):
    kc = vfs._client._kc
    ids = []
    for i in range(1000):
        rid = f"burst-{i}"
        ids.append(rid)
        msg = kc.session.msg("comm_msg", {"comm_id": vfs.comm_id, "data": {"id": rid, "op": "stat",
                                                                           "path": "/workspace"}})
        kc.shell_channel.send(msg)
    got = set()
    deadline = time.monotonic() + 60
    while len(got) < 1000 and time.monotonic() < deadline:
        try:
            msg = vfs._loop.run_until_complete(kc.get_iopub_msg(timeout=5))
        except Exception:
            continue
        data = msg["content"].get("data") or {}
        if msg["msg_type"] == "comm_msg" and str(data.get("id", "")).startswith("burst-"):
            assert data["ok"]
            got.add(data["id"])
    assert got == set(ids)
    assert run_cell(kernel[1], "echo still alive")["status"] == "ok"
