"""Unit tests of the in-memory VFS: resolution, permissions, quotas, links, renames, tar."""
from __future__ import annotations

import errno
import io
import tarfile

import pytest
from hypothesis import given, settings, strategies as st

from sandbox_kernel.vfs import FSError, VFS, make_vfs, normpath
from sandbox_kernel.vfs.tar import export_tar, import_tar


@pytest.fixture
def fs() -> VFS:
    return make_vfs(1 << 20, 1000, ["ls", "cat"], seed=1)


def code(exc_info) -> str:
    return exc_info.value.code


# ------------------------------------------------------------------ path resolution
def test_dotdot_at_root_stays_at_root(fs):
    assert fs.realpath("/..") == "/"
    assert fs.realpath("/../../etc/../etc/./hostname") == "/etc/hostname"
    assert fs.realpath("..", cwd="/") == "/"
    assert normpath("../../x", "/a") == "/x"
    assert fs.listdir("/../..") == fs.listdir("/")


def test_relative_paths_use_cwd(fs):
    fs.write_text("/workspace/f", "x")
    assert fs.read_text("f", cwd="/workspace") == "x"
    assert fs.read_text("./../workspace/f", cwd="/workspace") == "x"
    assert fs.exists("f", cwd="/workspace") and not fs.exists("f", cwd="/tmp")


def test_empty_path_nul_and_long_names(fs):
    with pytest.raises(FSError) as e:
        fs.stat("")
    assert code(e) == "ENOENT"
    with pytest.raises(FSError) as e:
        fs.stat("/a\0b")
    assert code(e) == "EINVAL"
    with pytest.raises(FSError) as e:
        fs.write_text("/workspace/" + "n" * 256, "x")
    assert code(e) == "ENAMETOOLONG"
    fs.write_text("/workspace/" + "n" * 255, "x")


def test_trailing_slashes(fs):
    fs.write_text("/workspace/f", "x")
    fs.mkdir("/workspace/d/")
    assert fs.is_dir("/workspace/d/")
    assert fs.stat("/workspace/d///").type == "dir"
    with pytest.raises(FSError) as e:
        fs.stat("/workspace/f/")
    assert code(e) == "ENOTDIR"
    with pytest.raises(FSError) as e:
        fs.open("/workspace/new/", "wb")
    assert code(e) == "EISDIR"
    assert not fs.exists("/workspace/new")
    with pytest.raises(FSError) as e:
        fs.unlink("/workspace/f/")
    assert code(e) == "ENOTDIR"
    fs.symlink("d", "/workspace/ld")
    assert fs.stat("/workspace/ld/").type == "dir"
    with pytest.raises(FSError) as e:
        fs.rmdir("/workspace/ld/")
    assert code(e) == "ENOTDIR"
    assert fs.is_dir("/workspace/d")


def test_trailing_slash_on_existing_and_renamed_names(fs):
    fs.write_text("/workspace/f", "x")
    with pytest.raises(FSError) as e:
        fs.mkdir("/workspace/f/")
    assert code(e) == "EEXIST"
    with pytest.raises(FSError) as e:
        fs.rename("/workspace/f", "/workspace/g/")
    assert code(e) == "ENOTDIR"
    assert fs.exists("/workspace/f") and not fs.exists("/workspace/g")
    fs.mkdir("/workspace/d")
    fs.rename("/workspace/d", "/workspace/e/")
    assert fs.is_dir("/workspace/e")


def test_file_used_as_directory(fs):
    fs.write_text("/workspace/f", "x")
    with pytest.raises(FSError) as e:
        fs.stat("/workspace/f/x")
    assert code(e) == "ENOTDIR"
    with pytest.raises(FSError) as e:
        fs.mkdir("/workspace/f/x")
    assert code(e) == "ENOTDIR"


