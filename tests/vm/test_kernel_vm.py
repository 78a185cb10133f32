"""%%vm through a real kernel process: a cell, %vm status, and SIGKILL of the kernel."""
from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.kernelclient import collect, shell_reply, start_kernel

from sandbox_kernel.kernel.install import install

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def _children(pid: int) -> list[tuple[int, bytes]]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            ppid = int(next(line.split()[1] for line in status.splitlines() if line.startswith("PPid:")))
            if ppid == pid:
                found.append((int(entry.name), (entry / "cmdline").read_bytes()))
        except (OSError, StopIteration, ValueError):
            continue
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _iopub_text(kc, msg_id, timeout=120):
    """(stream name, text) of a cell's stream messages."""
    return [(m["content"]["name"], m["content"]["text"]) for m in collect(kc, msg_id, timeout)
            if m["msg_type"] == "stream"]


@pytest.fixture
def kernel(guest_image, jupyter_kernels):
    """A kernel of its own per test: each test sees its first %%vm cell (and one kills it)."""
    with start_kernel("sandbox") as pair:
        yield pair


def test_vm_cell_in_a_kernel_and_sigkill(kernel):
    km, kc = kernel
    msg_id = kc.execute("echo hello > /workspace/from-shell.txt")
    _iopub_text(kc, msg_id)
    msg_id = kc.execute("%%vm\ncat from-shell.txt; uname -s; echo vm-made > from-vm.txt")
    streams = _iopub_text(kc, msg_id)
    stdout = "".join(t for n, t in streams if n == "stdout")
    assert stdout == "hello\nLinux\n", streams
    assert kc.get_shell_msg(timeout=30)["content"]["status"] == "ok"
    msg_id = kc.execute("%vm status\ncat from-vm.txt")
    streams = _iopub_text(kc, msg_id)
    stdout = "".join(t for n, t in streams if n == "stdout")
    assert "vm-made" in stdout and "vm: running" in stdout and "accelerator:" in stdout
    kernel_pid = km.provisioner.process.pid
    qemus = [pid for pid, cmd in _children(kernel_pid) if b"qemu-system" in cmd]
    assert len(qemus) == 1
    os.kill(kernel_pid, signal.SIGKILL)
    killed_at = time.monotonic()
    while _alive(qemus[0]) and time.monotonic() - killed_at < 5:
        time.sleep(0.02)
    assert not _alive(qemus[0]), "QEMU outlived the SIGKILLed kernel"


def test_vm_cell_reads_stdin_through_input_request(kernel):
    _, kc = kernel
    msg_id = kc.execute("%%vm\necho before; read name; echo \"hi $name\"", allow_stdin=True)
    request = kc.get_stdin_msg(timeout=120)  # the first %%vm cell also starts the VM
    assert request["msg_type"] == "input_request"
    kc.input("Ada")
    streams = _iopub_text(kc, msg_id)
    assert "".join(t for n, t in streams if n == "stdout") == "before\nhi Ada\n"
    assert kc.get_shell_msg(timeout=30)["content"]["status"] == "ok"
    # a frontend without stdin: the guest reads end of input at once
    msg_id = kc.execute("%%vm\nread name; echo \"status $?\"", allow_stdin=False)
    streams = _iopub_text(kc, msg_id)
    assert "".join(t for n, t in streams if n == "stdout") == "status 1\n"


def test_vm_setup_shows_as_one_updated_output_and_cell_options(kernel):
    _, kc = kernel
    msg_id = kc.execute("%%vm --root\nid -u")
    messages = collect(kc, msg_id, timeout=120)
    displays = [m for m in messages if m["msg_type"] in ("display_data", "update_display_data")]
    assert displays and displays[0]["msg_type"] == "display_data"
    assert all(m["msg_type"] == "update_display_data" for m in displays[1:])
    assert len({m["content"]["transient"]["display_id"] for m in displays}) == 1
    assert displays[-1]["content"]["data"]["text/plain"].startswith("vm: ready in")
    streams = [(m["content"]["name"], m["content"]["text"]) for m in messages if m["msg_type"] == "stream"]
    assert streams == [("stdout", "0\n")]
    msg_id = kc.execute("%%vm\nid -un")
    assert _iopub_text(kc, msg_id) == [("stdout", "user\n")]
    msg_id = kc.execute("%%vm --bogus\nid")
    assert any("unknown option '--bogus'" in text for _, text in _iopub_text(kc, msg_id))


