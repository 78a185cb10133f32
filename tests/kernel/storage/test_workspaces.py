"""A persistent workspace belongs to its notebook, not to its path (--persist): the workspace id
the JupyterLab extension keeps in the notebook's metadata makes a store follow its notebook
when it is renamed or moved (while its kernel runs, or while none does); a copy of a notebook
gets a workspace of its own; `%workspace list|attach|delete` shows and manages the stores."""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from sandbox_kernel.kernel.storage import workspaces
from sandbox_kernel.kernel.storage.host_files import HostFiles
from sandbox_kernel.kernel.install import install
from sandbox_kernel.kernel.storage.store import WorkspaceStore, lock_path, read_meta, store_path, valid_workspace_id
from sandbox_kernel.client.vfs import VfsClient
from sandbox_kernel.policy import Policy
from sandbox_kernel.sandbox import Sandbox
from tests.support.kernelclient import collect, execute, run_ok, shell_reply, start_kernel, notice_text, stream_text

NB_ID = "0b6c3f5e-8d1a-4c52-9e7f-2a4b6c8d0e1f"
OTHER_ID = "7d2e9a41-3b5c-4f60-8a1b-c2d3e4f5a6b7"


def opened(folder: Path, notebook: str) -> tuple[Sandbox, WorkspaceStore, str]:
    sb = Sandbox()
    store = WorkspaceStore(store_path(notebook, folder), sb.fs, notebook=notebook)
    return sb, store, store.open()


def saved_workspace(folder: Path, notebook: str, files: dict[str, bytes], workspace: str = NB_ID) -> Path:
    """A store for ``notebook`` holding ``files``, whose workspace id is ``workspace`` (no kernel
    holds it)."""
    sb, store, _ = opened(folder, notebook)
    store.adopt(workspace)
    for path, data in files.items():
        sb.fs.write_bytes(path, data)
    store.close()
    return store.path


def stores(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".sqlite"))


# ---------------------------------------------------------------------- store ids, re-keying
def test_every_store_has_a_workspace_id_also_one_saved_before_ids(tmp_path):
    sb, store, _ = opened(tmp_path, "/nb/a.ipynb")
    first = store.workspace
    assert valid_workspace_id(first)
    store.close()
    db = store_path("/nb/a.ipynb", tmp_path)
    assert read_meta(db)["workspace"] == first and read_meta(db)["notebook"] == "/nb/a.ipynb"
    with sqlite3.connect(db) as conn:  # a store from before workspace ids
        conn.execute("DELETE FROM meta WHERE key = 'workspace'")
    _, store, _ = opened(tmp_path, "/nb/a.ipynb")
    assert store.workspace and store.workspace != first and read_meta(db)["workspace"] == store.workspace
    store.close()


def test_a_notebook_renamed_while_no_kernel_ran_gets_its_files_back(tmp_path):
    saved_workspace(tmp_path, "/nb/a.ipynb", {"/workspace/data.csv": b"1,2\n", "/home/user/.cfg": b"k=v\n"})
    sb, store, notice = opened(tmp_path, "/nb/b.ipynb")  # the renamed notebook's new kernel: a new store
    assert "kept across restarts" in notice and not sb.fs.exists("/workspace/data.csv")
    followed = workspaces.follow_notebook(store, NB_ID)
    assert followed.workspace == NB_ID and followed.replaced
    assert followed.notice == ("[sandbox: workspace of this notebook restored (renamed from /nb/a.ipynb): "
                               "2 files (8B)]")
    assert sb.fs.read_bytes("/workspace/data.csv") == b"1,2\n" and sb.fs.read_bytes("/home/user/.cfg") == b"k=v\n"
    assert stores(tmp_path) == [store_path("/nb/b.ipynb", tmp_path).name], "one store, keyed to the new path"
    assert read_meta(store.path)["notebook"] == "/nb/b.ipynb" and store.workspace == NB_ID
    assert not lock_path(store_path("/nb/a.ipynb", tmp_path)).exists()
    sb.fs.write_bytes("/workspace/more.txt", b"x")  # and it goes on being saved
    store.close()
    sb2, store2, notice = opened(tmp_path, "/nb/b.ipynb")
    assert "restored 3 files" in notice and store2.workspace == NB_ID
    store2.close()
    sb3, store3, notice = opened(tmp_path, "/nb/a.ipynb")  # a new notebook at the old path starts empty
    assert "kept across restarts" in notice and sb3.fs.listdir("/workspace") == []
    store3.close()


