"""Who runs in the guest: the unprivileged `user` (uid 1000, owner of /workspace) by default,
root on request; sudo only when enabled; the workspace sync acts as the user both ways."""
from __future__ import annotations

import asyncio

import pytest

from sandbox_kernel.commands.registry import CommandContext, invoke, lookup
from sandbox_kernel.streams import BufferOutput, EmptyInput

from .vm_helpers import run_cell, with_sandbox

pytestmark = [pytest.mark.vm, pytest.mark.slow]

WHO = "id -u; id -un; echo $HOME $USER"


async def _vm_command(sb, args):
    out, err = BufferOutput(), BufferOutput()
    ctx = CommandContext("vm", args, EmptyInput(), out, err, sb.fs, "/workspace", {}, sandbox=sb)
    status = await invoke(lookup("vm"), ctx)
    return status, out.getvalue().decode(), err.getvalue().decode()


def test_cells_run_as_user_unless_they_ask_for_root(guest_image):
    async def body(sb):
        run = await run_cell(sb, WHO + "; stat -c '%U %a' /workspace /home/user; "
                                       "touch /etc/x 2>/dev/null || echo denied; "
                                       "cat /root/.x 2>/dev/null || echo private")
        assert run.status == 0, run.err.text
        assert run.out.text.splitlines() == ["1000", "user", "/home/user user", "user 755", "user 755",
                                             "denied", "private"]
        run = await run_cell(sb, WHO, args=["--root"])
        assert run.out.text.splitlines() == ["0", "root", "/root root"]
        engine = sb.engine("vm")
        assert "user=root" in await engine.magic("config user=root")
        assert (await run_cell(sb, "id -u")).out.text == "0\n"
        assert (await run_cell(sb, "id -u", args=["--user"])).out.text == "1000\n"
        with pytest.raises(ValueError, match="user must be"):  # a refused setting fails the cell
            await engine.magic("config user=bob")
        await engine.magic("config user=user")
        assert (await run_cell(sb, "id -u")).out.text == "1000\n"
        # the vm command takes the same options
        assert await _vm_command(sb, ["id", "-u"]) == (0, "1000\n", "")
        assert await _vm_command(sb, ["--root", "id", "-u"]) == (0, "0\n", "")
        status, _, err = await _vm_command(sb, ["--rot", "id"])
        assert status == 2 and "unknown option '--rot'" in err
        run = await run_cell(sb, "true", args=["--bogus"])
        assert run.status == 2 and "unknown option '--bogus'" in run.err.text
    with_sandbox(body)


def test_sudo_is_absent_unless_enabled(guest_image):
    async def body(sb):
        engine = sb.engine("vm")
        run = await run_cell(sb, "command -v sudo || echo none")
        assert run.out.text == "none\n"
        assert "sudo=on" in await engine.magic("config sudo=on")
        run = await run_cell(sb, "sudo id -u; id -u; sudo -i true; echo $?")
        assert run.out.text.splitlines() == ["0", "1000", "1"], run.err.text
        assert "option '-i' is not supported" in run.err.text
        await engine.magic("restart")  # a new VM gets it again
        assert (await run_cell(sb, "sudo id -u")).out.text == "0\n"
        assert "sudo=off" in await engine.magic("config sudo=off")
        assert (await run_cell(sb, "command -v sudo || echo none")).out.text == "none\n"
    with_sandbox(body)


def test_sync_keeps_ownership_sane_both_ways(guest_image):
    async def body(sb):
        fs = sb.fs
        fs.write_bytes("/workspace/in.txt", b"from the sandbox\n")
        fs.mkdir("/workspace/sub")
        # what the sandbox gives the guest belongs to the user there, and the user may change it
        run = await run_cell(sb, "stat -c '%U:%G' in.txt sub; echo more >> in.txt; touch sub/new")
        assert run.status == 0, run.err.text
        assert run.out.text.splitlines() == ["user:user", "user:user"]
        assert fs.read_bytes("/workspace/in.txt") == b"from the sandbox\nmore\n"
        # what root makes comes back when the user can read it, owned by the sandbox user
        run = await run_cell(sb, "echo r > byroot.txt; mkdir rootdir; echo s > rootdir/f; "
                                 "echo p > private.txt; chmod 600 private.txt", args=["--root"])
        assert run.status == 0, run.err.text
        assert fs.read_bytes("/workspace/byroot.txt") == b"r\n" and fs.read_bytes("/workspace/rootdir/f") == b"s\n"
        assert fs.stat("/workspace/byroot.txt").st_uid == 1000
        assert "/workspace/private.txt: not copied back: Permission denied" in run.err.text
        assert not fs.exists("/workspace/private.txt")
        # a directory root made private is not mistaken for an emptied one
        run = await run_cell(sb, "chown root:root sub; chmod 700 sub", args=["--root"])
        assert "/workspace/sub: cannot be listed in the VM (Permission denied)" in run.err.text
        assert fs.exists("/workspace/sub/new")
    with_sandbox(body)


def test_a_symlink_planted_in_the_guest_does_not_make_the_sync_write_as_root(guest_image):
    async def body(sb):
        sb.fs.write_bytes("/workspace/f", b"data\n")
        await run_cell(sb, "cat f > /dev/null")
        # a daemon swaps f for a link to /etc/passwd after the sync; then the sandbox changes f
        run = await run_cell(sb, "(sleep 1; rm f; ln -s /etc/passwd f) > /dev/null 2>&1 & echo armed", args=["--keep"])
        assert run.out.text == "armed\n"
        await asyncio.sleep(2)
        sb.fs.write_bytes("/workspace/f", b"root::0:0::/root:/bin/bash\n")
        run = await run_cell(sb, "head -1 /etc/passwd", args=["--root"])
        assert run.out.text == "root:x:0:0:root:/root:/bin/bash\n"
        assert "/workspace/f" in run.err.text and "Permission denied" in run.err.text
    with_sandbox(body)
