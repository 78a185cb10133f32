"""The catalog of persistent workspaces (``--persist``): every store in the data dir, and what a
kernel does with them. A workspace belongs to its notebook, not to its path: the JupyterLab
extension keeps the workspace id in the notebook's metadata (``sandbox_kernel.workspace``) and
sends it over the ``sandbox.vfs`` comm (op ``workspace``); ``follow_notebook`` decides what
that id means for this kernel's store (the notebook renamed or moved, copied, or new), and
``%workspace list|attach|delete`` lets the user see and choose. Stores are host files but a
tampered one is untrusted input: its names are shown escaped (``store.shown``), its queries
are stopped after a deadline, and nothing in it names a file the kernel writes.

A notebook's metadata and its cells may come from someone else (a shared notebook): an id alone
never brings another notebook's files into a sandbox while that notebook is still there (a copy
gets a workspace of its own), and ``%workspace attach`` and ``delete`` of another notebook's
workspace go ahead only once the user typed the confirmation into the notebook (an input
request, which no cell code can answer)."""
from __future__ import annotations

import errno
import fcntl
import os
import posixpath
import sqlite3
import stat as st
import time
from dataclasses import dataclass
from pathlib import Path

from ...limits import format_size
from .store import (StoreBusy, StoreError, WorkspaceStore, _Restored, connect_existing, lock_path, lock_store,
                    remove_db, shown, unlock_store, valid_workspace_id)

#: stores looked at in one listing or search (the oldest names past it are not)
MAX_STORES = 1000
#: the most of a notebook file read to see whether it still carries a workspace id
MAX_NOTEBOOK_READ = 64 * 1024 * 1024

PERSIST_OFF = ("persistence is off: files in /workspace and /home/user last as long as the kernel "
               "(an admin keeps them across restarts with --persist in the kernelspec: "
               "python -m sandbox_kernel install --persist ...; docs/deploy.md)")

USAGE = """\
%workspace [list]                 the persistent workspaces on this host (notebook, id, files, size,
                                  last saved, state); * marks this kernel's
%workspace attach [--force] NAME  make this kernel use that workspace (NAME: its id, a prefix of it,
                                  its notebook's path or name, or its store's file name): it replaces
                                  what is in /workspace and /home/user; refused when this workspace
                                  has files of the user's, unless --force (they are then kept aside,
                                  as a detached workspace that %workspace attach brings back)
%workspace attach --copy NAME     copy that workspace's files into this one, which must be empty
                                  (the other stays as it is: for a copy of a notebook)
%workspace delete [--force] NAME  delete a workspace's store; not one a running kernel holds, not
                                  this kernel's own unless --force (its files then stay until the
                                  kernel ends and are no longer saved)
attach and delete of another notebook's workspace ask for a confirmation typed in the notebook.
"""


@dataclass
class StoreInfo:
    path: Path
    notebook: str | None = None
    workspace: str | None = None
    files: int = 0
    size: int = 0
    saved: float | None = None
    #: a running kernel holds it
    held: bool = False
    #: why it could not be read ("" when it could)
    error: str = ""

    @property
    def detached(self) -> bool:
        return self.path.name.endswith(".detached.sqlite")

    @property
    def name(self) -> str:
        return self.path.name[:-len(".sqlite")]