def test_a_moved_notebook_says_moved(tmp_path):
    saved_workspace(tmp_path, "/nb/a.ipynb", {"/workspace/f": b"x"})
    _, store, _ = opened(tmp_path, "/nb/sub/a.ipynb")
    assert "(moved from /nb/a.ipynb): 1 files" in workspaces.follow_notebook(store, NB_ID).notice
    store.close()


def test_a_workspace_that_has_files_is_not_replaced_by_the_notebooks(tmp_path):
    saved_workspace(tmp_path, "/nb/a.ipynb", {"/workspace/old.txt": b"old"})
    sb, store, _ = opened(tmp_path, "/nb/b.ipynb")
    sb.fs.write_bytes("/workspace/new.txt", b"new")
    followed = workspaces.follow_notebook(store, NB_ID)
    assert not followed.replaced and f"%workspace attach {NB_ID}" in followed.notice
    assert sb.fs.read_bytes("/workspace/new.txt") == b"new" and not sb.fs.exists("/workspace/old.txt")
    assert len(stores(tmp_path)) == 2
    store.close()


def test_an_id_no_store_has_is_taken_by_an_empty_workspace_only(tmp_path):
    _, store, _ = opened(tmp_path, "/nb/a.ipynb")
    assert workspaces.follow_notebook(store, NB_ID) == workspaces.Followed(NB_ID)
    assert read_meta(store.path)["workspace"] == NB_ID
    assert workspaces.follow_notebook(store, None).workspace == NB_ID  # a notebook without one gets it
    store.close()
    sb, store, _ = opened(tmp_path, "/nb/a.ipynb")
    sb.fs.write_bytes("/workspace/f", b"x")
    assert workspaces.follow_notebook(store, OTHER_ID).workspace == NB_ID  # the notebook takes the store's
    store.close()


def test_the_store_follows_a_rename_while_the_kernel_runs(tmp_path):
    sb, store, _ = opened(tmp_path, "/srv/nb/Untitled.ipynb")
    sb.fs.write_bytes("/workspace/a.txt", b"a")
    assert store.rekey("/srv/nb/analysis.ipynb") is None
    assert stores(tmp_path) == [store_path("/srv/nb/analysis.ipynb", tmp_path).name]
    assert not lock_path(store_path("/srv/nb/Untitled.ipynb", tmp_path)).exists()
    sb.fs.write_bytes("/workspace/b.txt", b"b")
    assert store.save() is None
    # a new Untitled.ipynb (the name is free again) gets a workspace of its own
    sb2, other, notice = opened(tmp_path, "/srv/nb/Untitled.ipynb")
    assert "kept across restarts" in notice and sb2.fs.listdir("/workspace") == []
    other.close()
    store.close()
    sb3, store3, notice = opened(tmp_path, "/srv/nb/analysis.ipynb")
    assert "restored 2 files" in notice
    store3.close()


def test_a_rename_onto_a_path_another_kernel_holds_keeps_the_old_store(tmp_path):
    sb, store, _ = opened(tmp_path, "/nb/a.ipynb")
    _, holder, _ = opened(tmp_path, "/nb/b.ipynb")
    notice = store.rekey("/nb/b.ipynb")
    assert "another kernel holds" in notice and store.path == store_path("/nb/a.ipynb", tmp_path)
    sb.fs.write_bytes("/workspace/f", b"x")
    assert store.save() is None
    holder.close()
    store.close()


def test_a_rename_onto_a_stale_store_sets_it_aside(tmp_path):
    stale = saved_workspace(tmp_path, "/nb/b.ipynb", {"/workspace/stale": b"s"}, OTHER_ID)
    _, store, _ = opened(tmp_path, "/nb/a.ipynb")
    assert store.rekey("/nb/b.ipynb") is None and store.path == stale
    detached = [n for n in stores(tmp_path) if n.endswith(".detached.sqlite")]
    assert detached == [f"b-{OTHER_ID}.detached.sqlite"]
    store.close()


def test_rename_mapping_from_the_frontends_paths():
    assert workspaces.renamed_path("/srv/root/dir/a.ipynb", "dir/a.ipynb", "dir/b.ipynb") == "/srv/root/dir/b.ipynb"
    assert workspaces.renamed_path("/srv/root/a.ipynb", "a.ipynb", "sub/a.ipynb") == "/srv/root/sub/a.ipynb"
    assert workspaces.renamed_path("/srv/root/a.ipynb", "gone/a.ipynb", "gone/b.ipynb") == "/srv/root/b.ipynb"
    assert workspaces.renamed_path("/srv/root/x.ipynb", "a.ipynb", "b.ipynb") is None
    assert workspaces.renamed_path(None, "a.ipynb", "b.ipynb") is None


