"""rm -r removes a tree of 100 000 levels (red team, D8): neither recursion nor paths longer
than PATH_MAX stop it, and the removal costs no memory quadratic in the depth."""
from __future__ import annotations

import pytest

from tests.support.session import Session

LEVELS = 100_000
CHAIN = 100  # directories per mkdir -p (quadratic in its length); chains are then nested by rename


@pytest.fixture
def deep_session():
    session = Session(vfs_inodes=2 * LEVELS)
    fs = session.sandbox.fs
    chain = "/".join(["d"] * CHAIN)
    count = LEVELS // CHAIN
    for i in range(count):
        fs.mkdir(f"/workspace/c{i}/{chain}", parents=True)
    for i in range(count - 1, 0, -1):
        fs.rename(f"/workspace/c{i}", f"/workspace/c{i - 1}/{chain}/c{i}")
    assert fs.listdir("/workspace") == ["c0"]
    yield session
    session.close()


def test_rm_r_removes_a_tree_deeper_than_a_path(deep_session):
    result, out, err, seconds = deep_session.run("rm -r /workspace/c0; echo status=$?; ls -A /workspace",
                                                 wall_time=60)
    assert out == b"status=0\n" and err == b"", (out, err[-300:])
    assert deep_session.sandbox.fs.usage()["inodes_used"] < 1000


def test_rm_r_reports_what_it_may_not_remove_and_goes_on(deep_session):
    fs = deep_session.sandbox.fs
    fs.mkdir("/workspace/locked/inner", parents=True)
    fs.write_bytes("/workspace/locked/inner/f", b"x")
    fs.write_bytes("/workspace/free", b"x")
    fs.chmod("/workspace/locked/inner", 0o555)
    result, out, err, seconds = deep_session.run("rm -r /workspace/locked /workspace/free /workspace/c0; "
                                                 "echo status=$?; ls -A /workspace", wall_time=60)
    assert err == b"rm: cannot remove '/workspace/locked/inner/f': Permission denied\n", err[-300:]
    assert out == b"status=1\nlocked\n"


DEEP_SCENARIO = r'''
import json, resource, sys, time
from sandbox_kernel.kernel.protocol import magics
from sandbox_kernel.kernel.comms.vfs import VfsRequestHandler
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox

def build(fs, levels, chain=100):
    links = "/".join(["d"] * chain)
    for i in range(levels // chain):
        fs.mkdir(f"/workspace/c{i}/{links}", parents=True)
    for i in range(levels // chain - 1, 0, -1):
        fs.rename(f"/workspace/c{i}", f"/workspace/c{i - 1}/{links}/c{i}")

def peak_kib():  # VmHWM: this process's own peak (ru_maxrss carries the parent's across exec)
    return next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:'))

sb = Sandbox(Limits(vfs_inodes=100_000))
fs = sb.fs
build(fs, int(sys.argv[1]))
start = peak_kib()
report = {}

def timed(name, action):
    t = time.monotonic()
    try:
        result = action()
    except Exception as e:
        result = f"{type(e).__name__}: {e}"
    report[name] = [result, round(time.monotonic() - t, 2)]

comm = VfsRequestHandler(fs)
timed("save", lambda: magics.save_snapshot(fs, "/tmp/deep.tar", "/workspace"))
timed("export", lambda: comm.handle({"id": 1, "op": "export", "path": "/workspace"})[0])
exported = []
def export_gzip():
    reply, parts = comm.handle({"id": 2, "op": "export", "path": "/workspace", "gzip": True})
    exported.extend(parts)
    return reply["result"]["entries"]
timed("export gzip", export_gzip)
timed("import", lambda: comm.handle({"id": 3, "op": "import", "path": "/tmp/copy"}, exported)[0]["result"]["entries"])
timed("rm", lambda: [fs.remove_tree("/workspace/c0"), fs.remove_tree("/tmp/copy"), fs.usage()["inodes_used"]][-1])
report["grown_kib"] = peak_kib() - start
print(json.dumps(report))
'''


def test_a_25000_deep_tree_saves_exports_imports_and_deletes_in_bounded_time_and_memory():
    """Red team: a 25,000-deep empty tree made a 677 MB tar in memory for %save and the comm
    export (which copied it three times), and importing it went from the root for every
    member (1,000 levels took 52 s). Its tar is quadratic in the depth: an uncompressed
    %save or export that cannot fit is refused before it is made, a gzip export is streamed,
    and the import is linear in the archive."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", DEEP_SCENARIO, "25000"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    save, export, export_gzip, imported, rm = (report[k] for k in ("save", "export", "export gzip", "import", "rm"))
    assert "MagicError" in save[0] and "the snapshot needs 646.4 MiB" in save[0] and save[1] < 5, save
    assert export[0]["error"]["code"] == "EFBIG" and export[1] < 5, export
    assert export_gzip[0] == 25250 and export_gzip[1] < 30, export_gzip
    assert imported[0] == 25250 and imported[1] < 60, imported
    assert rm[0] < 200 and rm[1] < 5, rm
    assert report["grown_kib"] < 200_000, f"the host process grew by {report['grown_kib'] // 1024} MiB"


def test_a_tree_deeper_than_a_path_saves_and_loads_back():
    """Red team: %save of a 2,044-deep tree could not be %load-ed (the staging prefix pushed
    its paths past 4,096 characters), and a 1,000-deep %load took 52 s."""
    import time

    from sandbox_kernel.kernel.protocol import magics

    session = Session(vfs_inodes=20_000)
    fs = session.sandbox.fs
    chain = "/".join(["d"] * 100)
    for i in range(30):
        fs.mkdir(f"/workspace/c{i}/{chain}", parents=True)
    fs.write_bytes(f"/workspace/c29/{chain}/leaf", b"bottom")  # 3,000 levels down: ~6,000 characters
    for i in range(29, 0, -1):
        fs.rename(f"/workspace/c{i}", f"/workspace/c{i - 1}/{chain}/c{i}")
    magics.save_snapshot(fs, "/tmp/deep.tar", "/workspace")
    fs.remove_tree("/workspace/c0")
    start = time.monotonic()
    assert magics.load_snapshot(fs, "/tmp/deep.tar", "/workspace") == 3031
    assert time.monotonic() - start < 10
    node = fs.node("/workspace/c0")
    depth = 0
    while "leaf" not in node.entries:
        node = next(iter(node.entries.values()))
        depth += 1
    assert depth == 3029 and bytes(node.entries["leaf"].data) == b"bottom"
    session.close()