def test_symlinks_resolve_relative_to_their_directory(fs):
    fs.mkdir("/workspace/a/b", parents=True)
    fs.write_text("/workspace/a/target", "t")
    fs.symlink("../target", "/workspace/a/b/up")
    assert fs.read_text("/workspace/a/b/up") == "t"
    assert fs.realpath("/workspace/a/b/up") == "/workspace/a/target"
    fs.symlink("/workspace/a", "/workspace/abs")
    assert fs.realpath("/workspace/abs/b/../target") == "/workspace/a/target"
    # ".." after a symlink is physical: it leaves the link's target, not the link
    fs.symlink("a/b", "/workspace/deep")
    assert fs.realpath("/workspace/deep/..") == "/workspace/a"
    assert fs.lstat("/workspace/deep").type == "symlink"
    assert fs.readlink("/workspace/deep") == "a/b"
    with pytest.raises(FSError) as e:
        fs.readlink("/workspace/a")
    assert code(e) == "EINVAL"


def test_symlink_loops_give_eloop_after_40_hops(fs):
    fs.symlink("loop2", "/workspace/loop1")
    fs.symlink("loop1", "/workspace/loop2")
    with pytest.raises(FSError) as e:
        fs.stat("/workspace/loop1")
    assert code(e) == "ELOOP"
    assert fs.lstat("/workspace/loop1").type == "symlink"
    # a chain of exactly 40 links resolves, 41 do not
    fs.write_text("/workspace/end", "ok")
    prev = "end"
    for i in range(40):
        fs.symlink(prev, f"/workspace/c{i}")
        prev = f"c{i}"
    assert fs.read_text("/workspace/c39") == "ok"
    fs.symlink("c39", "/workspace/c40")
    with pytest.raises(FSError) as e:
        fs.read_text("/workspace/c40")
    assert code(e) == "ELOOP"


def test_dangling_symlink_write_creates_target(fs):
    fs.symlink("created", "/workspace/dang")
    assert not fs.exists("/workspace/dang")
    assert fs.exists("/workspace/dang", follow=False)
    fs.write_text("/workspace/dang", "via link")
    assert fs.read_text("/workspace/created") == "via link"


# ------------------------------------------------------------------ permissions
def test_root_owned_dirs_are_read_only_for_the_user(fs):
    assert fs.read_text("/etc/hostname") == "sandbox\n"
    for action in (lambda: fs.write_text("/etc/new", "x"),
                   lambda: fs.write_text("/etc/hostname", "x"),
                   lambda: fs.mkdir("/usr/bin/x"),
                   lambda: fs.unlink("/etc/hostname"),
                   lambda: fs.rename("/etc/hostname", "/workspace/h"),
                   lambda: fs.symlink("x", "/etc/link"),
                   lambda: fs.write_text("/new-at-root", "x")):
        with pytest.raises(FSError) as e:
            action()
        assert code(e) == "EACCES"
    with pytest.raises(FSError) as e:
        fs.chmod("/etc/hostname", 0o777)
    assert code(e) == "EPERM"
    with pytest.raises(FSError) as e:
        fs.utime("/etc/hostname", 0.0)
    assert code(e) == "EPERM"
    with pytest.raises(FSError) as e:
        fs.chown("/workspace", 0, -1)
    assert code(e) == "EPERM"
    with pytest.raises(FSError) as e:
        fs.chown("/workspace", -1, 0)
    assert code(e) == "EPERM"
    fs.chown("/workspace", 1000, 1000)
    with pytest.raises(FSError) as e:
        fs.listdir("/root")
    assert code(e) == "EACCES"
    assert fs.access("/etc/hostname", 4) and not fs.access("/etc/hostname", 2)


def test_owner_permission_bits_are_enforced(fs):
    fs.write_text("/workspace/f", "secret")
    fs.chmod("/workspace/f", 0o200)
    with pytest.raises(FSError) as e:
        fs.read_text("/workspace/f")
    assert code(e) == "EACCES"
    fs.chmod("/workspace/f", 0o400)
    with pytest.raises(FSError) as e:
        fs.write_text("/workspace/f", "x")
    assert code(e) == "EACCES"
    fs.mkdir("/workspace/d")
    fs.write_text("/workspace/d/inner", "i")
    fs.chmod("/workspace/d", 0o600)  # no search permission
    with pytest.raises(FSError) as e:
        fs.read_text("/workspace/d/inner")
    assert code(e) == "EACCES"
    fs.chmod("/workspace/d", 0o500)  # no write: cannot add or remove entries
    with pytest.raises(FSError) as e:
        fs.unlink("/workspace/d/inner")
    assert code(e) == "EACCES"


