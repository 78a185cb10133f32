"""Property tests of the host-file parsers: the persistent store's reader (a hostile SQLite
store) and the tar import behind %load and the comm's `import` (random and mutated archives).
Whatever the input: no exception but a clear error, nothing written outside the trees they
own, no symlink followed, the quota kept, the admin's rw mount untouched in the sandbox and on
the host."""
from __future__ import annotations

import gzip
import io
import sqlite3
import tarfile
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as hs

from sandbox_kernel.kernel.protocol import magics
from sandbox_kernel.kernel.comms.vfs import VfsRequestHandler
from sandbox_kernel.kernel.storage.mounts import HostMount
from sandbox_kernel.kernel.storage.store import ROOTS, WorkspaceStore
from sandbox_kernel.limits import Limits
from sandbox_kernel.paths import under
from sandbox_kernel.policy import parse_mount
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vfs import Dir, File, FSError, Symlink

QUOTA = 64 * 1024


def tree(fs, keep=lambda path: True) -> dict[str, tuple]:
    """Every node (walked in hand, no path resolved) whose path ``keep`` takes, with what it holds."""
    out: dict[str, tuple] = {}
    todo = [("", fs.root)]
    while todo:
        prefix, folder = todo.pop()
        for name, node in folder.entries.items():
            path = f"{prefix}/{name}"
            if not keep(path):
                continue
            kind = type(node).__name__
            body = bytes(node.data) if isinstance(node, File) else node.target if isinstance(node, Symlink) else None
            out[path] = (kind, node.mode, node.uid, node.gid, body)
            if isinstance(node, Dir):
                todo.append((path, node))
    return out


def host_tree(top: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(top)): (None if p.is_dir() or p.is_symlink() else p.read_bytes())
            for p in sorted(top.rglob("*"))}


# ------------------------------------------------------------------ the persistent store
_components = hs.sampled_from(["a", "b", "l", "passwd", "..", ".", "", "x" * 300, "n\0ul", "user", "etc"])
_paths = hs.one_of(
    hs.builds(lambda top, parts: top + "".join("/" + p for p in parts),
              hs.sampled_from(["/workspace", "/home/user", "/etc", "/tmp", "", "/home", "/workspace/..", "workspace"]),
              hs.lists(_components, max_size=5)),
    hs.integers(-2**63, 2**63 - 1), hs.binary(max_size=8), hs.none())
_targets = hs.sampled_from(["/etc", "..", "../..", "/workspace/a", "a", "a\0b", ""])
_plausible_rows = hs.tuples(  # what a save writes, but for where links point and how big files are
    hs.builds(lambda top, parts: top + "".join("/" + p for p in parts), hs.sampled_from(ROOTS),
              hs.lists(hs.sampled_from(["a", "b", "l", "passwd"]), min_size=1, max_size=4)),
    hs.sampled_from(["dir", "file", "symlink"]), hs.integers(0, 0o7777), hs.sampled_from([0, 1000, 5]),
    hs.sampled_from([0, 1000, 5]), hs.floats(-1e12, 1e12), hs.binary(max_size=24 * 1024), _targets)
_hostile_rows = hs.tuples(
    _paths,
    hs.sampled_from(["dir", "file", "symlink", "fifo", None, 1, b"file"]),
    hs.one_of(hs.integers(-2**63, 2**63 - 1), hs.sampled_from([0o644, 0o4755, 0o777]), hs.text(max_size=3),
              hs.none(), hs.floats()),
    hs.one_of(hs.sampled_from([0, 1000, 65534]), hs.integers(-2**63, 2**63 - 1), hs.text(max_size=2)),
    hs.one_of(hs.sampled_from([0, 1000]), hs.integers(-2**63, 2**63 - 1), hs.none()),
    hs.one_of(hs.floats(allow_nan=True, allow_infinity=True), hs.integers(-2**63, 2**63 - 1), hs.text(max_size=3),
              hs.none()),
    hs.one_of(hs.binary(max_size=24 * 1024), hs.text(max_size=10), hs.integers(-9, 9), hs.none()),
    hs.one_of(_targets, hs.binary(max_size=4), hs.none()),
)
_rows = hs.one_of(_plausible_rows, _hostile_rows)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=hs.lists(_rows, max_size=25), primary_key=hs.booleans(), quotas=hs.sampled_from([None, "9" * 30, "1"]))
def test_a_hostile_store_never_breaks_the_restore(rows, primary_key, quotas):
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "ws.sqlite"
        with sqlite3.connect(db) as con:  # a store some other program wrote: duplicate paths too
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            con.execute("INSERT INTO meta VALUES ('schema', '1')")
            if quotas is not None:
                con.execute("INSERT INTO meta VALUES ('vfs_bytes', ?)", (quotas,))
            con.execute("CREATE TABLE entries (path %s, kind, mode, uid, gid, mtime, data, target)"
                        % ("TEXT PRIMARY KEY" if primary_key else ""))
            con.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        sb = Sandbox(Limits(vfs_bytes=QUOTA))
        outside = tree(sb.fs, lambda p: not any(under(p, r) for r in ROOTS))
        store = WorkspaceStore(db, sb.fs, raise_quotas=lambda b, i: None)
        notice = store.open()
        try:
            assert notice.startswith("[sandbox: ")
            assert tree(sb.fs, lambda p: not any(under(p, r) for r in ROOTS)) == outside
            assert sb.fs.bytes_used <= sb.fs.max_bytes == QUOTA
            saved = {r[0] for r in rows if isinstance(r[0], str)}
            for path in tree(sb.fs, lambda p: any(under(p, r) and p != r for r in ROOTS)):
                # each entry is a row's, or a directory on the way to one: nothing went through a link
                assert path in saved or any(under(s, path) for s in saved), path
            assert not list(Path(tmp).glob("*.unreadable*")), notice  # a readable store is never moved aside
        finally:
            store.close()