def is_held(db: Path) -> bool:
    """Whether a kernel holds the store (probed with a shared lock, given back at once; no lock
    file is made)."""
    try:
        fd = os.open(lock_path(db), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def read_info(db: Path) -> StoreInfo:
    info = StoreInfo(db, held=is_held(db))
    try:
        conn = connect_existing(db)
        try:
            meta = {k: v for k, v in conn.execute("SELECT key, value FROM meta LIMIT 100").fetchall()
                    if isinstance(k, str) and isinstance(v, str)}
            files, size = conn.execute("SELECT COUNT(*), TOTAL(LENGTH(data)) FROM entries "
                                       "WHERE kind = 'file'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as e:
        info.error = str(e) or type(e).__name__
        return info
    info.notebook = meta.get("notebook")
    workspace = meta.get("workspace")
    info.workspace = workspace if valid_workspace_id(workspace) else None
    info.files = files if isinstance(files, int) else 0
    info.size = int(size) if isinstance(size, (int, float)) and 0 <= size < 2**62 else 0
    saved = meta.get("saved", "")
    if saved.isdigit() and len(saved) < 12:
        info.saved = float(saved)
    else:
        try:
            info.saved = db.stat().st_mtime
        except OSError:
            pass
    return info


def scan(folder: Path) -> list[StoreInfo]:
    """Every store in ``folder`` (regular files named ``*.sqlite``; at most MAX_STORES)."""
    try:
        names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".sqlite"))
    except OSError:
        return []
    found = []
    for name in names[:MAX_STORES]:
        path = folder / name
        try:
            if not st.S_ISREG(path.lstat().st_mode):
                continue
        except OSError:
            continue
        found.append(read_info(path))
    return found


def find_workspace(folder: Path, workspace: str, besides: Path) -> StoreInfo | None:
    """The store (other than ``besides``) whose workspace id is ``workspace``; of several (a
    store copied by hand), the one saved last."""
    matches = [i for i in scan(folder) if i.workspace == workspace and i.path != besides and not i.error]
    return max(matches, key=lambda i: i.saved or 0.0) if matches else None


def can_tell(own_notebook: str | None) -> bool:
    """Whether notebook paths can be checked here: the server gives a local kernel the
    notebook's absolute path, which exists (a remote kernel's does not)."""
    return bool(own_notebook) and os.path.isabs(own_notebook or "") and os.path.isfile(own_notebook or "")


def notebook_exists(notebook: str | None, own_notebook: str | None) -> bool | None:
    """Whether a store's notebook is still there (None: it cannot be told)."""
    if not notebook or not os.path.isabs(notebook) or not can_tell(own_notebook):
        return None
    try:
        return st.S_ISREG(os.stat(notebook).st_mode)
    except OSError:
        return False