def test_sticky_tmp(fs):
    fs.write_text("/tmp/mine", "x")
    fs.unlink("/tmp/mine")
    fs.uid = 0
    fs.write_text("/tmp/roots", "x")
    fs.uid = 1000
    with pytest.raises(FSError) as e:
        fs.unlink("/tmp/roots")
    assert code(e) == "EPERM"


def test_layout_owners(fs):
    owners = {p: fs.stat(p).st_uid for p in ("/", "/home", "/home/user", "/workspace", "/tmp", "/etc")}
    assert owners == {"/": 0, "/home": 0, "/home/user": 1000, "/workspace": 1000, "/tmp": 0, "/etc": 0}
    assert fs.stat("/tmp").st_mode & 0o7777 == 0o1777


def test_umask_applies_to_new_files_and_dirs(fs):
    fs.write_text("/workspace/f", "x")
    fs.mkdir("/workspace/d")
    assert fs.stat("/workspace/f").st_mode & 0o777 == 0o644
    assert fs.stat("/workspace/d").st_mode & 0o777 == 0o755


# ------------------------------------------------------------------ quotas
def test_byte_quota_replace_is_all_or_nothing(fs):
    room = fs.max_bytes - fs.bytes_used
    fs.write_bytes("/workspace/f", b"old")
    with pytest.raises(FSError) as e:
        fs.write_bytes("/workspace/f", b"x" * (room + 1))
    assert code(e) == "ENOSPC"
    assert fs.read_bytes("/workspace/f") == b"old"
    with pytest.raises(FSError):
        fs.write_bytes("/workspace/new", b"x" * (room + 1))
    assert not fs.exists("/workspace/new")
    # replacing frees the old content first
    fs.write_bytes("/workspace/f", b"y" * room)
    assert fs.bytes_used == fs.max_bytes


def test_byte_quota_handle_writes_what_fits(fs):
    room = fs.max_bytes - fs.bytes_used
    with fs.open("/workspace/f", "wb") as h:
        h.write(b"a" * (room - 10))
        with pytest.raises(FSError) as e:
            h.write(b"b" * 20)
        assert code(e) == "ENOSPC"
    data = fs.read_bytes("/workspace/f")
    assert data == b"a" * (room - 10) + b"b" * 10
    with pytest.raises(FSError):
        fs.write_bytes("/workspace/f", b"more", append=True)
    fs.unlink("/workspace/f")
    assert fs.bytes_used == fs.max_bytes - room



def test_byte_quota_write_past_the_end_does_not_fill_the_hole(fs):
    # a write at a far offset used to zero-fill the hole in host memory, past the quota
    used = fs.bytes_used
    with fs.open("/workspace/f", "wb") as h:
        h.seek(fs.max_bytes * 100)
        with pytest.raises(FSError) as e:
            h.write(b"x")
        assert code(e) == "ENOSPC"
    assert fs.stat("/workspace/f").st_size == 0 and fs.bytes_used == used

def test_inode_quota(fs):
    free = fs.max_inodes - fs.inodes_used
    for i in range(free):
        fs.write_bytes(f"/workspace/f{i}", b"")
    for action in (lambda: fs.write_bytes("/workspace/one-more", b""),
                   lambda: fs.mkdir("/workspace/dir"),
                   lambda: fs.symlink("x", "/workspace/link")):
        with pytest.raises(FSError) as e:
            action()
        assert code(e) == "ENOSPC"
    assert not fs.exists("/workspace/one-more", follow=False)
    fs.unlink("/workspace/f0")
    fs.mkdir("/workspace/dir")
    fs.rmdir("/workspace/dir")
    assert fs.inodes_used == fs.max_inodes - 1


