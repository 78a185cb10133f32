"""The persistent workspace (--persist): saved to SQLite after every cell, incrementally and
crash-safe, restored at start with a notice; a corrupt store never kills the kernel."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sandbox_kernel.kernel.storage.host_files import _raise_quotas
from sandbox_kernel.kernel.install import install
from sandbox_kernel.kernel.storage.store import WorkspaceStore, store_path
from sandbox_kernel.client.vfs import VfsClient
from sandbox_kernel.limits import Limits
from sandbox_kernel.policy import Policy
from sandbox_kernel.sandbox import Sandbox
from tests.support.kernelclient import (TerminalComm, execute, notice_text, run_ok, shell_reply, start_kernel,
                                        stream_text)


def sh(sb: Sandbox, script: str) -> str:
    import asyncio

    from sandbox_kernel.cli import _Collect, _run
    out, err = _Collect(), _Collect()
    status = asyncio.run(_run(script, sb, out, err, sb.limits))
    assert status == 0, bytes(err.buf)
    return bytes(out.buf).decode()


def reopened(path: Path) -> tuple[Sandbox, WorkspaceStore, str]:
    sb = Sandbox()
    store = WorkspaceStore(path, sb.fs)
    return sb, store, store.open()


def test_files_survive_and_only_changes_are_written(tmp_path):
    db = tmp_path / "ws.sqlite"
    sb, store, notice = reopened(db)
    assert "kept across restarts" in notice
    sh(sb, "mkdir -p proj/src && echo one > proj/src/a.txt && printf '#!/bin/sh\\n' > proj/run && chmod 750 proj/run"
           " && ln -s src/a.txt proj/link && touch -d '2020-01-02 03:04:05' proj/src/a.txt && echo h > ~/.notes"
           " && echo gone > /tmp/tmpfile")
    assert store.save() is None
    assert store.save() is None and not store.tracker.pending  # nothing changed: nothing to do
    store.close()

    sb2, store2, notice = reopened(db)
    assert "restored 3 files" in notice
    assert sh(sb2, "cat proj/src/a.txt ~/.notes; stat -c '%a %n' proj/run; readlink proj/link;"
                   " date -r proj/src/a.txt +%F; ls /tmp") == "one\nh\n750 proj/run\nsrc/a.txt\n2020-01-02\n"
    sh(sb2, "mv proj/src proj/lib && rm ~/.notes && echo two >> proj/lib/a.txt")
    store2.save()
    rows = {r[0] for r in store2.db.execute("SELECT path FROM entries")}
    assert "/workspace/proj/lib/a.txt" in rows and not any("/src" in r or ".notes" in r for r in rows)
    store2.close()
    sb3, store3, _ = reopened(db)
    assert sh(sb3, "cat proj/lib/a.txt; ls -A ~") == "one\ntwo\n"
    store3.close()


def test_a_corrupt_store_gives_a_message_and_an_empty_workspace(tmp_path):
    db = tmp_path / "ws.sqlite"
    db.write_bytes(b"SQLite format 3\0" + os.urandom(4000))
    sb, store, notice = reopened(db)
    assert "could not be read" in notice and "empty workspace" in notice
    assert (tmp_path / "ws.sqlite.unreadable").exists(), "the bad store is kept aside for the user"
    sh(sb, "echo fresh > f")
    store.close()
    sb2, store2, notice = reopened(db)
    assert "restored 1 files" in notice and sh(sb2, "cat f") == "fresh\n"
    store2.close()


def test_an_unreadable_store_keeps_one_copy_aside(tmp_path):
    """Red team: every restart that could not read the store left another copy beside it."""
    db = tmp_path / "ws.sqlite"
    for attempt in range(3):
        db.write_bytes(b"SQLite format 3\0" + os.urandom(4000))
        _, store, notice = reopened(db)
        assert "could not be read" in notice
        store.close()
    assert [p.name for p in tmp_path.glob("ws.sqlite.*") if not p.name.endswith(".lock")] == ["ws.sqlite.unreadable"]


MiB = 1 << 20


def quota_session(db: Path, vfs_bytes: int, ceiling: int) -> tuple[Sandbox, WorkspaceStore, str]:
    """A kernel's sandbox and store as ``HostFiles`` makes them: --limit and --max-limit vfs_bytes."""
    sb = Sandbox(Limits(vfs_bytes=vfs_bytes), policy=Policy(ceilings=Limits(vfs_bytes=ceiling)))
    store = WorkspaceStore(db, sb.fs, raise_quotas=lambda b, i: _raise_quotas(sb, b, i))
    return sb, store, store.open()