def notebook_claims(notebook: str | None, workspace: str, own_notebook: str | None) -> bool | None:
    """Whether the notebook file at ``notebook`` still carries ``workspace`` (a copy of it was
    opened: True), or is gone or carries another (it was renamed or moved: False); None when it
    cannot be told (the notebooks are not on this host). The file is read, never parsed:
    ``notebook`` comes from a store."""
    exists = notebook_exists(notebook, own_notebook)
    if not exists:
        return exists
    assert notebook is not None
    needle = workspace.encode()
    try:
        fd = os.open(notebook, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        return False if e.errno == errno.ENOENT else None
    try:
        if not st.S_ISREG(os.fstat(fd).st_mode):
            return None
        tail = b""
        done = 0
        while done < MAX_NOTEBOOK_READ:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return False
            if needle in tail + chunk:
                return True
            tail = chunk[-len(needle):]
            done += len(chunk)
        return None
    except OSError:
        return None
    finally:
        os.close(fd)


def renamed_path(kernel_notebook: str | None, old_api: str, new_api: str) -> str | None:
    """The notebook path a kernel would be given for ``new_api`` (a path relative to the
    server's root, as the frontend knows it) when it was given ``kernel_notebook`` for
    ``old_api``: the server joins its root and the API path; None when they do not match."""
    if not kernel_notebook:
        return None
    old_api, new_api = old_api.strip("/"), new_api.strip("/")
    if not old_api or not new_api:
        return None
    if kernel_notebook == old_api:
        return new_api
    if kernel_notebook.endswith("/" + old_api):
        return kernel_notebook[:len(kernel_notebook) - len(old_api)] + new_api
    # a folder the server could not find on its disk: it started the kernel at its root
    if posixpath.dirname(old_api) == posixpath.dirname(new_api) \
            and posixpath.basename(kernel_notebook) == posixpath.basename(old_api):
        return posixpath.join(posixpath.dirname(kernel_notebook), posixpath.basename(new_api))
    return None


# ---------------------------------------------------------------------- the notebook's id
@dataclass
class Followed:
    """What ``follow_notebook`` decided: the id the notebook keeps in its metadata, and what
    to tell the user."""
    workspace: str | None
    notice: str = ""
    #: this workspace's files were replaced (another store's restored or copied)
    replaced: bool = False


def _restored_text(restored: _Restored) -> str:
    text = f"{restored.files} files ({format_size(restored.size)}B)"
    if restored.bad:
        text += f"; {restored.bad} saved entries could not be restored (e.g. {restored.bad_example})"
    if restored.left_out:
        text += f"; {restored.left_out} files left out (over the admin's ceilings)"
    return text


def follow_notebook(store: WorkspaceStore, wanted: str | None) -> Followed:
    """The notebook's workspace id ``wanted`` (None: it has none yet) against this kernel's
    store, opened at start by the notebook's path:

    - none, or this store's: the notebook keeps (or gets) this store's id;
    - another store's, held by a running kernel, or whose notebook file is still there with
      that id: this notebook is a copy (JupyterLab's Duplicate, a copied file; or someone else's
      notebook carrying that id): it gets this store's id, a workspace of its own (the user may
      copy the other's files in: ``%workspace attach --copy``);
    - another store's, whose notebook is gone (or it cannot be told): the notebook was renamed
      or moved while no kernel ran: that store becomes this one (when this workspace holds
      nothing of the user's; else the user is told to ``%workspace attach`` it);
    - an id no store has: this store takes it when it is empty, else the notebook gets this
      store's id."""
    current = store.workspace
    if not store.in_use:
        return Followed(wanted or current)
    if wanted is None or wanted == current:
        return Followed(current)
    other = find_workspace(store.path.parent, wanted, besides=store.path)
    files = store.user_files()
    if other is None:
        if files == 0:
            store.adopt(wanted)
            return Followed(wanted)
        return Followed(current)
    where = shown(other.notebook or other.name)
    if other.held:
        return Followed(current, f"[sandbox: this notebook is a copy of {where}, whose kernel is running: "
                                 "it has a persistent workspace of its own]")
    if notebook_claims(other.notebook, wanted, store.notebook):
        return Followed(current, f"[sandbox: this notebook is a copy of {where}: it has a persistent workspace "
                                 f"of its own (%workspace attach --copy {wanted} copies that one's files here)]")
    same_folder = posixpath.dirname(other.notebook or "") == posixpath.dirname(store.notebook or "")
    how = "renamed" if same_folder else "moved"
    if files != 0:
        count = f"{other.files} files, " if other.files else ""
        return Followed(wanted, f"[sandbox: the persistent workspace of this notebook ({count}saved for {where}, "
                                f"{how} since) was not restored: this kernel's workspace already has files; "
                                f"%workspace attach {wanted} replaces them (they are kept aside)]")
    try:
        restored, problem = store.take_over(other.path)
    except StoreBusy:
        return Followed(current, f"[sandbox: this notebook is a copy of {where}, whose kernel is running: "
                                 "it has a persistent workspace of its own]")
    except (StoreError, OSError) as e:
        return Followed(current, f"[sandbox: the persistent workspace of this notebook (saved for {where}) could "
                                 f"not be restored: {shown(e)}]")
    if problem:
        return Followed(store.workspace, problem, replaced=True)
    return Followed(store.workspace, f"[sandbox: workspace of this notebook restored ({how} from {where}): "
                                     f"{_restored_text(restored)}]", replaced=True)


# ---------------------------------------------------------------------- %workspace
class WorkspaceUsage(ValueError):
    """A %workspace line that cannot be done; the message says why."""


def _size(n: int) -> str:
    value, unit = float(n), 0
    while value >= 1024 and unit < 4:
        value, unit = value / 1024, unit + 1
    return f"{n} B" if unit == 0 else f"{value:.{1 if value < 10 else 0}f} {'KMGT'[unit - 1]}iB"


def _when(saved: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(saved)) if saved else "-"


def _state(info: StoreInfo, store: WorkspaceStore | None) -> str:
    if store is not None and info.path == store.path:
        return "this kernel's"
    if info.error:
        return f"unreadable ({shown(info.error, 80)})"
    parts = []
    if info.held:
        parts.append("in use by a running kernel")
    if info.detached:
        parts.append("detached")
    exists = notebook_exists(info.notebook, store.notebook if store is not None else None)
    if exists is False:
        parts.append("orphan: its notebook is gone")
    elif exists is None and info.notebook and not info.detached:
        parts.append("notebook: cannot tell")
    return ", ".join(parts) or "its notebook is there"


def list_text(folder: Path, store: WorkspaceStore | None) -> str:
    infos = scan(folder)
    if not infos:
        return f"no persistent workspaces yet in {shown(folder)}\n"
    rows = [(" ", "id", "notebook", "files", "size", "last saved", "state")]
    for info in infos:
        mine = store is not None and info.path == store.path
        rows.append(("*" if mine else " ", (info.workspace or "-")[:13], shown(info.notebook or f"({info.name})", 60),
                     "-" if info.error else str(info.files), "-" if info.error else _size(info.size),
                     _when(info.saved), _state(info, store)))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    lines = ["  ".join([r[0], *(r[i].ljust(widths[i]) if i in (1, 2, 5) else r[i].rjust(widths[i])
                                for i in range(1, 6)), r[6]]).rstrip() for r in rows]
    more = f"\n(only the first {MAX_STORES} stores are shown)" if len(infos) >= MAX_STORES else ""
    return ("\n".join(lines) + f"\nstores in {shown(folder)}; %workspace attach|delete ID (a prefix of the id "
            f"will do){more}\n")


def resolve(folder: Path, name: str) -> StoreInfo:
    """The store NAME names: its id (or a prefix of at least 4 characters), its store file's
    name, its notebook's path or name. Raises WorkspaceUsage when none or several do."""
    infos = scan(folder)
    for test in (lambda i: i.workspace == name,
                 lambda i: i.name == name or i.path.name == name,
                 lambda i: i.notebook == name,
                 lambda i: i.notebook is not None and posixpath.basename(i.notebook) == name,
                 lambda i: len(name) >= 4 and i.workspace is not None and i.workspace.startswith(name)):
        found = [i for i in infos if test(i)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            ids = ", ".join((i.workspace or i.name)[:13] for i in found[:10])
            raise WorkspaceUsage(f"'{shown(name)}' names several workspaces ({ids}); give its id")
    raise WorkspaceUsage(f"no workspace '{shown(name)}' (%workspace list shows them)")


@dataclass
class Plan:
    """A %workspace attach or delete checked and ready: ``question`` is what the user confirms
    (empty: nothing to confirm, it concerns only this notebook)."""
    info: StoreInfo
    question: str = ""
    #: attach: the user's files in this workspace (-1: cannot be told); kept aside when not 0
    files: int = 0
    copy: bool = False
    #: the text when there is nothing to do
    done: str = ""


def _named(info: StoreInfo) -> str:
    where = shown(info.notebook or info.name)
    return f"{info.workspace or info.name} ({where}, {info.files} files, {_size(info.size)})"


def plan_attach(store: WorkspaceStore, name: str, force: bool, copy: bool = False) -> Plan:
    if not store.in_use:
        raise WorkspaceUsage("this kernel's persistent workspace is not in use (see the notice at its start)")
    info = resolve(store.path.parent, name)
    if info.path == store.path:
        return Plan(info, done=f"this kernel already uses the workspace {_named(info)}\n")
    if info.error:
        raise WorkspaceUsage(f"the workspace store {shown(info.path.name)} cannot be read ({shown(info.error)})")
    if info.held:
        raise WorkspaceUsage(f"a running kernel holds the workspace {_named(info)}; shut it down first")
    files = store.user_files()
    if copy and files != 0:
        raise WorkspaceUsage("--copy copies into an empty workspace only; this one has files of the user's")
    if files != 0 and not force:
        what = f"{files} files" if files > 0 else "files"
        raise WorkspaceUsage(f"this workspace has {what} of the user's; %workspace attach --force {shown(name)} "
                             "replaces them (they are kept aside as a detached workspace: %workspace list)")
    verb = "Copy the files of" if copy else "Attach"
    kept = " (its files are kept aside as a detached workspace)" if files != 0 else ""
    return Plan(info, f"{verb} the workspace {_named(info)} into this sandbox, replacing /workspace and "
                      f"/home/user{kept}? Its files are then open to the code of this notebook. Type yes to go on: ",
                files, copy)


def attach(store: WorkspaceStore, plan: Plan) -> str:
    """Do a checked (and confirmed) attach."""
    info, kept = plan.info, store.workspace
    try:
        if plan.copy:
            restored, problem = store.copy_from(info.path), ""
        else:
            restored, problem = store.take_over(info.path, keep=plan.files != 0)
    except StoreBusy:
        raise WorkspaceUsage(f"a running kernel holds the workspace {_named(info)}; shut it down first") from None
    except (StoreError, sqlite3.Error, OSError) as e:
        raise WorkspaceUsage(shown(e)) from None
    if plan.copy:
        return (f"copied the files of the workspace {_named(info)}: /workspace and /home/user replaced by its "
                f"{_restored_text(restored)}, kept for this notebook (workspace {store.workspace})\n")
    text = (f"attached the workspace {store.workspace} (saved for {shown(info.notebook or info.name)}): "
            f"/workspace and /home/user replaced by its {_restored_text(restored)}\n")
    if plan.files != 0:
        text += f"this kernel's previous workspace is kept aside (detached): %workspace attach {kept} brings it back\n"
    return text + (problem + "\n" if problem else "")


def plan_delete(store: WorkspaceStore | None, folder: Path, name: str, force: bool) -> Plan:
    info = resolve(folder, name)
    if store is not None and info.path == store.path:
        if not force:
            raise WorkspaceUsage(f"the workspace {_named(info)} is this kernel's; %workspace delete --force "
                                 f"{shown(name)} deletes its store: the files stay until this kernel ends and are "
                                 "no longer saved")
        return Plan(info)
    if info.held:
        raise WorkspaceUsage(f"a running kernel holds the workspace {_named(info)}; shut it down first")
    return Plan(info, f"Delete the workspace {_named(info)} for good? Type yes to go on: ")


def delete(store: WorkspaceStore | None, plan: Plan) -> tuple[str, bool]:
    """Do a checked (and confirmed) delete; returns the text and whether it was this kernel's
    store (it saves no more)."""
    info = plan.info
    if store is not None and info.path == store.path:
        store.forget()
        return (f"deleted this kernel's workspace store {_named(info)}: the files stay until this kernel ends "
                "and are no longer saved\n", True)
    try:
        fd = lock_store(info.path, tries=1)
    except StoreBusy:
        raise WorkspaceUsage(f"a running kernel holds the workspace {_named(info)}; shut it down first") from None
    except OSError as e:
        raise WorkspaceUsage(f"the workspace {_named(info)} cannot be deleted ({shown(e)})") from None
    try:
        remove_db(info.path)
    except OSError as e:
        unlock_store(fd, info.path)
        raise WorkspaceUsage(f"the workspace {_named(info)} cannot be deleted ({shown(e)})") from None
    unlock_store(fd, info.path, unlink=True)
    return f"deleted the workspace {_named(info)}\n", False