def test_quota_errors_are_counted_by_limit(fs):
    """What the run's notice names (Sandbox.run): each ENOSPC of a full quota, by limit."""
    fs.write_bytes("/workspace/f", b"")
    room = fs.max_bytes - fs.bytes_used
    for action in (lambda: fs.write_bytes("/workspace/f", b"x" * (room + 1)),
                   lambda: fs.truncate("/workspace/f", room + 1)):
        with pytest.raises(FSError):
            action()
    with fs.open("/workspace/g", "wb") as h:
        with pytest.raises(FSError):
            h.write(b"x" * (room + 1))
    assert fs.quota_refusals == {"vfs_bytes": 3, "vfs_inodes": 0}
    with pytest.raises(FSError):
        fs.read_bytes("/workspace/missing")
    fs.max_inodes = fs.inodes_used
    with pytest.raises(FSError):
        fs.mkdir("/workspace/dir")
    assert fs.quota_refusals == {"vfs_bytes": 3, "vfs_inodes": 1}


def test_truncate_and_usage(fs):
    before = fs.usage()["bytes_used"]
    fs.write_bytes("/workspace/f", b"12345")
    fs.truncate("/workspace/f", 2)
    assert fs.read_bytes("/workspace/f") == b"12"
    fs.truncate("/workspace/f", 4)
    assert fs.read_bytes("/workspace/f") == b"12\0\0"
    assert fs.usage()["bytes_used"] == before + 4
    with pytest.raises(FSError) as e:
        fs.truncate("/workspace/f", fs.max_bytes)
    assert code(e) == "ENOSPC"


# ------------------------------------------------------------------ hard links
def test_hard_links_share_data_and_count(fs):
    fs.write_text("/workspace/a", "shared")
    used = fs.bytes_used
    fs.link("/workspace/a", "/workspace/b")
    assert fs.stat("/workspace/a").st_nlink == 2
    assert fs.stat("/workspace/a").st_ino == fs.stat("/workspace/b").st_ino
    fs.write_text("/workspace/b", "changed")
    assert fs.read_text("/workspace/a") == "changed"
    fs.unlink("/workspace/a")
    assert fs.read_text("/workspace/b") == "changed"
    assert fs.stat("/workspace/b").st_nlink == 1
    fs.unlink("/workspace/b")
    assert fs.bytes_used == used - len("shared")
    fs.mkdir("/workspace/d")
    with pytest.raises(FSError) as e:
        fs.link("/workspace/d", "/workspace/d2")
    assert code(e) == "EPERM"
    fs.write_text("/workspace/c", "c")
    with pytest.raises(FSError) as e:
        fs.link("/workspace/c", "/workspace/c")
    assert code(e) == "EEXIST"


def test_hard_links_to_other_users_files_follow_protected_hardlinks(fs):
    """Linux (fs.protected_hardlinks=1): a user cannot pin root's files by hard-linking them
    (red team D7); a file they may read and write, or their own, links."""
    fs.install_file_as_root("/etc/secret", b"s", mode=0o644)
    fs.install_file_as_root("/etc/shared", b"w", mode=0o666)
    fs.install_file_as_root("/usr/bin/suid", b"x", mode=0o4777)
    fs.install_file_as_root("/usr/bin/sgid", b"x", mode=0o2777)
    for src in ("/etc/secret", "/usr/bin/suid", "/usr/bin/sgid"):
        with pytest.raises(FSError) as e:
            fs.link(src, "/workspace/pinned")
        assert code(e) == "EPERM", src
        assert not fs.exists("/workspace/pinned", follow=False)
    fs.link("/etc/shared", "/workspace/shared")
    assert fs.stat("/etc/shared").st_nlink == 2
    with fs.privileged():
        fs.link("/etc/secret", "/workspace/by-root")
    assert fs.stat("/etc/secret").st_nlink == 2


