"""Running data/system commands directly through the registry, for unit tests.

A tiny stand-in shell gives ``ctx.run`` (env, timeout, time) and cancellation without needing
the real interpreter.
"""
from __future__ import annotations

import asyncio

from sandbox_kernel.commands import invoke, lookup
from sandbox_kernel.commands.registry import CommandCancelled, CommandContext
from sandbox_kernel.engine import CancelToken
from sandbox_kernel.streams import BufferOutput, BytesInput
from sandbox_kernel.vfs import make_vfs
from sandbox_kernel.commands import names

DEFAULT_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/user", "USER": "user", "TZ": "UTC",
               "LC_ALL": "C"}


class MiniShell:
    """Just enough of the interpreter for commands that run other commands."""

    def __init__(self, fs, env):
        self.fs = fs
        self.env = env
        self.cancel = CancelToken()

    def check_cancel(self):
        if self.cancel.is_set():
            raise CommandCancelled(self.cancel.reason)

    async def checkpoint(self):
        self.check_cancel()
        await asyncio.sleep(0)

    async def run_argv(self, argv, stdin, stdout, stderr, env=None, cwd="/workspace"):
        spec = lookup(argv[0])
        if spec is None:
            await stderr.write(f"{argv[0]}: command not found\n".encode())
            return 127
        ctx = CommandContext(argv[0], list(argv[1:]), stdin, stdout, stderr, self.fs, cwd,
                             dict(self.env if env is None else env), shell=self)
        return await invoke(spec, ctx)


def new_fs():
    return make_vfs(64 * 1024 * 1024, 10000, names())


def run_cmd(argv, stdin=b"", fs=None, cwd="/workspace", env=None):
    """Run one command; returns (stdout bytes, stderr bytes, status)."""
    fs = fs or new_fs()
    shell = MiniShell(fs, dict(DEFAULT_ENV if env is None else env))
    out, err = BufferOutput(), BufferOutput()

    async def main():
        return await shell.run_argv(list(argv), BytesInput(stdin), out, err, cwd=cwd)

    status = asyncio.run(main())
    return out.getvalue(), err.getvalue(), status
