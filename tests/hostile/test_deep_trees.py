"""rm -r removes a tree of 100 000 levels (red team, D8): neither recursion nor paths longer
than PATH_MAX stop it, and the removal costs no memory quadratic in the depth."""
from __future__ import annotations

import pytest

from .session import Session

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