def test_directory_link_counts(fs):
    fs.mkdir("/workspace/p")
    assert fs.stat("/workspace/p").st_nlink == 2
    fs.mkdir("/workspace/p/c1")
    fs.mkdir("/workspace/p/c2")
    assert fs.stat("/workspace/p").st_nlink == 4
    fs.rename("/workspace/p/c1", "/workspace/c1")
    assert fs.stat("/workspace/p").st_nlink == 3
    fs.rmdir("/workspace/p/c2")
    assert fs.stat("/workspace/p").st_nlink == 2


# ------------------------------------------------------------------ rename
def test_rename_edge_cases(fs):
    fs.write_text("/workspace/f", "f")
    fs.write_text("/workspace/g", "g")
    fs.mkdir("/workspace/d/sub", parents=True)
    fs.mkdir("/workspace/empty")
    fs.rename("/workspace/f", "/workspace/g")            # replaces a file
    assert fs.read_text("/workspace/g") == "f" and not fs.exists("/workspace/f")
    fs.rename("/workspace/g", "/workspace/g")            # same name: nothing happens
    assert fs.read_text("/workspace/g") == "f"
    fs.link("/workspace/g", "/workspace/hl")
    fs.rename("/workspace/g", "/workspace/hl")           # hard links of one file: no-op
    assert fs.exists("/workspace/g") and fs.exists("/workspace/hl")
    for src, dst, err in [("/workspace/d", "/workspace/d/sub/x", "EINVAL"),   # into itself
                          ("/workspace/d", "/workspace/d", None),
                          ("/workspace/g", "/workspace/empty", "EISDIR"),
                          ("/workspace/empty", "/workspace/g", "ENOTDIR"),
                          ("/workspace/empty", "/workspace/d", "ENOTEMPTY"),
                          ("/workspace/nope", "/workspace/x", "ENOENT"),
                          ("/workspace/g", "/workspace/nodir/x", "ENOENT"),
                          ("/", "/workspace/root", "EBUSY")]:
        if err is None:
            fs.rename(src, dst)
            continue
        with pytest.raises(FSError) as e:
            fs.rename(src, dst)
        assert code(e) == err, (src, dst)
    fs.rename("/workspace/empty", "/workspace/d/sub")   # dir over an empty dir
    assert fs.listdir("/workspace/d") == ["sub"]
    fs.symlink("d", "/workspace/ld")
    fs.rename("/workspace/ld", "/workspace/ld2")          # renames the link, not the target
    assert fs.readlink("/workspace/ld2") == "d" and fs.is_dir("/workspace/d")


def test_rename_keeps_inode_and_notifies(fs):
    events = []
    fs.listeners.append(lambda path, kind: events.append((path, kind)))
    fs.write_text("/workspace/a", "x")
    ino = fs.stat("/workspace/a").st_ino
    fs.rename("/workspace/a", "/tmp/b")
    assert fs.stat("/tmp/b").st_ino == ino
    assert ("/workspace/a", "deleted") in events and ("/tmp/b", "created") in events


def test_remove_tree(fs):
    fs.mkdir("/workspace/t/a/b", parents=True)
    fs.write_text("/workspace/t/a/b/f", "x" * 100)
    fs.symlink("/etc", "/workspace/t/link")
    used_bytes, used_inodes = fs.bytes_used, fs.inodes_used
    fs.remove_tree("/workspace/t")
    assert not fs.exists("/workspace/t")
    assert fs.bytes_used == used_bytes - 100 and fs.inodes_used == used_inodes - 5
    assert fs.exists("/etc/hostname")


# ------------------------------------------------------------------ devices
def test_devices(fs):
    assert fs.read_bytes("/dev/null") == b""
    with fs.open("/dev/zero", "rb") as h:
        assert h.read(4) == b"\0\0\0\0"
    fs.write_bytes("/dev/null", b"discarded")
    with fs.open("/dev/urandom", "rb") as h:
        assert len(h.read(16)) == 16
    assert fs.realpath("/bin/ls") == "/usr/bin/ls"


def test_seeded_random_is_reproducible():
    a = make_vfs(1 << 20, 100, seed=5).random_bytes(8)
    b = make_vfs(1 << 20, 100, seed=5).random_bytes(8)
    assert a == b