def test_a_workspace_saved_under_a_raised_quota_is_restored_whole(tmp_path):
    """Red team: after '%limits vfs_bytes=1G' and a 400 MB file the restart restored under
    the default quota, called the store unreadable, moved it aside and started empty (a small
    keep.txt lost too). The quota that applied at the save applies again, within the ceiling;
    a ceiling since lowered restores what fits and leaves the store as it is."""
    db = tmp_path / "ws.sqlite"
    sb, store, _ = quota_session(db, 2 * MiB, 16 * MiB)
    sb.update_limits(sb.limits.replace(vfs_bytes=8 * MiB), ["vfs_bytes"])
    sb.fs.write_bytes("/workspace/big.bin", b"b" * (3 * MiB))
    sh(sb, "echo keep > keep.txt")
    assert store.save() is None
    store.close()

    sb2, store2, notice = quota_session(db, 2 * MiB, 16 * MiB)
    assert "restored 2 files" in notice and "as when it was saved" in notice, notice
    assert sb2.fs.stat("/workspace/big.bin").st_size == 3 * MiB and sh(sb2, "cat keep.txt") == "keep\n"
    assert sb2.limits.vfs_bytes == sb2.fs.max_bytes == 8 * MiB
    store2.close()

    sb3, store3, notice = quota_session(db, 1 * MiB, 2 * MiB)  # the admin lowered the ceiling since
    assert "left out 1" in notice and "kept unchanged" in notice, notice
    assert sh(sb3, "cat keep.txt") == "keep\n" and not sb3.fs.exists("/workspace/big.bin")
    sh(sb3, "echo other > keep.txt")
    assert store3.save() is None
    store3.close()

    sb4, store4, notice = quota_session(db, 2 * MiB, 16 * MiB)
    assert "restored 2 files" in notice and sh(sb4, "cat keep.txt") == "keep\n"
    assert sb4.fs.stat("/workspace/big.bin").st_size == 3 * MiB
    assert not [p for p in tmp_path.iterdir() if "unreadable" in p.name]
    store4.close()


def test_kernel_restores_a_workspace_over_the_default_quota(jupyter_kernels, tmp_path):
    install("sandbox-persist-small", prefix=str(Path(jupyter_kernels).parents[1]),
            policy_argv=["--persist", "--limit", "vfs_bytes=2M"])
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"), JPY_SESSION_NAME="/nb/big.ipynb")
    with start_kernel("sandbox-persist-small", env=env) as (km, kc):
        assert run_ok(kc, "%limits vfs_bytes=8M\nseq 1 500000 > /workspace/big.txt; echo keep > keep.txt; "
                          "wc -c < /workspace/big.txt") == "vfs_bytes = 8M\n3388895\n"
    with start_kernel("sandbox-persist-small", env=env) as (km, kc):
        reply, messages = execute(kc, "wc -c < /workspace/big.txt; cat /workspace/keep.txt")
        assert stream_text(messages) == "3388895\nkeep\n", messages
        assert "restored 2 files" in notice_text(messages)
    assert [p.name for p in (tmp_path / "data" / "workspaces").iterdir() if "unreadable" in p.name] == []


def test_a_second_kernel_of_the_same_notebook_does_not_write(tmp_path):
    db = tmp_path / "ws.sqlite"
    _, first, _ = reopened(db)
    _, second, notice = reopened(db)
    assert "another kernel" in notice
    first.close()
    second.close()


CHILD = textwrap.dedent("""
    import sys
    from sandbox_kernel.kernel.storage.store import WorkspaceStore
    from sandbox_kernel.sandbox import Sandbox
    sb = Sandbox()
    store = WorkspaceStore(__import__("pathlib").Path(sys.argv[1]), sb.fs)
    print(store.open(), flush=True)
    generation = 0
    while True:
        generation += 1
        for i in range(200):
            sb.fs.write_bytes(f"/workspace/f{i:03}", b"%d" % generation * 2000)
        store.save()
        print("saved", generation, flush=True)
""")


def test_kill_9_mid_save_leaves_a_consistent_state(tmp_path):
    db = tmp_path / "ws.sqlite"
    for attempt in range(3):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(db)], stdout=subprocess.PIPE, text=True)
        child.stdout.readline()
        for _ in range(3 + attempt):
            child.stdout.readline()  # a few saves done, the next one under way
        time.sleep(0.003 * attempt)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        sb, store, notice = reopened(db)
        assert "restored 200 files" in notice, notice
        contents = {sb.fs.read_bytes(f"/workspace/f{i:03}") for i in range(200)}
        assert len(contents) == 1, "a save was half applied"
        store.close()


def test_store_names_follow_the_notebook(tmp_path):
    a = store_path("/home/me/work/analysis.ipynb", tmp_path)
    b = store_path("/home/me/other/analysis.ipynb", tmp_path)
    assert a != b and a.name.startswith("analysis-") and store_path(None, tmp_path).name == "default.sqlite"