# ---------------------------------------------------------------------- copies
def test_a_copy_of_an_open_notebook_gets_a_workspace_of_its_own(tmp_path):
    sb, original, _ = opened(tmp_path, "/nb/a.ipynb")
    original.adopt(NB_ID)
    sb.fs.write_bytes("/workspace/f", b"x")
    original.save()
    sb2, copy, _ = opened(tmp_path, "/nb/a-Copy1.ipynb")
    followed = workspaces.follow_notebook(copy, NB_ID)
    assert followed.workspace == copy.workspace != NB_ID and "is a copy of /nb/a.ipynb" in followed.notice
    assert sb2.fs.listdir("/workspace") == [] and original.path.exists()
    copy.close()
    original.close()


def test_a_copy_of_a_closed_notebook_gets_a_workspace_of_its_own(tmp_path, monkeypatch):
    """The id alone never brings another notebook's files into a sandbox while that notebook is
    there (the copy may be someone else's notebook carrying the id): the user copies them in."""
    nb = tmp_path / "nb"
    nb.mkdir()
    (nb / "a.ipynb").write_text('{"metadata": {"sandbox_kernel": {"workspace": "%s"}}}' % NB_ID)
    (nb / "a-Copy1.ipynb").write_text('{"metadata": {"sandbox_kernel": {"workspace": "%s"}}}' % NB_ID)
    folder = tmp_path / "data" / "workspaces"
    folder.mkdir(parents=True)
    source = saved_workspace(folder, str(nb / "a.ipynb"), {"/workspace/f.txt": b"hello"})
    monkeypatch.setenv("SANDBOX_KERNEL_DATA", str(tmp_path / "data"))
    sb, host = kernel_host(monkeypatch, str(nb / "a-Copy1.ipynb"))
    reply = host.identify(NB_ID, "a-Copy1.ipynb")
    assert reply["workspace"] == host.store.workspace != NB_ID and sb.fs.listdir("/workspace") == []
    assert f"is a copy of {nb / 'a.ipynb'}" in reply["notice"] and f"attach --copy {NB_ID}" in reply["notice"]
    text = magic(host, "attach", "--copy", NB_ID)
    assert "copied the files of the workspace" in text and sb.fs.read_bytes("/workspace/f.txt") == b"hello"
    copy_id = host.store.workspace
    assert copy_id != NB_ID and read_meta(source)["workspace"] == NB_ID  # the original's is as it was
    host.close()
    sb2, again, notice = opened(folder, str(nb / "a-Copy1.ipynb"))
    assert "restored 1 files" in notice and again.workspace == copy_id
    again.close()
    # the original renamed meanwhile (it no longer exists): its store follows it
    (nb / "a.ipynb").rename(nb / "renamed.ipynb")
    sb3, moved, _ = opened(folder, str(nb / "renamed.ipynb"))
    assert "renamed from" in workspaces.follow_notebook(moved, NB_ID).notice
    moved.close()


# ---------------------------------------------------------------------- %workspace
@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("SANDBOX_KERNEL_DATA", str(tmp_path / "data"))
    return tmp_path / "data" / "workspaces"


def magic(host: HostFiles, *argv: str, answer: str | None = "yes", asked: list | None = None) -> str:
    """``%workspace ARGV`` with the user typing ``answer`` when asked (None: no input possible)."""
    async def ask(prompt: str) -> str | None:
        if asked is not None:
            asked.append(prompt)
        return answer
    return asyncio.run(host.workspace_magic(list(argv), ask if answer is not None else None))


def kernel_host(monkeypatch, notebook: str | None, persist: bool = True) -> tuple[Sandbox, HostFiles]:
    if notebook:
        monkeypatch.setenv("JPY_SESSION_NAME", notebook)
    else:
        monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    sb = Sandbox()
    return sb, HostFiles(sb, Policy(persist=persist), logging.getLogger("test"))