# ------------------------------------------------------------------ archives: %load and the comm's import
_names = hs.builds(lambda prefix, parts: prefix + "/".join(parts),
                   hs.sampled_from(["", "data/", "workspace/", "workspace/data/", "./data/", "a/../data/"]),
                   hs.lists(hs.sampled_from(["workspace", "data", "a", "..", ".", "", "tmp", "home", "user",
                                             "x" * 120]), min_size=1, max_size=4))
_members = hs.tuples(_names, hs.sampled_from([tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE,
                                               tarfile.FIFOTYPE]),
                     hs.one_of(_names, hs.sampled_from(["/etc", "/workspace/data", "../../.."])),
                     hs.binary(max_size=2000))


def archive_of(members, compress: bool, mutations) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, kind, link, data in members:
            info = tarfile.TarInfo(name)
            info.type, info.mode = kind, 0o755
            if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
                info.linkname = link
            if kind == tarfile.REGTYPE:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    blob = bytearray(gzip.compress(raw.getvalue()) if compress else raw.getvalue())
    for position, value in mutations:
        if blob:
            blob[position % len(blob)] = value
    return bytes(blob)


class Mounted:
    """A sandbox with the admin's rw mount of a host folder at /workspace/data."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.host = Path(self.tmp.name) / "data"
        (self.host / "sub").mkdir(parents=True)
        (self.host / "a.csv").write_bytes(b"host\n")
        (self.host / "sub" / "b.txt").write_bytes(b"bee\n")
        self.sb = Sandbox(Limits(vfs_bytes=QUOTA))
        self.mount = HostMount(parse_mount(f"{self.host}:/workspace/data:rw"), self.sb.fs)
        self.mount.copy_in()
        self.sb.fs.write_bytes("/workspace/mine.txt", b"mine")
        self.host_before = host_tree(self.host)
        self.mount_before = tree(self.sb.fs, lambda p: under(p, "/workspace/data"))

    def check_mount(self) -> None:
        assert tree(self.sb.fs, lambda p: under(p, "/workspace/data")) == self.mount_before
        assert self.mount.write_back() == [] and host_tree(self.host) == self.host_before

    def close(self) -> None:
        self.mount.close()
        self.tmp.cleanup()


_archives = dict(members=hs.lists(_members, max_size=12), compress=hs.booleans(),
                 mutations=hs.one_of(hs.just([]), hs.lists(hs.tuples(hs.integers(0, 2**16), hs.integers(0, 255)),
                                                           max_size=4)))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(**_archives)
# found by this test: the '..' of a name was seen only after 'data/workspace' was made in the mount
@example(members=[("data/workspace/../../workspace", b"0", "", b"")], compress=False, mutations=[])
def test_a_hostile_archive_imported_by_the_comm_stays_in_its_destination(members, compress, mutations):
    box = Mounted()
    try:
        fs = box.sb.fs
        outside = tree(fs, lambda p: not under(p, "/workspace"))
        reply, _ = VfsRequestHandler(fs).handle({"id": 1, "op": "import", "path": "/workspace"},
                                                [archive_of(members, compress, mutations)])
        assert reply["ok"] or not reply["error"]["message"].startswith("internal error"), reply  # a clear error
        assert tree(fs, lambda p: not under(p, "/workspace")) == outside
        assert fs.bytes_used <= fs.max_bytes
        box.check_mount()
    finally:
        box.close()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(**_archives)
def test_a_hostile_snapshot_loads_whole_or_not_at_all_and_leaves_the_mount(members, compress, mutations):
    box = Mounted()
    try:
        fs = box.sb.fs
        fs.write_bytes("/home/user/snap.tar", archive_of(members, compress, mutations))
        outside = tree(fs, lambda p: not any(under(p, r) for r in magics.SNAPSHOT_ROOTS))
        before = tree(fs)
        try:
            magics.load_snapshot(fs, "/home/user/snap.tar", "/workspace")
        except (magics.MagicError, FSError):
            assert tree(fs) == before  # a refused %load changes nothing
        assert tree(fs, lambda p: not any(under(p, r) for r in magics.SNAPSHOT_ROOTS)) == outside
        assert not [n for n in fs.root.entries if n.startswith(".sandbox-")]
        box.check_mount()
    finally:
        box.close()