def test_admin_mounts_reach_the_vm(guest_image, tmp_path, monkeypatch):
    """The admin's --mount trees through a kernel and %%vm: an ro tree (read-only directories,
    a file over the 1 MiB transfer chunk) reaches the guest, the guest's writes into the rw
    tree are on the host once the cell has replied (a deletion too), and nothing the guest
    does to the ro tree, even as root, reaches the host or the sandbox's copy."""
    data, results = tmp_path / "data", tmp_path / "results"
    (data / "sub").mkdir(parents=True)
    (data / "input.csv").write_text("a,b\n1,2\n")
    big = bytes(range(256)) * 6000  # 1.5 MiB: written in two chunks
    (data / "sub" / "big.bin").write_bytes(big)
    results.mkdir()
    (results / "existing.txt").write_text("old\n")
    (results / "gone.txt").write_text("delete me\n")
    prefix = tmp_path / "prefix"
    monkeypatch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))
    install("sandbox-mounts", prefix=str(prefix), policy_argv=[
        "--mount", f"{data}:/workspace/data:ro", "--mount", f"{results}:/workspace/results:rw"])
    with start_kernel("sandbox-mounts") as (km, kc):
        msg_id = kc.execute(
            "%%vm\ncat data/input.csv; md5sum < data/sub/big.bin; stat -c '%a %n' data data/sub data/input.csv\n"
            "echo guest-result > results/out.txt; echo more >> results/existing.txt; rm results/gone.txt\n"
            "(echo tamper > data/input.csv) 2>/dev/null || echo ro-file-refused\n"
            "touch data/planted 2>/dev/null || echo ro-dir-refused")
        streams = _iopub_text(kc, msg_id)
        reply = kc.get_shell_msg(timeout=30)["content"]
        stdout = "".join(t for n, t in streams if n == "stdout")
        assert reply["status"] == "ok", streams
        assert stdout.splitlines() == ["a,b", "1,2", f"{hashlib.md5(big).hexdigest()}  -",
                                       "555 data", "555 data/sub", "444 data/input.csv",
                                       "ro-file-refused", "ro-dir-refused"], streams
        # after the reply, without a shutdown: the rw tree is on the host
        assert (results / "out.txt").read_text() == "guest-result\n"
        assert (results / "existing.txt").read_text() == "old\nmore\n"
        assert not (results / "gone.txt").exists()

        msg_id = kc.execute("%%vm --root\nchmod u+w data/input.csv; echo tamper > data/input.csv; "
                            "echo x > data/planted.txt; echo root-wrote")
        streams = _iopub_text(kc, msg_id)
        assert "root-wrote\n" in "".join(t for n, t in streams if n == "stdout"), streams
        assert "not copied back" in "".join(t for n, t in streams if n == "stderr"), streams
        msg_id = kc.execute("cat /workspace/data/input.csv; ls -1 /workspace/data")
        streams = _iopub_text(kc, msg_id)
        assert "".join(t for n, t in streams if n == "stdout") == "a,b\n1,2\ninput.csv\nsub\n", streams
    assert (data / "input.csv").read_text() == "a,b\n1,2\n"
    assert sorted(p.name for p in data.iterdir()) == ["input.csv", "sub"]
    assert (data / "sub" / "big.bin").read_bytes() == big


def _complete(kc, code, cursor=None):
    return shell_reply(kc, kc.complete(code, len(code) if cursor is None else cursor), timeout=30)["content"]


def test_vm_cells_complete_from_the_guest_once_it_runs(kernel):
    _, kc = kernel
    assert _complete(kc, "%%vm\nech")["matches"] == []  # no VM yet: nothing, and none is started
    msg_id = kc.execute("%vm status")
    assert "vm: not running" in "".join(t for _, t in _iopub_text(kc, msg_id))
    kc.get_shell_msg(timeout=30)
    msg_id = kc.execute("%%vm\nmkdir -p cdir/subdir && touch cdir/alpha.txt 'cdir/al pine'")
    _iopub_text(kc, msg_id)
    assert kc.get_shell_msg(timeout=30)["content"]["status"] == "ok"
    started = time.monotonic()
    reply = _complete(kc, "%%vm\nech")
    assert "echo" in reply["matches"] and all(m.startswith("ech") for m in reply["matches"])
    assert reply["cursor_start"] == 5
    assert "uname" in _complete(kc, "%%vm\nls | una")["matches"]
    reply = _complete(kc, "%%vm --root\ncat cdir/al")
    assert reply["matches"] == ["cdir/al\\ pine", "cdir/alpha.txt"] and reply["cursor_start"] == 16
    assert _complete(kc, "%%vm\nls cdir/s")["matches"] == ["cdir/subdir/"]
    assert "$HOME" in _complete(kc, "%%vm\necho $HO")["matches"]
    assert time.monotonic() - started < 30
    reply = shell_reply(kc, kc.inspect("%%vm\ncd /tmp", 6), timeout=30)["content"]
    assert reply["found"] and "cd is a shell builtin" in reply["data"]["text/plain"]
    msg_id = kc.execute("%%vm\necho still-fine")
    assert _iopub_text(kc, msg_id) == [("stdout", "still-fine\n")]
