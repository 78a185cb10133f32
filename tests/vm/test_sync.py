"""/workspace sync between the sandbox VFS and the guest, and the `vm` shell command."""
from __future__ import annotations

import asyncio
import hashlib
import os
import time

import pytest

from sandbox_kernel.commands.registry import CommandContext, invoke, lookup
from sandbox_kernel.streams import BufferOutput, BytesInput, EmptyInput

from .vm_helpers import Recorder, run_cell, with_sandbox

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def test_round_trip_shell_to_vm_to_shell(guest_image):
    async def body(sb):
        fs = sb.fs
        fs.write_bytes("/workspace/data.csv", b"a,1\nb,2\n")
        fs.mkdir("/workspace/sub/deep", parents=True)
        fs.write_bytes("/workspace/sub/deep/keep.txt", b"keep")
        fs.write_bytes("/workspace/gone.txt", b"bye")
        fs.symlink("data.csv", "/workspace/link")
        run = await run_cell(sb, "cat link | awk -F, '{s+=$2} END {print s}' > sum.txt; "
                                 "rm gone.txt; mkdir -p made/here; echo new > made/here/n.txt; "
                                 "chmod 755 made/here/n.txt; cat sub/deep/keep.txt")
        assert run.status == 0, run.err.text
        assert run.out.text == "keep"
        assert fs.read_bytes("/workspace/sum.txt") == b"3\n"
        assert not fs.exists("/workspace/gone.txt")
        assert fs.read_bytes("/workspace/made/here/n.txt") == b"new\n"
        assert fs.stat("/workspace/made/here/n.txt").st_mode & 0o777 == 0o755
        # changes in the sandbox between cells reach the guest, deletions too
        fs.write_bytes("/workspace/sum.txt", b"changed by the shell\n")
        fs.remove_tree("/workspace/made")
        run = await run_cell(sb, "cat sum.txt; ls")
        assert run.out.text.splitlines() == ["changed by the shell", "data.csv", "link", "sub", "sum.txt"]
        # unchanged files are not copied again (mtime survives the round trip)
        before = fs.stat("/workspace/data.csv").st_mtime
        await run_cell(sb, "true")
        assert fs.stat("/workspace/data.csv").st_mtime == before
    with_sandbox(body)


def test_large_file_both_ways(guest_image):
    async def body(sb):
        blob = os.urandom(50 * 1024 * 1024)
        sb.fs.write_bytes("/workspace/big.bin", blob)
        started = time.monotonic()
        run = await run_cell(sb, "sha256sum big.bin | cut -d' ' -f1; tac big.bin > big.rev", wall_time=120)
        took = time.monotonic() - started
        assert run.status == 0, run.err.text
        assert run.out.text.strip() == hashlib.sha256(blob).hexdigest()
        back = sb.fs.read_bytes("/workspace/big.rev")
        assert len(back) == len(blob)
        print(f"50 MB in, tac, 50 MB back: {took:.1f} s")
    with_sandbox(body)


def test_quota_overflow_is_reported(guest_image):
    async def body(sb):
        kib = sb.fs.bytes_used // 1024 + 200
        sb.fs.max_bytes = kib * 1024
        run = await run_cell(sb, "head -c 500000 /dev/zero > too-big.bin; echo small > ok.txt")
        assert run.status == 0
        assert "too-big.bin: not copied back: quota" in run.err.text
        # one notice at the end of the cell: the limit, and how to raise it
        assert run.err.text.endswith(f"[sandbox: no space left: the sandbox's files may take {kib}K "
                                     f"(limit vfs_bytes; raise it with %limits vfs_bytes={2 * kib}K)]\n")
        assert not sb.fs.exists("/workspace/too-big.bin")
        assert sb.fs.read_bytes("/workspace/ok.txt") == b"small\n"
    with_sandbox(body)


def test_conflict_keeps_the_sandbox_version(guest_image):
    async def body(sb):
        sb.fs.write_bytes("/workspace/c.txt", b"v1\n")
        await run_cell(sb, "true")
        engine = sb.engine("vm")
        # the guest changes the file while the sandbox changes it too (e.g. a pipeline writer)

        class WriteInSandboxMeanwhile(Recorder):
            def write(self, data: bytes) -> None:
                super().write(data)
                if b"written" in data:
                    sb.fs.write_bytes("/workspace/c.txt", b"sandbox\n")
        run = await run_cell(sb, "echo guest > c.txt; echo written; sleep 0.5", out=WriteInSandboxMeanwhile())
        assert "changed both in the VM and in the sandbox" in run.err.text
        assert sb.fs.read_bytes("/workspace/c.txt") == b"sandbox\n"
        run = await run_cell(sb, "cat c.txt")
        assert run.out.text == "sandbox\n"
        assert engine.running
    with_sandbox(body)


async def _vm_command(sb, args, stdin=b""):
    out, err = BufferOutput(), BufferOutput()
    ctx = CommandContext("vm", args, BytesInput(stdin) if stdin else EmptyInput(), out, err,
                         sb.fs, "/workspace", {}, sandbox=sb)
    status = await invoke(lookup("vm"), ctx)
    return status, out.getvalue(), err.getvalue()