# ------------------------------------------------------------------ tar
def test_tar_round_trip(fs):
    fs.mkdir("/workspace/proj/src", parents=True)
    fs.write_bytes("/workspace/proj/src/main.py", b"print('hi')\n")
    fs.write_bytes("/workspace/proj/bin.dat", bytes(range(256)))
    fs.chmod("/workspace/proj/bin.dat", 0o600)
    fs.symlink("src/main.py", "/workspace/proj/link")
    fs.mkdir("/workspace/proj/empty")
    fs.utime("/workspace/proj/src/main.py", 1577836800.0)
    buf = io.BytesIO()
    count = export_tar(fs, buf, "/workspace/proj")
    assert count == 5
    other = make_vfs(1 << 20, 1000)
    buf.seek(0)
    assert import_tar(other, buf, "/workspace/copy") == 5
    assert other.read_bytes("/workspace/copy/src/main.py") == b"print('hi')\n"
    assert other.read_bytes("/workspace/copy/bin.dat") == bytes(range(256))
    assert other.stat("/workspace/copy/bin.dat").st_mode & 0o777 == 0o600
    assert other.readlink("/workspace/copy/link") == "src/main.py"
    assert other.is_dir("/workspace/copy/empty")
    assert other.stat("/workspace/copy/src/main.py").st_mtime == 1577836800.0
    buf.seek(0)
    gz = io.BytesIO()
    export_tar(fs, gz, "/workspace/proj", compress="gz")
    gz.seek(0)
    assert import_tar(other, gz, "/workspace/gz") == 5


