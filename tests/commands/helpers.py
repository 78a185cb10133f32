"""Run one registered command directly (no shell) for unit tests.

    out, err, status = run_cmd(["cat", "-n", "f"], fs=fs)

``fs`` defaults to a fresh sandbox VFS (see ``new_fs``); ``out``/``err`` are str
(utf-8, surrogateescape); use ``run_cmd_bytes`` for raw bytes. The other command test
helpers (datahelp, gnu_compare) run commands through ``run_direct`` here too.
"""
from __future__ import annotations

import asyncio

from sandbox_kernel.commands import registry
from sandbox_kernel.commands.registry import CommandCancelled
from sandbox_kernel.engine import CancelToken
from sandbox_kernel.streams import BufferOutput, BytesInput, InputStream, OutputStream
from sandbox_kernel.vfs import VFS, make_vfs

DEFAULT_ENV = {"HOME": "/home/user", "USER": "user", "PATH": "/usr/bin:/bin", "LC_ALL": "C",
               "TZ": "UTC", "PWD": "/workspace"}


def new_fs(max_bytes: int = 64 * 1024 * 1024, max_inodes: int = 10_000, seed: int = 1) -> VFS:
    return make_vfs(max_bytes, max_inodes, registry.names(), seed=seed)


class DirectRunner:
    """Stands in for the shell: ``ctx.run(argv)`` runs registered commands directly, and
    setting ``cancel`` interrupts them as an interrupt in the kernel would."""

    def __init__(self, fs: VFS, env: dict[str, str]) -> None:
        self.fs = fs
        self.env = env
        self.cancel = CancelToken()

    def check_cancel(self) -> None:
        if self.cancel.is_set():
            raise CommandCancelled(self.cancel.reason)

    async def checkpoint(self) -> None:
        self.check_cancel()
        await asyncio.sleep(0)

    async def run_argv(self, argv: list[str], stdin: InputStream, stdout: OutputStream,
                       stderr: OutputStream, env: dict[str, str] | None = None,
                       cwd: str = "/") -> int:
        spec = registry.lookup(argv[0])
        if spec is None:
            await stderr.write(f"{argv[0]}: command not found\n".encode())
            return 127
        ctx = registry.CommandContext(argv[0], list(argv[1:]), stdin, stdout, stderr, self.fs,
                                      cwd, dict(env if env is not None else self.env), shell=self)
        return await registry.invoke(spec, ctx)


def run_direct(argv: list[str], stdin: bytes, fs: VFS, cwd: str,
               env: dict[str, str]) -> tuple[bytes, bytes, int]:
    """Run one command with exactly this environment; (stdout, stderr, status)."""
    async def main():
        out, err = BufferOutput(), BufferOutput()
        status = await DirectRunner(fs, env).run_argv(list(argv), BytesInput(stdin), out, err, cwd=cwd)
        return out.getvalue(), err.getvalue(), status
    return asyncio.run(main())


def run_cmd_bytes(argv: list[str], stdin: bytes = b"", fs: VFS | None = None,
                  cwd: str = "/workspace", env: dict[str, str] | None = None) -> tuple[bytes, bytes, int]:
    fs = fs if fs is not None else new_fs()
    env = dict(DEFAULT_ENV if env is None else env)
    env.setdefault("PWD", cwd)
    return run_direct(argv, stdin, fs, cwd, env)


def run_cmd(argv: list[str], stdin: bytes | str = b"", fs: VFS | None = None,
            cwd: str = "/workspace", env: dict[str, str] | None = None) -> tuple[str, str, int]:
    if isinstance(stdin, str):
        stdin = stdin.encode()
    out, err, status = run_cmd_bytes(argv, stdin, fs, cwd, env)
    return (out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "surrogateescape"), status)