def test_workspace_list_shows_every_store(data, monkeypatch):
    data.mkdir(parents=True)
    saved_workspace(data, "/nb/old.ipynb", {"/workspace/a": b"12345"}, OTHER_ID)
    _, held, _ = opened(data, "/nb/open.ipynb")
    (data / "broken.sqlite").write_bytes(b"not a database" * 50)
    sb, host = kernel_host(monkeypatch, "/nb/mine.ipynb")
    host.identify(NB_ID, None)
    sb.fs.write_bytes("/workspace/x", b"x")
    host.after_cell()
    listing = magic(host, "list")
    lines = listing.splitlines()
    assert lines[0].split() == ["id", "notebook", "files", "size", "last", "saved", "state"]
    mine = next(line for line in lines if "/nb/mine.ipynb" in line)
    assert mine.startswith("*") and NB_ID[:13] in mine and "this kernel's" in mine
    assert "/nb/old.ipynb" in listing and OTHER_ID[:13] in listing
    assert "in use by a running kernel" in next(line for line in lines if "/nb/open.ipynb" in line)
    assert "unreadable" in next(line for line in lines if "(broken)" in line)
    assert magic(host) == listing  # no argument: the list
    held.close()
    host.close()


def test_workspace_attach_replaces_the_files_only_after_saying_so(data, monkeypatch):
    data.mkdir(parents=True)
    saved_workspace(data, "/nb/old.ipynb", {"/workspace/old.txt": b"old"}, OTHER_ID)
    sb, host = kernel_host(monkeypatch, "/nb/mine.ipynb")
    mine = host.store.workspace
    sb.fs.write_bytes("/workspace/mine.txt", b"mine")
    with pytest.raises(workspaces.WorkspaceUsage, match="has 1 files of the user's.*--force"):
        magic(host, "attach", OTHER_ID)
    assert sb.fs.read_bytes("/workspace/mine.txt") == b"mine"
    text = magic(host, "attach", "--force", "old.ipynb")  # by its notebook's name
    assert "replaced by its 1 files" in text and f"%workspace attach {mine} brings it back" in text
    assert sb.fs.listdir("/workspace") == ["old.txt"] and host.store.workspace == OTHER_ID
    assert host.store.path == store_path("/nb/mine.ipynb", data)
    assert "detached" in magic(host, "list")
    magic(host, "attach", "--force", mine[:8])  # back, by a prefix of its id
    assert sb.fs.listdir("/workspace") == ["mine.txt"] and host.store.workspace == mine
    assert "already uses" in magic(host, "attach", mine)
    host.close()


def test_another_notebooks_workspace_is_attached_or_deleted_only_when_the_user_says_so(data, monkeypatch):
    """A cell's text may be someone else's (a shared notebook): bringing another notebook's files
    into this sandbox, or deleting them, waits for a "yes" typed into the notebook."""
    data.mkdir(parents=True)
    old = saved_workspace(data, "/nb/old.ipynb", {"/workspace/secret.txt": b"s"}, OTHER_ID)
    sb, host = kernel_host(monkeypatch, "/nb/new.ipynb")
    for command in (["attach", OTHER_ID], ["attach", "--copy", OTHER_ID], ["delete", OTHER_ID]):
        asked: list[str] = []
        with pytest.raises(workspaces.WorkspaceUsage, match="not confirmed; nothing was changed"):
            magic(host, *command, answer="y", asked=asked)
        assert "/nb/old.ipynb, 1 files, 1 B" in asked[0] and asked[0].endswith("Type yes to go on: ")
        with pytest.raises(workspaces.WorkspaceUsage, match="takes no input.*nothing was changed"):
            magic(host, *command, answer=None)  # nbclient, papermill: nobody to ask
    assert old.exists() and sb.fs.listdir("/workspace") == [] and read_meta(old)["workspace"] == OTHER_ID
    assert "this kernel's" in magic(host, "delete", "--force", "new.ipynb", answer=None)  # its own: no question
    host.close()


def test_workspace_attach_into_an_empty_workspace_needs_no_force(data, monkeypatch):
    data.mkdir(parents=True)
    saved_workspace(data, "/nb/old.ipynb", {"/workspace/old.txt": b"old"}, OTHER_ID)
    sb, host = kernel_host(monkeypatch, "/nb/new.ipynb")
    assert "attached the workspace" in magic(host, "attach", OTHER_ID)
    assert stores(data) == [store_path("/nb/new.ipynb", data).name]  # the empty one is not kept
    host.close()


