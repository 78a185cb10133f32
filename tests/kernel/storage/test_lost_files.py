"""A kernel without --persist that a restart (or closing the notebook) ends with the user's files
in it: the notebook's next kernel says in its first cell how many were not kept and how to keep
them (a restart emptied the machine silently). Headless runs (no notebook name) record nothing."""
import json
import os

from tests.support.kernelclient import execute, run_ok, start_kernel, notice_text, stream_text
from sandbox_kernel.kernel.storage.lost_files import records_dir
from sandbox_kernel.kernel.storage.store import data_root
from sandbox_kernel.vfs import make_vfs
from sandbox_kernel.kernel.storage.lost_files import LostFiles


def restart(km, kc):
    km.restart_kernel(now=False)  # a shutdown_request with restart: true, as JupyterLab's
    kc.wait_for_ready(timeout=60)


def test_a_restart_says_what_was_not_kept(jupyter_kernels, tmp_path):
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"), JPY_SESSION_NAME="lesson/Untitled.ipynb")
    with start_kernel("sandbox", env=env) as (km, kc):
        run_ok(kc, "mkdir -p results; seq 1000 > results/a.txt; echo x > b.txt; echo 'alias ll=ls' >> ~/.bashrc")
        restart(km, kc)
        reply, messages = execute(kc, "ls /workspace")
        notice = notice_text(messages)
        assert stream_text(messages) == ""  # the machine is new
        assert "the 3 files" in notice and "were not kept" in notice and "--persist" in notice, notice
        assert "ls" not in run_ok(kc, "alias")  # told once: the next cell has no notice
        reply, messages = execute(kc, "true")
        assert stream_text(messages, "stderr") == ""
        restart(km, kc)  # nothing of the user's this time: nothing to say
        reply, messages = execute(kc, "true")
        assert stream_text(messages, "stderr") == ""


def test_a_headless_kernel_records_nothing(jupyter_kernels, tmp_path):
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(tmp_path / "data"))
    env.pop("JPY_SESSION_NAME", None)
    with start_kernel("sandbox", env=env) as (km, kc):
        run_ok(kc, "echo x > b.txt")
        restart(km, kc)
        reply, messages = execute(kc, "true")
        assert stream_text(messages, "stderr") == ""
    assert not (tmp_path / "data" / "lost-files").exists()


def test_a_damaged_record_is_ignored_and_removed(monkeypatch, tmp_path):
    monkeypatch.setenv("SANDBOX_KERNEL_DATA", str(tmp_path))
    assert data_root() == tmp_path
    fs = make_vfs(1 << 20, 1000)
    lost = LostFiles(fs, "nb.ipynb", ())
    lost.path.parent.mkdir(parents=True)
    for raw in [b"not json", b'{"files": "many"}', b'{"files": -1, "bytes": 3}', b"[" * 10_000,
                json.dumps({"files": 1, "bytes": 2, "pad": "x" * 5000}).encode()]:
        lost.path.write_bytes(raw)
        assert lost.take_notice() is None and not lost.path.exists()
    lost.path.symlink_to(tmp_path / "elsewhere.json")  # a link is not followed
    (tmp_path / "elsewhere.json").write_text('{"files": 1, "bytes": 2}')
    assert lost.take_notice() is None
    assert records_dir() == tmp_path / "lost-files"
