"""Host directories mounted by the admin (--mount HOST:SANDBOX[:ro|rw]): copied in, written
back atomically for rw, never following host symlinks, never deleting what the sandbox did not
have, bounded by the VFS quota; and the papermill recipe through a real kernel."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.kernel.install import install
from sandbox_kernel.kernel.storage.mounts import HostMount
from sandbox_kernel.limits import Limits
from sandbox_kernel.policy import MountError, check_mounts, parse_mount
from sandbox_kernel.sandbox import Sandbox
from tests.support.kernelclient import execute, run_ok, start_kernel, notice_text, stream_text


@pytest.fixture
def host(tmp_path):
    top = tmp_path / "data"
    (top / "sub").mkdir(parents=True)
    (top / "a.csv").write_text("x,y\n1,2\n")
    (top / "sub" / "b.txt").write_text("bee\n")
    (top / "run.sh").write_text("echo hi\n")
    (top / "run.sh").chmod(0o755)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "canary").write_text("host secret\n")
    (top / "escape").symlink_to(outside)
    return top, outside


def mounted(top: Path, target="/workspace/data", rw=False, **limits) -> tuple[Sandbox, HostMount]:
    sb = Sandbox(Limits(**limits) if limits else None)
    mount = HostMount(parse_mount(f"{top}:{target}:{'rw' if rw else 'ro'}"), sb.fs)
    mount.copy_in()
    return sb, mount


def sh(sb: Sandbox, script: str) -> tuple[str, str, int]:
    import asyncio

    from sandbox_kernel.cli import _Collect, _run
    out, err = _Collect(), _Collect()
    status = asyncio.run(_run(script, sb, out, err, sb.limits))
    return bytes(out.buf).decode(), bytes(err.buf).decode(), status


@pytest.mark.parametrize("text, message", [
    ("/srv:data", "must be absolute"),
    ("/srv:/workspace/../etc", "normalised"),
    ("/srv:/workspace/a//b", "normalised"),
    ("/srv:/etc", "inside /workspace"),
    ("/srv:/usr/local", "inside /workspace"),
    ("/srv:/workspace", "inside /workspace"),
    ("/srv:/workspace/x:rx", "ro or rw"),
    ("/srv", "HOST_DIR:SANDBOX_DIR"),
    ("/srv:/workspace/a\0b", "NUL"),
    ("/srv:/workspace/a\nb", "control"),
])
def test_bad_mounts_are_refused(text, message):
    with pytest.raises(MountError, match=message):
        parse_mount(text)


def test_overlapping_mounts_are_refused():
    with pytest.raises(MountError, match="overlap"):
        check_mounts([parse_mount("/a:/workspace/d"), parse_mount("/b:/workspace/d/e")])


def test_read_only_mount(host):
    top, _ = host
    sb, _ = mounted(top)
    out, err, status = sh(sb, "cat /workspace/data/a.csv /workspace/data/sub/b.txt; "
                              "ls -l /workspace/data/run.sh | cut -c1-10;"
                              " echo new > /workspace/data/a.csv; echo status=$?")
    assert out == "x,y\n1,2\nbee\n-r-xr-xr-x\nstatus=1\n" and "Permission denied" in err
    assert (top / "a.csv").read_text() == "x,y\n1,2\n"


def test_read_write_mount_writes_back_atomically(host):
    top, _ = host
    sb, mount = mounted(top, rw=True)
    (top / "host_only.txt").write_text("made on the host after the start\n")
    sh(sb, "cd /workspace/data && echo changed > a.csv && mkdir -p out/deep && echo r > out/deep/result.txt"
           " && rm sub/b.txt && ln -s /etc/passwd link && mv run.sh renamed.sh")
    notes = mount.write_back()
    assert (top / "a.csv").read_text() == "changed\n"
    assert (top / "out" / "deep" / "result.txt").read_text() == "r\n"
    assert not (top / "sub" / "b.txt").exists() and (top / "sub").is_dir()
    assert (top / "renamed.sh").read_text() == "echo hi\n" and not (top / "run.sh").exists()
    assert os.access(top / "renamed.sh", os.X_OK)
    assert not (top / "link").exists() and any("symlink" in n for n in notes)
    assert (top / "host_only.txt").exists()  # never in the sandbox: never deleted
    assert not [p for p in top.rglob(".*sandbox-*")], "a temp file was left behind"
    assert mount.write_back() == []  # nothing changed since


def test_a_file_changed_on_the_host_is_not_deleted(host):
    top, _ = host
    sb, mount = mounted(top, rw=True)
    (top / "a.csv").write_text("edited on the host meanwhile\n")
    os.utime(top / "a.csv", (1, 1))
    sh(sb, "rm /workspace/data/a.csv")
    notes = mount.write_back()
    assert (top / "a.csv").read_text() == "edited on the host meanwhile\n"
    assert any("changed on the host" in n for n in notes), notes


def test_files_larger_than_the_quota_are_left_out_by_name_and_kept(host):
    """What fits is mounted; each file that does not is named in the notice (papermill's
    `--mount .` lost the whole folder for one large file) and write-back never replaces it."""
    top, _ = host
    (top / "big.bin").write_bytes(b"\0" * 300_000)
    (top / "sub" / "huge.bin").write_bytes(b"\1" * 250_000)
    sb = Sandbox(Limits(vfs_bytes=200_000))
    mount = HostMount(parse_mount(f"{top}:/workspace/data:rw"), sb.fs)
    note = mount.copy_in()
    assert "NOT MOUNTED" in note and "2 files" in note and "big.bin (300000B)" in note, note
    assert "sub/huge.bin" in note and "vfs_bytes" in note
    assert sh(sb, "cat /workspace/data/a.csv /workspace/data/sub/b.txt")[0] == "x,y\n1,2\nbee\n"
    assert not sb.fs.exists("/workspace/data/big.bin")
    # a file the sandbox makes at that name is not written over the host's
    out, err, status = sh(sb, "echo small > /workspace/data/big.bin; rm -r /workspace/data/sub")
    assert status == 0, err
    notes = mount.write_back()
    assert any("big.bin: not written" in n and "kept" in n for n in notes), notes
    assert (top / "big.bin").stat().st_size == 300_000
    assert (top / "sub" / "huge.bin").stat().st_size == 250_000  # its folder kept for it
    assert not (top / "sub" / "b.txt").exists()  # what the sandbox had is deleted as asked
    assert mount.write_back() == []  # said once


def test_kernel_mount_and_the_papermill_recipe(jupyter_kernels, tmp_path):
    """The admin's kernelspec mounts the kernel's working directory ('.', the notebook's folder
    for papermill --cwd / JupyterLab); a cell reads the inputs and writes results next to them."""
    install("sandbox-here", prefix=str(Path(jupyter_kernels).parents[1]),
            policy_argv=["--mount", ".:/workspace/here:rw"])
    work = tmp_path / "project"
    work.mkdir()
    (work / "input.csv").write_text("fruit,qty\napple,3\npear,4\n")
    with start_kernel("sandbox-here", cwd=str(work)) as (_, kc):
        reply, messages = execute(kc, "cd /workspace/here && awk -F, 'NR>1{s+=$2} END{print s}' input.csv > total.txt; "
                                      "cat total.txt")
        assert reply["status"] == "ok" and stream_text(messages) == "7\n"
        assert "mounted /workspace/here" in notice_text(messages)
        assert (work / "total.txt").read_text() == "7\n"  # written back after the cell
        assert run_ok(kc, "%%js\nconsole.log(fs.readFileSync('/workspace/here/input.csv', "
                          "'utf8').split('\\n')[1])") == "apple,3\n"
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("cd /workspace/here && wc -l < input.csv > lines.txt")])
    nb.metadata["kernelspec"] = {"name": "sandbox-here", "display_name": "Sandbox", "language": "bash"}
    nbformat.write(nb, tmp_path / "in.ipynb")
    done = subprocess.run([sys.executable, "-m", "papermill", "-k", "sandbox-here", str(tmp_path / "in.ipynb"),
                           str(tmp_path / "out.ipynb"), "--cwd", str(work)], capture_output=True, text=True,
                           timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (work / "lines.txt").read_text() == "3\n"
    assert json.loads((tmp_path / "out.ipynb").read_text())["cells"][0]["outputs"] is not None


def test_kernel_load_keeps_a_read_write_mount_on_the_host(jupyter_kernels, tmp_path):
    """Red team: %load of a snapshot without the rw mount's folder deleted the host's files
    and removed the mount. Through a real kernel: the host files survive a snapshot lacking
    the folder and one with other files there; %save leaves the mount out."""
    host = tmp_path / "results"
    (host / "sub").mkdir(parents=True)
    (host / "keep.csv").write_text("host data\n")
    (host / "sub" / "deep.txt").write_text("deep\n")
    install("sandbox-rw-load", prefix=str(Path(jupyter_kernels).parents[1]),
            policy_argv=["--mount", f"{host}:/workspace/results:rw"])
    with start_kernel("sandbox-rw-load", cwd=str(tmp_path)) as (_, kc):
        run_ok(kc, "mkdir -p /tmp/a/workspace /tmp/b/workspace/results && echo a > /tmp/a/workspace/other.txt"
                   " && tar -cf /tmp/lacking.tar -C /tmp/a workspace && echo evil > /tmp/b/workspace/results/keep.csv"
                   " && echo b > /tmp/b/workspace/other.txt"
                   " && echo new > /tmp/b/workspace/results/new.txt && tar -cf /tmp/other.tar -C /tmp/b workspace")
        reply, messages = execute(kc, "%load /tmp/lacking.tar\ncat /workspace/results/keep.csv /workspace/other.txt")
        assert reply["status"] == "ok" and stream_text(messages) == "restored 1 entries from /tmp/lacking.tar\n" \
            "host data\na\n", messages
        reply, messages = execute(kc, "%load /tmp/other.tar\ncat /workspace/other.txt /workspace/results/keep.csv; "
                                      "ls -1 /workspace/results")
        assert stream_text(messages) == "restored 1 entries from /tmp/other.tar\nb\nhost data\nkeep.csv\nsub\n", \
            messages
        assert "the snapshot's entries there were skipped" in stream_text(messages, "stderr")
        listing = run_ok(kc, "%save /tmp/mine.tar\ntar -tf /tmp/mine.tar | grep '^workspace/'")
        assert listing.endswith("\nworkspace/other.txt\n") and "workspace/results" not in listing, listing
        assert (host / "keep.csv").read_text() == "host data\n" and (host / "sub" / "deep.txt").read_text() == "deep\n"
        assert not (host / "new.txt").exists()
    assert sorted(p.name for p in host.rglob("*")) == ["deep.txt", "keep.csv", "sub"]


def test_mounts_come_only_from_the_admin():
    from sandbox_kernel.kernel.protocol import magics

    with pytest.raises(magics.MagicError, match="unknown line magic"):
        magics.parse_cell("%mount /etc:/workspace/etc")
    out, err, status = run_script("mount --bind /etc /workspace/x")
    assert status == 127 and "command not found" in err.decode()