def test_workspace_attach_and_delete_refuse_a_store_a_kernel_holds(data, monkeypatch):
    data.mkdir(parents=True)
    _, held, _ = opened(data, "/nb/open.ipynb")
    held.adopt(OTHER_ID)
    sb, host = kernel_host(monkeypatch, "/nb/mine.ipynb")
    for command in ("attach", "delete"):
        with pytest.raises(workspaces.WorkspaceUsage, match="a running kernel holds"):
            magic(host, command, "--force", OTHER_ID)
    assert held.path.exists() and held.save() is None
    held.close()
    host.close()


def test_workspace_delete(data, monkeypatch):
    data.mkdir(parents=True)
    old = saved_workspace(data, "/nb/old.ipynb", {"/workspace/a": b"a"}, OTHER_ID)
    sb, host = kernel_host(monkeypatch, "/nb/mine.ipynb")
    assert "deleted the workspace" in magic(host, "delete", OTHER_ID)
    assert not old.exists() and not lock_path(old).exists() and not Path(str(old) + "-wal").exists()
    with pytest.raises(workspaces.WorkspaceUsage, match="no workspace"):
        magic(host, "delete", OTHER_ID)
    with pytest.raises(workspaces.WorkspaceUsage, match="is this kernel's.*--force"):
        magic(host, "delete", "mine.ipynb")
    text = magic(host, "delete", "--force", "mine.ipynb")
    assert "no longer saved" in text and host.store is None and stores(data) == []
    sb.fs.write_bytes("/workspace/f", b"x")
    assert host.after_cell() == [] and stores(data) == []
    assert "no persistent workspaces" in magic(host)
    host.close()


def test_workspace_names_that_match_several_stores_are_refused(data, monkeypatch):
    data.mkdir(parents=True)
    saved_workspace(data, "/nb/one/a.ipynb", {"/workspace/a": b"a"}, OTHER_ID)
    saved_workspace(data, "/nb/two/a.ipynb", {"/workspace/a": b"a"}, "8e3f0b52-4c6d-4071-9b2c-d3e4f5a6b7c8")
    sb, host = kernel_host(monkeypatch, "/nb/mine.ipynb")
    with pytest.raises(workspaces.WorkspaceUsage, match="names several workspaces"):
        magic(host, "attach", "a.ipynb")
    with pytest.raises(workspaces.WorkspaceUsage, match="usage"):
        magic(host, "attach")
    with pytest.raises(workspaces.WorkspaceUsage, match="usage"):
        magic(host, "frobnicate", "x")
    host.close()


def test_workspace_without_persist_says_how_to_turn_it_on(data, monkeypatch):
    sb, host = kernel_host(monkeypatch, "/nb/mine.ipynb", persist=False)
    assert "persistence is off" in magic(host) and "--persist" in magic(host)
    with pytest.raises(workspaces.WorkspaceUsage, match="persistence is off"):
        magic(host, "attach", NB_ID)
    assert host.identify(NB_ID, "mine.ipynb") == {"persist": False}
    host.close()


def test_the_decision_waits_for_a_running_cell(data, monkeypatch):
    data.mkdir(parents=True)
    saved_workspace(data, "/nb/a.ipynb", {"/workspace/f": b"x"})
    sb, host = kernel_host(monkeypatch, "/nb/b.ipynb")
    answers = []
    host.cell_started()
    assert host.identify(NB_ID, "b.ipynb", answers.append)["pending"] is True
    assert not sb.fs.exists("/workspace/f") and answers == []
    host.after_cell()
    host.cell_finished()
    assert answers and answers[0]["workspace"] == NB_ID and "restored" in answers[0]["notice"]
    assert sb.fs.read_bytes("/workspace/f") == b"x"
    notices = host.take_notices()
    assert not any("kept across restarts" in n for n in notices), "the first notice would mislead"
    host.close()


def test_a_rename_during_a_cell_moves_the_store_and_saves_nothing_before_the_cell_ends(data, monkeypatch):
    sb, host = kernel_host(monkeypatch, "/srv/root/a.ipynb")
    host.identify(None, "a.ipynb")
    host.cell_started()
    sb.fs.write_bytes("/workspace/during.txt", b"x")
    assert host.identify(host.store.workspace, "sub/b.ipynb")["pending"] is True
    assert host.store.path == store_path("/srv/root/sub/b.ipynb", data) and stores(data) == [host.store.path.name]

    def saved() -> list[str]:
        with sqlite3.connect(host.store.path) as conn:
            return [row[0] for row in conn.execute("SELECT path FROM entries")]
    assert saved() == []  # the cell is not over
    host.after_cell()
    host.cell_finished()
    assert saved() == ["/workspace/during.txt"] and read_meta(host.store.path)["notebook"] == "/srv/root/sub/b.ipynb"
    host.close()