def test_tar_import_is_confined_to_destination(fs):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name in ("../escape", "/abs", "ok/../../escape2", "fine"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    buf.seek(0)
    import_tar(fs, buf, "/workspace/dest")
    assert fs.exists("/workspace/dest/fine")
    assert fs.exists("/workspace/dest/abs")
    assert not fs.exists("/workspace/escape") and not fs.exists("/workspace/escape2")


def test_tar_import_rejects_garbage(fs):
    with pytest.raises(FSError) as e:
        import_tar(fs, io.BytesIO(b"not a tar at all" * 100), "/workspace/x")
    assert e.value.errno == errno.EINVAL


# ------------------------------------------------------------------ walking by inode, dir cache
def test_entries_lists_a_directory_by_inode(fs):
    fs.mkdir("/workspace/d")
    for name in ("b", "a", "c"):
        fs.write_text("/workspace/d/" + name, name)
    folder = fs.node("/workspace/d")
    got = fs.entries(folder, "/workspace/d")
    assert [name for name, _ in got] == ["a", "b", "c"]
    assert [fs.entry_stat(folder, node).st_ino for _, node in got] == \
        [fs.lstat("/workspace/d/" + n).st_ino for n in "abc"]
    fs.chmod("/workspace/d", 0o300)  # no read: no listing
    with pytest.raises(FSError) as e:
        fs.entries(folder, "/workspace/d")
    assert e.value.errno == errno.EACCES and "/workspace/d" in str(e.value)
    fs.chmod("/workspace/d", 0o600)  # read but no search: names, but no stat (like lstat)
    assert len(fs.entries(folder)) == 3
    with pytest.raises(FSError) as e:
        fs.entry_stat(folder, got[0][1], "/workspace/d/a")
    assert e.value.errno == errno.EACCES
    with pytest.raises(FSError):
        fs.lstat("/workspace/d/a")


def test_remembered_directories_follow_tree_changes(fs):
    fs.mkdir("/workspace/a/b", parents=True)
    fs.write_text("/workspace/a/b/f", "1")
    assert fs.read_text("/workspace/a/b/f") == "1"  # /workspace/a/b now remembered
    fs.rename("/workspace/a", "/workspace/z")
    assert not fs.exists("/workspace/a/b/f")
    assert fs.read_text("/workspace/z/b/f") == "1"
    fs.unlink("/workspace/z/b/f")
    fs.rmdir("/workspace/z/b")
    fs.mkdir("/workspace/z/b")
    assert fs.listdir("/workspace/z/b") == []
    fs.write_text("/workspace/z/b/g", "2")
    assert fs.listdir("/workspace/z/b") == ["g"]
    fs.remove_tree("/workspace/z")
    with pytest.raises(FSError) as e:
        fs.write_text("/workspace/z/b/g", "3")  # not into the detached directory
    assert e.value.errno == errno.ENOENT
    fs.mkdir("/workspace/p")
    fs.write_text("/workspace/p/f", "x")
    fs.chmod("/workspace/p", 0o600)  # search permission taken away
    with pytest.raises(FSError) as e:
        fs.read_text("/workspace/p/f")
    assert e.value.errno == errno.EACCES
    fs.chmod("/workspace/p", 0o700)
    fs.mkdir("/workspace/real")
    fs.write_text("/workspace/real/f", "r")
    fs.symlink("real", "/workspace/via")
    assert fs.read_text("/workspace/via/f") == "r"
    fs.unlink("/workspace/via")
    fs.symlink("p", "/workspace/via")
    assert fs.read_text("/workspace/via/f") == "x"
    assert fs.realpath("/workspace/real/../p/f") == "/workspace/p/f"


def test_remembered_directories_are_per_user(fs):
    fs.mkdir("/workspace/s")
    fs.write_text("/workspace/s/f", "x")
    with fs.privileged():
        fs.chmod("/workspace/s", 0o700)
        fs.chown("/workspace/s", 0, 0)
        assert fs.read_text("/workspace/s/f") == "x"
    with pytest.raises(FSError) as e:
        fs.read_text("/workspace/s/f")
    assert e.value.errno == errno.EACCES


# ------------------------------------------------------------------ program(): the cached-directory way
def _outcome(fn):
    try:
        return fn()
    except FSError as e:
        return e.errno


_TARGETS = ["/w/bin/a", "/w/bin/b", "/w/bin", "/w/lib/a", "/w/lib", "/w"]
_PROGRAM_OPS = st.lists(st.tuples(
    st.sampled_from(["chmod", "unlink", "remove_tree", "rename", "symlink", "write", "mkdir", "user"]),
    st.sampled_from(_TARGETS), st.sampled_from(_TARGETS),
    st.sampled_from([0o000, 0o100, 0o400, 0o500, 0o644, 0o711, 0o755])), max_size=12)


@given(_PROGRAM_OPS)
@settings(max_examples=300, deadline=None)
def test_program_agrees_with_a_fresh_resolution(ops):
    """Whatever changes between runs (modes, removals, renames, symlinks, the user), what
    ``program`` finds through a directory remembered from an earlier lookup is what a lookup
    from the root finds."""
    fs = make_vfs(1 << 20, 1000, [], seed=1)
    fs.uid = 0
    fs.makedirs("/w/bin")
    fs.makedirs("/w/lib")
    for f in ("/w/bin/a", "/w/bin/b", "/w/lib/a"):
        fs.write_bytes(f, f.encode())
        fs.chmod(f, 0o755)
    user = 1000
    paths = ["/w/bin/a", "/w/bin/b", "/w/lib/a", "/w/bin", "/w/bin/../lib/a", "/w/lib/a/x"]
    for op, path, other, mode in ops:
        fs.uid = user
        for p in paths:
            _outcome(lambda: fs.program(p))  # (directories remembered)
        fs.uid = 0
        if op == "user":
            user = 0 if user else 1000
        else:
            _outcome({"chmod": lambda: fs.chmod(path, mode), "unlink": lambda: fs.unlink(path),
                      "remove_tree": lambda: fs.remove_tree(path), "rename": lambda: fs.rename(path, other),
                      "symlink": lambda: fs.symlink(other, path), "write": lambda: fs.write_bytes(path, b"new"),
                      "mkdir": lambda: fs.makedirs(path)}[op])
        fs.uid = user
        for p in paths:
            remembered = _outcome(lambda: fs.program(p))
            fs._forget_dirs()
            assert remembered == _outcome(lambda: fs.program(p)), (p, op)
