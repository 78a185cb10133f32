"""kernel/protocol/magics.py: cell routing, completion offsets and magic names, %limits, %save and
%load snapshots."""
import io
import tarfile

import pytest
from hypothesis import given, settings, strategies as st

from sandbox_kernel.kernel.protocol import magics
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox


def test_parse_cell_routing():
    assert magics.parse_cell("echo hi") == magics.Cell("sh", "echo hi", [])
    assert magics.parse_cell("%%bash\necho hi").engine == "sh"
    cell = magics.parse_cell("\n%%js\nlet x = 1\n")
    assert (cell.engine, cell.body) == ("js", "\n\nlet x = 1\n")  # line numbers kept
    assert magics.parse_cell("%%vm\nuname").engine == "vm"
    cell = magics.parse_cell("%%vm --root --keep\nid")
    assert (cell.engine, cell.args, cell.body) == ("vm", ["--root", "--keep"], "\nid")  # options for the engine
    assert magics.parse_cell("%%vm\nid").args is None
    with pytest.raises(magics.MagicError, match="takes no arguments"):
        magics.parse_cell("%%js --root\n1")
    cell = magics.parse_cell("%limits wall_time=5\n%save a.tar\necho x")
    assert cell.line_magics == [("limits", "wall_time=5"), ("save", "a.tar")]
    assert cell.body == "\n\necho x"
    assert not magics.parse_cell("   \n").has_code
    assert magics.parse_cell("%%python\nprint(1)").engine == "python"
    with pytest.raises(magics.MagicError, match="unknown cell magic '%%ruby'.*%%sh, %%bash, %%js, %%python, %%vm"):
        magics.parse_cell("%%ruby\nputs 1")
    with pytest.raises(magics.MagicError, match="unknown line magic '%cd'"):
        magics.parse_cell("%cd /tmp")
    with pytest.raises(magics.MagicError, match="go on the first line"):
        magics.parse_cell("%bash")


def test_completion_route_maps_the_cursor_into_the_body():
    code = "\n%%js\nMath.fl"
    r = magics.route(code, len(code))
    assert (r.engine, r.text, r.position, r.shift) == ("js", "\n\nMath.fl", 9, 4)
    assert r.text[r.position - 2:r.position] == "fl" and r.position + r.shift == len(code)
    r = magics.route("%%vm --root\nls fo", 17)
    assert (r.engine, r.text[r.position - 2:r.position], r.shift) == ("vm", "fo", 11)
    r = magics.route("%limits\n%save a.tar\necho $HO", 29)
    assert (r.engine, r.text[:r.position].split("\n")[-1], r.shift) == ("sh", "echo $HO", 18)
    assert magics.route("echo hi", 4) == ("sh", "echo hi", 4, 0)
    assert magics.route("%load fi", 8) == ("sh", "%load fi", 8, 0)  # a magic's arguments: the shell's paths
    assert magics.route("%%js --x\n1", 9) is None
    assert magics.route("  \n ", 4) == ("sh", "  \n ", 4, 0)


@settings(max_examples=300, deadline=None)
@given(magic_lines=st.lists(st.sampled_from(["%%js", "%%vm --root", "%%sh", "%limits", "%save a.tar", "",
                                              "  %%js  ", "%help ls"]), max_size=4),
       body=st.text(alphabet="ab \n%.$", max_size=30), cursor=st.integers(-3, 80))
def test_completion_route_offsets_on_any_cell(magic_lines, body, cursor):
    code = "\n".join([*magic_lines, body])
    r = magics.route(code, cursor)
    if r is None:
        return
    position = max(0, min(cursor, len(code)))
    assert r.position + r.shift == position
    if r.shift:  # in the body: the text around the cursor is the cell's
        assert r.text[r.position:] == code[position:]
        assert r.text[:r.position].split("\n")[-1] == code[:position].split("\n")[-1]


def test_magic_names_complete_on_the_magic_lines_only():
    assert magics.magic_word("%%j", 3) == (0, "%%j", True)
    assert magics.magic_word("\n  %li", 6) == (3, "%li", True)
    assert magics.magic_word("%limits\n%sa", 11) == (8, "%sa", False)  # a line magic: no cell magics here
    assert magics.magic_word("%%js\n%sa", 8) is None   # JS code
    assert magics.magic_word("echo\n%sa", 8) is None
    assert magics.magic_word("%load x", 7) is None      # an argument
    assert magics.magic_word("%limits wall_time=5", 3, whole=True) == (0, "%limits", True)


