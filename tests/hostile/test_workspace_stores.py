"""The catalog of persistent workspaces (%workspace, the notebook's workspace id) reads every
store in the data dir: a tampered one is untrusted input. Its names are shown escaped, its
queries are stopped, the paths it names are only read (never opened as anything but a regular
file, never written), and a store file that is not a regular file is not one."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from sandbox_kernel.kernel.storage import workspaces
from sandbox_kernel.kernel.storage.store import WorkspaceStore, shown, store_path
from sandbox_kernel.sandbox import Sandbox

NB_ID = "0b6c3f5e-8d1a-4c52-9e7f-2a4b6c8d0e1f"


def tampered(folder: Path, name: str, notebook: str, workspace: str = NB_ID, files: int = 1) -> Path:
    """A store as a kernel writes it, then with its meta rewritten by hand."""
    db = folder / name
    sb = Sandbox()
    store = WorkspaceStore(db, sb.fs, notebook="/nb/x.ipynb")
    store.open()
    for i in range(files):
        sb.fs.write_bytes(f"/workspace/f{i}", b"x")
    store.close()
    with sqlite3.connect(db) as conn:
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                         [("notebook", notebook), ("workspace", workspace)])
    return db


def test_names_from_a_store_are_shown_escaped(tmp_path):
    evil = "/nb/\x1b]8;;http://evil\x07click\x1b[2J\u202eboon\nfake line.ipynb"
    tampered(tmp_path, "evil.sqlite", evil)
    listing = workspaces.list_text(tmp_path, None)
    assert "\x1b" not in listing and "\u202e" not in listing and "\x07" not in listing
    assert "\\x1b]8;;http://evil\\x07click" in listing and "\\u202e" in listing and "\\x0afake" in listing
    assert len(listing.splitlines()) == 3  # the header, the store, the footer: no line of the store's own
    with pytest.raises(workspaces.WorkspaceUsage) as refused:
        workspaces.resolve(tmp_path, "\x1b[2Jnothing")
    assert "\x1b" not in str(refused.value)
    assert shown("a\\b\x00\U000e0001" + "x" * 300).startswith("a\\\\b\\x00\\U000e0001") and len(shown("x" * 300)) == 200


def test_a_store_whose_query_never_ends_is_listed_as_unreadable(tmp_path):
    db = tampered(tmp_path, "slow.sqlite", "/nb/slow.ipynb")
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE entries")
        conn.execute("CREATE VIEW entries AS WITH RECURSIVE n(kind, data) AS (SELECT 'file', x'00' UNION ALL "
                     "SELECT kind, data FROM n) SELECT kind, data FROM n")
    start = time.monotonic()
    listing = workspaces.list_text(tmp_path, None)
    assert time.monotonic() - start < 10 and "unreadable (interrupted)" in listing


def test_paths_a_store_names_are_only_read_as_regular_files(tmp_path):
    """The store says its notebook is a FIFO, a device, a huge file: deciding whether it is a
    copy neither hangs nor reads past a bound."""
    nb = tmp_path / "nb"
    nb.mkdir()
    own = nb / "mine.ipynb"
    own.write_text("{}")
    fifo = nb / "fifo.ipynb"
    os.mkfifo(fifo)
    for notebook in (str(fifo), "/dev/zero", "/proc/self/mem", "relative/path.ipynb"):
        data = tmp_path / f"data{abs(hash(notebook))}"
        data.mkdir()
        tampered(data, "other.sqlite", notebook)
        sb = Sandbox()
        store = WorkspaceStore(store_path(str(own), data), sb.fs, notebook=str(own))
        store.open()
        start = time.monotonic()
        followed = workspaces.follow_notebook(store, NB_ID)
        assert time.monotonic() - start < 10
        assert followed.replaced and sb.fs.read_bytes("/workspace/f0") == b"x", followed  # it was moved here
        store.close()


def test_a_store_naming_a_host_path_moves_only_within_the_data_dir(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("host file\n")
    data = tmp_path / "data"
    data.mkdir()
    tampered(data, "other.sqlite", str(outside / "keep.txt"))
    sb = Sandbox()
    store = WorkspaceStore(store_path("/nb/b.ipynb", data), sb.fs, notebook="/nb/b.ipynb")
    store.open()
    assert workspaces.follow_notebook(store, NB_ID).replaced
    store.close()
    assert (outside / "keep.txt").read_text() == "host file\n"
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert [p.name for p in data.glob("*.sqlite")] == [store_path("/nb/b.ipynb", data).name]


def test_a_store_file_that_is_a_symlink_is_not_a_store(tmp_path):
    outside = tmp_path / "outside.sqlite"
    tampered(tmp_path, "real.sqlite", "/nb/real.ipynb").rename(outside)
    data = tmp_path / "data"
    data.mkdir()
    (data / "link.sqlite").symlink_to(outside)
    assert workspaces.scan(data) == []
    with pytest.raises(workspaces.WorkspaceUsage, match="no workspace"):
        workspaces.plan_delete(None, data, "link", force=True)
    assert outside.exists()


def test_odd_values_in_a_store_are_not_believed(tmp_path):
    db = tampered(tmp_path, "odd.sqlite", "/nb/odd.ipynb", workspace="../../../etc/passwd")
    with sqlite3.connect(db) as conn:
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                         [("saved", "9" * 400), ("notebook", "x" * 100_000)])
        conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (7, b"blob"))
    info = workspaces.read_info(db)
    assert info.workspace is None and info.files == 1 and not info.error
    assert len(workspaces.list_text(tmp_path, None).splitlines()[1]) < 400
