"""The command tests' one runner: a registered command run directly (no shell), and the same
command run as the real GNU tool to compare with.

    out, err, status = run_cmd(["cat", "-n", "f"], fs=fs)        # str (utf-8, surrogateescape)
    out, err, status = run_cmd_bytes(["od", "-c"], stdin=b"...")  # bytes
    assert_like_gnu(["sort", "-k2"], {"f": "b 2\na 1\n"})         # GNU's output, ours alike

``fs`` defaults to a fresh sandbox VFS (see ``new_fs``); ``env`` to DEFAULT_ENV (PWD the cwd),
else exactly the environment given.
"""
from __future__ import annotations

import asyncio
import subprocess
import tempfile
from pathlib import Path

from sandbox_kernel.commands import registry
from sandbox_kernel.commands.registry import CommandCancelled
from sandbox_kernel.engine import CancelToken
from sandbox_kernel.streams import BufferOutput, BytesInput, InputStream, OutputStream
from sandbox_kernel.vfs import VFS, make_vfs

DEFAULT_ENV = {"HOME": "/home/user", "USER": "user", "PATH": "/usr/bin:/bin", "LC_ALL": "C",
               "TZ": "UTC", "PWD": "/workspace"}


def new_fs(max_bytes: int = 64 * 1024 * 1024, max_inodes: int = 10_000, seed: int = 1) -> VFS:
    return make_vfs(max_bytes, max_inodes, registry.names(), seed=seed)


def links_fs() -> VFS:
    """A file, a directory and symlinks to it, to nowhere and in a loop, in /workspace (the path,
    stat, permission and disk-usage commands' tests)."""
    fs = new_fs()
    fs.write_bytes("/workspace/f", b"hello")
    fs.symlink("f", "/workspace/l")
    fs.symlink("nope", "/workspace/dang")
    fs.symlink("loop1", "/workspace/loop2")
    fs.symlink("loop2", "/workspace/loop1")
    fs.mkdir("/workspace/d")
    return fs


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
    env = {**DEFAULT_ENV, "PWD": cwd} if env is None else dict(env)
    return run_direct(argv, stdin, fs, cwd, env)


def run_cmd(argv: list[str], stdin: bytes | str = b"", fs: VFS | None = None,
            cwd: str = "/workspace", env: dict[str, str] | None = None) -> tuple[str, str, int]:
    if isinstance(stdin, str):
        stdin = stdin.encode()
    out, err, status = run_cmd_bytes(argv, stdin, fs, cwd, env)
    return (out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "surrogateescape"), status)


def random_edits(rng, lines: list, pool: list, edits: int) -> list:
    """A copy of ``lines`` after ``edits`` random deletions, insertions and replacements
    (new lines drawn from ``pool``), for the diff and patch round trips."""
    out = list(lines)
    for _ in range(edits):
        r = rng.random()
        if r < 0.3 and out:
            del out[rng.randrange(len(out))]
        elif r < 0.6:
            out.insert(rng.randint(0, len(out)), rng.choice(pool))
        elif out:
            out[rng.randrange(len(out))] = rng.choice(pool)
    return out


# ----------------------------------------------------------------------------- against GNU

GNU_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/tmp", "TZ": "UTC"}


def run_gnu(argv: list[str], files: dict[str, bytes] | None = None, stdin: bytes = b"",
            env: dict[str, str] | None = None) -> tuple[bytes, bytes, int, dict[str, bytes]]:
    with tempfile.TemporaryDirectory(prefix="gnucmp-") as tmp:
        root = Path(tmp)
        for name, data in (files or {}).items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        proc = subprocess.run(argv, cwd=tmp, input=stdin, capture_output=True,
                              env=GNU_ENV if env is None else env, timeout=30)
        after = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
        return proc.stdout, proc.stderr, proc.returncode, after


def run_ours(argv: list[str], files: dict[str, bytes] | None = None,
             stdin: bytes = b"") -> tuple[bytes, bytes, int, dict[str, bytes]]:
    fs = new_fs()
    for name, data in (files or {}).items():
        path = "/workspace/" + name
        parent = path.rsplit("/", 1)[0]
        fs.mkdir(parent, parents=True, exist_ok=True)
        fs.write_bytes(path, data)
    out, err, status = run_cmd_bytes(argv, stdin, fs=fs)
    after = {}
    for top, _dirs, names in fs.walk("/workspace"):
        for n in names:
            full = top.rstrip("/") + "/" + n
            if fs.is_file(full):
                after[full[len("/workspace/"):]] = fs.read_bytes(full)
    return out, err, status, after


def assert_like_gnu(argv: list[str], files: dict[str, bytes | str] | None = None,
                    stdin: bytes | str = b"", check_files: bool = False, check_stderr: bool = False,
                    sort_lines: bool = False) -> bytes:
    files = {k: (v.encode() if isinstance(v, str) else v) for k, v in (files or {}).items()}
    if isinstance(stdin, str):
        stdin = stdin.encode()
    want = run_gnu(argv, files, stdin)
    got = run_ours(argv, files, stdin)
    if sort_lines:
        want = (b"".join(sorted(want[0].splitlines(True))),) + want[1:]
        got = (b"".join(sorted(got[0].splitlines(True))),) + got[1:]
    detail = f"\nargv={argv!r}\nGNU: {want[:3]!r}\nours: {got[:3]!r}"
    assert got[0] == want[0], "stdout differs" + detail
    assert got[2] == want[2], "status differs" + detail
    assert bool(got[1]) == bool(want[1]), "stderr emptiness differs" + detail
    if check_stderr:
        assert got[1] == want[1], "stderr differs" + detail
    if check_files:
        assert got[3] == want[3], f"files differ\nGNU: {want[3]!r}\nours: {got[3]!r}" + detail
    return got[0]