def test_parse_limits_leaves_the_original_alone():
    limits = Limits()
    trial, changed = magics.parse_limits(limits, ["wall_time=60", "stdout_bytes=4M"])
    assert changed == ["wall_time", "stdout_bytes"]
    assert (trial.wall_time, trial.stdout_bytes) == (60.0, 4 * 1024 * 1024) and limits.wall_time == 30.0
    with pytest.raises(magics.MagicError, match="unknown limit 'bogus'"):
        magics.parse_limits(limits, ["wall_time=5", "bogus=1"])
    with pytest.raises(magics.MagicError, match="NAME=VALUE"):
        magics.parse_limits(limits, ["wall_time"])
    with pytest.raises(magics.MagicError, match="invalid size"):
        magics.parse_limits(limits, ["stdout_bytes=lots"])
    for bad in ("inf", "nan", "1e999", "-5", "0"):
        with pytest.raises(magics.MagicError):
            magics.parse_limits(limits, [f"wall_time={bad}"])
    assert magics.parse_limits(limits, ["wall_time=10m"])[0].wall_time == 600.0


def test_update_limits_respects_ceilings_and_applies_vfs_quotas():
    sb = Sandbox()
    trial, changed = magics.parse_limits(sb.limits, ["wall_time=100000", "string_bytes=100G"])
    with pytest.raises(ValueError, match="above this kernel's ceiling"):
        sb.update_limits(trial, changed)
    assert sb.limits.wall_time == 30.0 and sb.limits.string_bytes == 64 * 1024 * 1024  # all or nothing
    sb.fs.write_bytes("/workspace/big", b"x" * 300_000)
    trial, changed = magics.parse_limits(sb.limits, ["vfs_bytes=100K"])
    with pytest.raises(ValueError, match="below what the VFS holds"):
        sb.update_limits(trial, changed)
    trial, changed = magics.parse_limits(sb.limits, ["vfs_bytes=1M", "vfs_inodes=2000"])
    sb.update_limits(trial, changed)
    assert (sb.fs.max_bytes, sb.fs.max_inodes) == (1024 * 1024, 2000)
    with pytest.raises(OSError, match="No space"):
        sb.fs.write_bytes("/workspace/more", b"y" * 800_000)


def test_snapshot_roundtrip_replaces_trees_and_keeps_archive():
    fs = Sandbox().fs
    fs.mkdir("/workspace/data")
    fs.write_bytes("/workspace/data/a.txt", b"alpha\n")
    fs.symlink("data/a.txt", "/workspace/link")
    fs.write_bytes("/home/user/.bashrc", b"alias ll='ls -l'\n")
    fs.chmod("/workspace/data/a.txt", 0o600)
    count = magics.save_snapshot(fs, "snap.tar.gz", "/workspace")
    assert count >= 4
    with tarfile.open(fileobj=io.BytesIO(fs.read_bytes("/workspace/snap.tar.gz"))) as tar:
        names = tar.getnames()
    assert "workspace/data/a.txt" in names and "home/user/.bashrc" in names
    assert "workspace/snap.tar.gz" not in names
    fs.remove_tree("/workspace/data")
    fs.write_bytes("/workspace/later.txt", b"x")
    magics.load_snapshot(fs, "/workspace/snap.tar.gz", "/")
    assert fs.read_bytes("/workspace/data/a.txt") == b"alpha\n"
    assert fs.stat("/workspace/data/a.txt").st_mode & 0o777 == 0o600
    assert fs.readlink("/workspace/link") == "data/a.txt"
    assert not fs.exists("/workspace/later.txt")
    assert fs.exists("/workspace/snap.tar.gz")


def test_snapshot_errors():
    fs = Sandbox().fs
    with pytest.raises(magics.MagicError, match="must end in .tar"):
        magics.save_snapshot(fs, "snap.zip", "/workspace")
    fs.write_bytes("/workspace/bad.tar", b"not a tar at all" * 100)
    with pytest.raises(magics.MagicError, match="not a tar archive"):
        magics.load_snapshot(fs, "bad.tar", "/workspace")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("etc/passwd")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"x:x"))
    fs.write_bytes("/workspace/other.tar", buf.getvalue())
    with pytest.raises(magics.MagicError, match="not a snapshot"):
        magics.load_snapshot(fs, "other.tar", "/workspace")
    with pytest.raises(OSError):
        magics.load_snapshot(fs, "missing.tar", "/workspace")
