"""Host files through the frontend, never the kernel (issue #31, items 4, 7 and 9), through a real
kernel with jupyter_client: the names of the notebook's folder sent over the comm make `cat` of a
missing file say how to bring it in; an upload over the VFS quota says how to raise it and leaves
no partial file; the kernel's notices are quiet output (display_data), or notifications on a
comm that shows them, never red stderr."""
from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from sandbox_kernel.kernel.comms import vfs as comm_module
from sandbox_kernel.kernel.comms.vfs import MAX_HOST_NAMES, VfsRequestHandler
from sandbox_kernel.kernel.install import install
from sandbox_kernel.client.vfs import VfsClient, VfsError
from sandbox_kernel.vfs import make_vfs
from tests.support.kernelclient import collect, execute, notice_text, run_ok, start_kernel, stream_text


@pytest.fixture
def vfs(kernel):
    with VfsClient(kernel[1]) as client:
        yield client


def test_host_bridge_cat_of_a_file_beside_the_notebook_says_how_to_bring_it_in(kernel, vfs):
    kc = kernel[1]
    assert vfs.request("host_names", names=["data.csv", "notes.md", "résumé.txt"])[0] == {"count": 3}
    reply, messages = execute(kc, "cat data.csv")
    err = stream_text(messages, "stderr")
    assert reply["status"] == "error"
    assert err.startswith("cat: data.csv: No such file or directory\n"), err
    assert "data.csv is in the notebook's folder on the host" in err and "Copy into Sandbox" in err, err
    # the same by absolute path; a name not beside the notebook, or elsewhere than /workspace, gets none
    assert "notebook's folder" in stream_text(execute(kc, "cat /workspace/notes.md")[1], "stderr")
    for missing in ("cat other.csv", "cat /tmp/data.csv", "mkdir -p sub && cd sub && cat data.csv; cd .."):
        err = stream_text(execute(kc, missing)[1], "stderr")
        assert "No such file" in err and "notebook's folder" not in err, (missing, err)
    # once the file is in, cat reads it; new names replace the old ones
    vfs.write_text("/workspace/data.csv", "a,b\n")
    assert run_ok(kc, "cat data.csv") == "a,b\n"
    vfs.request("host_names", names=[])
    assert "notebook's folder" not in stream_text(execute(kc, "cat notes.md")[1], "stderr")


@pytest.mark.parametrize("names, code", [
    (["a/b"], "EINVAL"), ([".."], "EINVAL"), ([""], "EINVAL"), (["x\x1b[2Jy"], "EINVAL"), (["a\0b"], "EINVAL"),
    (["n" * 256], "EINVAL"), ([7], "EINVAL"), ("data.csv", "EINVAL"),
    ([f"f{i}" for i in range(MAX_HOST_NAMES + 1)], "E2BIG"),
])
def test_host_bridge_names_are_untrusted_and_bounded(vfs, names, code):
    with pytest.raises(VfsError) as failed:
        vfs.request("host_names", names=names)
    assert failed.value.code == code, failed.value
    assert vfs.request("host_names", names=[f"f{i}" for i in range(MAX_HOST_NAMES)])[0]["count"] == MAX_HOST_NAMES


def test_host_bridge_an_upload_over_the_quota_says_how_to_raise_it_and_leaves_nothing(kernel, vfs):
    kc = kernel[1]
    run_ok(kc, "%limits vfs_bytes=12M")
    try:
        usage = vfs.request("usage")[0]
        assert usage["bytes_max"] == 12 * 1024 * 1024 and "%limits vfs_bytes=24M" in usage["hint"], usage
        # the panel's staged upload: chunks under a temporary name, renamed into place at the end
        chunk = b"x" * (4 * 1024 * 1024)
        part = "/workspace/.big.bin.upload-1"
        with pytest.raises(VfsError) as failed:
            for i in range(4):  # 16 MiB: more than the 12 MiB quota
                vfs.request("write", [chunk], path=part, offset=i * len(chunk), truncate=i == 0, staged=True)
        assert failed.value.code == "ENOSPC"
        message = str(failed.value)
        assert "limit vfs_bytes" in message and "%limits vfs_bytes=24M" in message, message
        # the browser went away without deleting it: closing the comm removes the partial file
        assert vfs.stat(part)["size"] >= 8 * 1024 * 1024
    finally:
        vfs.close()
    assert run_ok(kc, "ls -A /workspace | grep -c upload || true").strip() == "0"
    run_ok(kc, "%limits vfs_bytes=256M")


def test_host_bridge_a_staged_upload_renamed_into_place_stays_and_an_abandoned_one_goes(monkeypatch):
    fs = make_vfs(64 * 1024 * 1024, 10_000, [], 1)
    handler = VfsRequestHandler(fs)
    write = {"id": 1, "op": "write", "offset": 0, "truncate": True, "staged": True}
    assert handler.handle(write | {"path": "/workspace/.a.part"}, [b"a"])[0]["ok"]
    assert handler.handle({"id": 2, "op": "rename", "path": "/workspace/.a.part", "to": "/workspace/a"})[0]["ok"]
    assert handler.handle(write | {"path": "/workspace/.b.part"}, [b"b"])[0]["ok"]
    monkeypatch.setattr(comm_module.time, "monotonic", lambda: 1e12)  # long after its last chunk
    handler.handle({"id": 3, "op": "usage"})
    assert fs.read_bytes("/workspace/a") == b"a" and not fs.exists("/workspace/.b.part")


def _open_notice_comm(kc) -> str:
    comm_id = uuid.uuid4().hex
    kc.shell_channel.send(kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "sandbox.vfs",
                                                       "data": {"notices": True}}))
    while True:
        msg = kc.get_iopub_msg(timeout=30)
        if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == comm_id:
            assert msg["content"]["data"]["event"] == "open" and msg["content"]["data"]["notices"] is True
            return comm_id


def test_host_bridge_notices_are_notifications_or_quiet_output_never_stderr(jupyter_kernels, tmp_path):
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"), JPY_SESSION_NAME="/nb/notices.ipynb")
    # headless (papermill, nbclient): the notice is plain output the executed notebook keeps
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        reply, messages = execute(kc, "echo one > /workspace/one.txt")
        assert reply["status"] == "ok" and stream_text(messages, "stderr") == ""
        assert "kept across restarts" in notice_text(messages)
    # a frontend that shows notices (JupyterLab's extension): a comm event, nothing in the cell
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        comm_id = _open_notice_comm(kc)
        msg_id = kc.execute("cat /workspace/one.txt")
        messages = collect(kc, msg_id)
        events = [m["content"]["data"] for m in messages
                  if m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id]
        assert [e["level"] for e in events] == ["info"] and "restored 1 files" in events[0]["text"], events
        assert notice_text(messages) == "" and stream_text(messages, "stderr") == ""
        assert stream_text(messages) == "one\n"