def test_kernel_keeps_files_across_a_kill(jupyter_kernels, tmp_path, monkeypatch):
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"), JPY_SESSION_NAME="/nb/lesson.ipynb")
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        reply, messages = execute(kc, "echo results > /workspace/out.txt; mkdir -p ~/cfg; echo k=v > ~/cfg/app")
        assert reply["status"] == "ok" and "kept across restarts" in notice_text(messages)
        os.kill(km.provisioner.process.pid, signal.SIGKILL)  # no shutdown: only the per-cell save
    assert list((tmp_path / "data" / "workspaces").glob("lesson-*.sqlite"))
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        reply, messages = execute(kc, "cat /workspace/out.txt ~/cfg/app")
        assert stream_text(messages) == "results\nk=v\n"
        assert "restored 2 files" in notice_text(messages)
        assert run_ok(kc, "cat /workspace/out.txt") == "results\n"  # the notice is told once
    other = dict(env, JPY_SESSION_NAME="/nb/other.ipynb")
    with start_kernel("sandbox-persist", env=other) as (km, kc):
        assert run_ok(kc, "ls /workspace") == ""  # another notebook, another workspace


def _stored(db: Path, path: str) -> bool:
    """Whether the store on disk holds ``path`` (read-only, beside the kernel's connection)."""
    if not db.exists():
        return False
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT 1 FROM entries WHERE path = ?", (path,)).fetchone() is not None
    except sqlite3.Error:
        return False


def test_changes_between_cells_survive_a_kill(jupyter_kernels, tmp_path):
    """What the files panel (the sandbox.vfs comm) and the Sandbox terminal change is saved
    about a second later, without a cell: a SIGKILL afterwards loses none of it, in the
    persistent workspace and in an rw mount on the host alike."""
    results = tmp_path / "results"
    results.mkdir()
    install("sandbox-persist-rw", prefix=str(Path(jupyter_kernels).parents[1]),
            policy_argv=["--persist", "--mount", f"{results}:/workspace/results:rw"])
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"), JPY_SESSION_NAME="/nb/panel.ipynb")
    db = store_path("/nb/panel.ipynb", tmp_path / "data" / "workspaces")
    with start_kernel("sandbox-persist-rw", env=env) as (km, kc):
        with VfsClient(kc) as vfs:  # no cell has run in this kernel
            vfs.write_bytes("/workspace/panel.txt", b"from the panel\n")
            vfs.write_bytes("/workspace/results/report.txt", b"report\n")
        terminal = TerminalComm(kc)
        terminal.wait_for("user@sandbox:/workspace$ ")
        terminal.run("echo typed > ~/term.txt\r")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not (
                _stored(db, "/workspace/panel.txt") and _stored(db, "/home/user/term.txt")
                and (results / "report.txt").exists()):
            time.sleep(0.1)
        os.kill(km.provisioner.process.pid, signal.SIGKILL)  # no shutdown, no cell: no other save
    assert (results / "report.txt").read_text() == "report\n"
    with start_kernel("sandbox-persist-rw", env=env) as (km, kc):
        reply, messages = execute(kc, "cat /workspace/panel.txt ~/term.txt")
        assert reply["status"] == "ok" and stream_text(messages) == "from the panel\ntyped\n", messages


def test_changes_made_while_a_cell_runs_are_saved_with_it(jupyter_kernels, tmp_path):
    """A write from the panel during a cell waits for the cell's own save: no save runs
    while a cell does."""
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"), JPY_SESSION_NAME="/nb/busy.ipynb")
    db = store_path("/nb/busy.ipynb", tmp_path / "data" / "workspaces")
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        msg_id = kc.execute("sleep 3; echo done > /workspace/cell.txt")
        with VfsClient(kc) as vfs:
            vfs.write_bytes("/workspace/during.txt", b"x")
        time.sleep(1.8)  # past the delay of a save between cells
        assert not _stored(db, "/workspace/during.txt")
        assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
        assert _stored(db, "/workspace/during.txt") and _stored(db, "/workspace/cell.txt")


def test_a_corrupt_store_does_not_kill_the_kernel(jupyter_kernels, tmp_path):
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    data = tmp_path / "data"
    (data / "workspaces").mkdir(parents=True)
    store_path("/nb/broken.ipynb", data / "workspaces").write_bytes(b"not a database at all" * 100)
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(data), JPY_SESSION_NAME="/nb/broken.ipynb")
    with start_kernel("sandbox-persist", env=env) as (_, kc):
        reply, messages = execute(kc, "echo alive")
        assert reply["status"] == "ok" and stream_text(messages) == "alive\n"
        assert "could not be read" in notice_text(messages)


@pytest.mark.parametrize("flag", ["--persist"])
def test_persist_is_written_into_the_kernelspec(tmp_path, flag):
    import json
    install("sbx-p", prefix=str(tmp_path), policy_argv=[flag])
    argv = json.loads((tmp_path / "share/jupyter/kernels/sbx-p/kernel.json").read_text())["argv"]
    assert flag in argv and argv.index(flag) < argv.index("-f")