# ---------------------------------------------------------------------- through a kernel
def test_kernel_a_renamed_notebook_keeps_its_files(jupyter_kernels, tmp_path):
    """What the JupyterLab extension does: the notebook's workspace id on the comm, and its new
    name after a rename while no kernel ran."""
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    data = tmp_path / "data"
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(data), JPY_SESSION_NAME="/nb/a.ipynb")
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        with VfsClient(kc) as vfs:
            reply = vfs.workspace(NB_ID, "a.ipynb")
            assert reply["persist"] is True and reply["workspace"] == NB_ID
        assert run_ok(kc, "echo results > out.txt; mkdir -p ~/cfg; echo k=v > ~/cfg/app") == ""
    env["JPY_SESSION_NAME"] = "/nb/b.ipynb"
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        with VfsClient(kc) as vfs:
            reply = vfs.workspace(NB_ID, "b.ipynb")
            assert reply["workspace"] == NB_ID
            assert reply["notice"] == ("[sandbox: workspace of this notebook restored (renamed from /nb/a.ipynb): "
                                       "2 files (12B)]")
        reply, messages = execute(kc, "cat out.txt ~/cfg/app")
        assert stream_text(messages) == "results\nk=v\n", messages
        notices = notice_text(messages)
        assert "restored (renamed from /nb/a.ipynb): 2 files" in notices and "kept across" not in notices
        listing = run_ok(kc, "%workspace list")
        assert len(listing.strip().splitlines()) == 3, listing  # the header, one store, the footer
        assert "/nb/b.ipynb" in listing and "/nb/a.ipynb" not in listing and NB_ID[:13] in listing


def test_kernel_a_rename_while_the_kernel_runs_moves_the_store(jupyter_kernels, tmp_path):
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    data = tmp_path / "data"
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(data), JPY_SESSION_NAME="/srv/root/Untitled.ipynb")
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        with VfsClient(kc) as vfs:
            assert vfs.workspace(None, "Untitled.ipynb")["workspace"]  # a new notebook gets its store's id
            assert run_ok(kc, "echo kept > f.txt") == ""
            vfs.workspace(None, "analysis.ipynb")  # renamed in JupyterLab
        assert run_ok(kc, "echo later > g.txt") == ""
        os.kill(km.provisioner.process.pid, signal.SIGKILL)
    assert [p.name for p in (data / "workspaces").glob("*.sqlite")] == \
        [store_path("/srv/root/analysis.ipynb", data / "workspaces").name]
    env["JPY_SESSION_NAME"] = "/srv/root/analysis.ipynb"  # the server's restart: the new path
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        reply, messages = execute(kc, "cat f.txt g.txt")
        assert stream_text(messages) == "kept\nlater\n" and "restored 2 files" in notice_text(messages)


def test_kernel_attach_asks_the_user_in_the_notebook(jupyter_kernels, tmp_path):
    install("sandbox-persist", prefix=str(Path(jupyter_kernels).parents[1]), policy_argv=["--persist"])
    data = tmp_path / "data"
    (data / "workspaces").mkdir(parents=True)
    saved_workspace(data / "workspaces", "/nb/old.ipynb", {"/workspace/old.txt": b"old\n"}, OTHER_ID)
    env = dict(os.environ, SANDBOX_KERNEL_DATA=str(data), JPY_SESSION_NAME="/nb/new.ipynb")
    with start_kernel("sandbox-persist", env=env) as (km, kc):
        reply, messages = execute(kc, f"%workspace attach {OTHER_ID}", allow_stdin=False)  # nobody to ask
        assert reply["status"] == "error" and "takes no input" in reply["evalue"]
        msg_id = kc.execute(f"%workspace attach {OTHER_ID[:8]}\ncat old.txt", allow_stdin=True)
        request = kc.get_stdin_msg(timeout=10)
        prompt = request["content"]["prompt"]
        assert "Attach the workspace" in prompt and "/nb/old.ipynb" in prompt
        kc.input("yes")
        messages = collect(kc, msg_id)
        assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
        assert stream_text(messages).endswith("old\n") and "attached the workspace" in stream_text(messages)