def test_vm_command_with_pipeline_streams(guest_image):
    async def body(sb):
        data = b"".join(b"%d\n" % i for i in range(100_000))
        status, out, err = await _vm_command(sb, ["python3", "-c", "import sys; print(sum(map(int, sys.stdin)))"], data)
        assert status == 0, err
        assert out == b"%d\n" % sum(range(100_000))
        status, out, err = await _vm_command(sb, ["sh", "-c", "echo oops >&2; exit 4"])
        assert (status, out, err) == (4, b"", b"oops\n")
        sb.fs.write_bytes("/workspace/in.txt", b"from the shell\n")
        status, out, _ = await _vm_command(sb, ["sh", "-c", "tr a-z A-Z < in.txt | tee out.txt"])
        assert out == b"FROM THE SHELL\n" and sb.fs.read_bytes("/workspace/out.txt") == out
        status, _, err = await _vm_command(sb, [])
        assert status == 2 and b"missing command" in err
        status, out, _ = await _vm_command(sb, ["--help"])
        assert status == 0 and out.startswith(b"Usage: vm [--root | --user] [--keep] COMMAND")
        status, _, err = await _vm_command(sb, ["no-such-cmd"])
        assert status == 127 and b"No such file" in err
    with_sandbox(body)


def test_magic_commands(guest_image):
    async def body(sb):
        engine = sb.engine("vm")
        engine.save_states = False  # no saved state for this one-off configuration
        assert "not running" in await engine.magic("status")
        for setting, refusal in (("memory=5", "memory must be"), ("network=allow:bad_host!", "invalid host")):
            with pytest.raises(ValueError, match=refusal):  # a refused setting fails the cell
                await engine.magic(f"config {setting}")
        assert (await engine.magic("config vcpus=2 memory=384")
                == "vcpus=2 memory=384 user=user daemons=off sudo=off network=none")
        text = await engine.magic("start")
        assert "ready in" in text
        status = await engine.magic("status")
        assert "vcpus: 2" in status and "memory: 384 MB" in status and "accelerator:" in status
        run = await run_cell(sb, "nproc")
        assert run.out.text == "2\n"
        with pytest.raises(ValueError, match="stop the VM first"):
            await engine.magic("config memory=512")
        assert await engine.magic("stop") == "vm: stopped"
        assert await engine.magic("stop") == "vm: not running"
        assert "unknown subcommand" in await engine.magic("bogus")
    with_sandbox(body)


class _CancellableShell:
    """Stands in for the shell: ``ctx.check()`` raises once the run is cancelled."""

    def __init__(self) -> None:
        self.cancelled = False

    def check_cancel(self) -> None:
        from sandbox_kernel.commands.registry import CommandCancelled
        if self.cancelled:
            raise CommandCancelled()


class _ClosingOutput(BufferOutput):
    """A pipe whose reader goes away after the first chunk (like `| head -c 10`)."""

    async def write(self, data: bytes) -> None:
        if self.buf:
            raise BrokenPipeError(32, "Broken pipe")
        await super().write(data)


def test_vm_command_interrupt_and_broken_pipe(guest_image):
    from sandbox_kernel.commands.registry import CommandCancelled

    async def body(sb):
        shell = _CancellableShell()
        ctx = CommandContext("vm", ["sleep", "30"], EmptyInput(), BufferOutput(), BufferOutput(),
                             sb.fs, "/workspace", {}, shell=shell, sandbox=sb)
        asyncio.get_running_loop().call_later(1.0, setattr, shell, "cancelled", True)
        started = time.monotonic()
        with pytest.raises(CommandCancelled):
            await invoke(lookup("vm"), ctx)
        assert time.monotonic() - started < 6
        ctx = CommandContext("vm", ["yes"], EmptyInput(), _ClosingOutput(), BufferOutput(),
                             sb.fs, "/workspace", {}, sandbox=sb)
        with pytest.raises(BrokenPipeError):
            await invoke(lookup("vm"), ctx)
        status, out, _ = await _vm_command(sb, ["sh", "-c", "sleep 0.3; pgrep -x 'yes|sleep' || echo none"])
        assert out == b"none\n"
    with_sandbox(body)


def test_unreadable_sandbox_entries_are_neither_copied_nor_deleted(guest_image):
    async def body(sb):
        fs = sb.fs
        fs.mkdir("/workspace/locked")
        fs.write_bytes("/workspace/locked/secret", b"s")
        fs.chmod("/workspace/locked", 0)
        run = await run_cell(sb, "ls -A locked | wc -l; echo hi > locked/new")
        assert run.out.text == "0\n"
        assert "locked/new: not copied back" in run.err.text
        fs.chmod("/workspace/locked", 0o755)
        assert fs.read_bytes("/workspace/locked/secret") == b"s"
    with_sandbox(body)


def test_guest_paths_too_long_for_the_sandbox_are_named(guest_image):
    """A file at a 5,000-byte path in the guest (the VFS holds 4096): the agent lists the
    directory past the limit and the sync names it; everything else comes back."""
    async def body(sb):
        run = await run_cell(sb, "d=$(printf 'd%.0s' $(seq 200)); for i in $(seq 25); do mkdir $d && cd $d; done; "
                                 "echo deep > file.txt; cd /workspace; echo ok > ok.txt")
        assert run.status == 0, run.err.text
        assert sb.fs.read_bytes("/workspace/ok.txt") == b"ok\n"
        notes = [line for line in run.err.text.splitlines() if "path longer than 4096 bytes" in line]
        assert len(notes) == 1 and "it and what is under it were not copied back" in notes[0], run.err.text
        again = await run_cell(sb, "true")
        assert "path longer than" not in again.err.text  # told once
    with_sandbox(body)
