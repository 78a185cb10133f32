"""``python -m sandbox_kernel sh``: run a shell script in a fresh sandbox, and ``run_script``
for tests (same thing in-process, returning the outputs)."""
from __future__ import annotations

import os
import sys
import threading

from . import aio
from .engine import CancelToken, Streams
from .limits import DEFAULT_CEILINGS, CliLimits, Limits, check_ceiling
from .sandbox import Sandbox
from .streams import BytesInput, InputStream

USAGE = "usage: python -m sandbox_kernel sh [--limit NAME=VALUE]... [-c SCRIPT [NAME [ARGS...]] | FILE [ARGS...]]"


def help_text() -> str:
    """``sh --help``: the usage, the --limit option and each limit with its default and ceiling."""
    limits = CliLimits()
    rows = "\n".join(f"  {name:20} {limits.shown(name):>10}  {DEFAULT_CEILINGS.shown(name):>12}"
                     for name in Limits.field_names())
    return (f"{USAGE}\n\n"
            "Runs a bash script in a fresh sandbox: -c SCRIPT, the script in FILE, or stdin.\n\n"
            "options:\n"
            "  --limit NAME=VALUE   set a limit of this run, lower or higher up to its ceiling\n"
            "                       (repeatable; sizes 64K 4M 1G, durations 90, 90s, 10m, 2h), e.g.\n"
            "                       --limit wall_time=120 --limit vfs_bytes=1G\n"
            "  -h, --help           show this help\n\n"
            f"  {'limit':20} {'default':>10}  {'ceiling':>12}\n{rows}\n\n"
            "A limit's message says which --limit raises it.")


def parse_limit_options(args: list[str]) -> tuple[CliLimits, list[str]]:
    """The leading ``--limit NAME=VALUE`` (or ``--limit=NAME=VALUE``) options, parsed like
    the kernel's ``%limits`` and held to the same ceilings, and the arguments after them (a
    ``--`` ends the options). Raises ValueError."""
    limits = CliLimits()
    args = list(args)
    while args and (args[0] == "--limit" or args[0].startswith("--limit=")):
        if args[0] == "--limit":
            if len(args) < 2:
                raise ValueError("--limit: option requires an argument")
            item, args = args[1], args[2:]
        else:
            item, args = args[0][len("--limit="):], args[1:]
        name, eq, value = item.partition("=")
        if not eq or not value:
            raise ValueError(f"--limit {item}: expected NAME=VALUE (e.g. --limit wall_time=120)")
        limits.set_from_text(name, value)
        check_ceiling(limits, DEFAULT_CEILINGS, name)
    if args[:1] == ["--"]:
        args = args[1:]
    return limits, args


class _Collect:
    def __init__(self) -> None:
        self.buf = bytearray()

    def write(self, data: bytes) -> None:
        self.buf += data


class _HostWriter:
    """Writes straight to a host file descriptor (the process's stdout/stderr)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.broken = False
        self.screen = "terminal" if os.isatty(fd) else None

    def write(self, data: bytes) -> None:
        if self.broken:
            return
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except BrokenPipeError:
                self.broken = True
                return
            except InterruptedError:
                continue
            except OSError:
                self.broken = True
                return
            view = view[n:]


class HostStdin(InputStream):
    """The process's stdin, read by a daemon thread so the event loop never blocks."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd

    async def read_chunk(self) -> bytes:
        await aio.need_loop()
        import asyncio  # with the loop (aio.py)

        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def reader() -> None:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            loop.call_soon_threadsafe(lambda: None if future.done() else future.set_result(data))

        threading.Thread(target=reader, daemon=True).start()
        return await future


def _make_sandbox(limits: Limits | None, arg0: str, args: list[str], stdin: InputStream,
                  mode: str = "command"):
    sandbox = Sandbox(limits or CliLimits())
    from .shell.engine import ShellEngine
    engine = ShellEngine(sandbox, interactive=False)
    engine.configure_script(arg0, args, mode)
    engine.next_stdin = stdin
    sandbox.engines["sh"] = engine
    return sandbox


async def _run(script: str, sandbox: Sandbox, out, err, limits: Limits | None) -> int:
    streams = Streams(out, err, CancelToken())
    try:
        result = await sandbox.run("sh", script, streams, limits or sandbox.limits)
    finally:
        await sandbox.shutdown()
    return result.status


def run_script(script: str, stdin: bytes = b"", limits: Limits | None = None,
               args: list[str] | None = None, arg0: str = "bash") -> tuple[bytes, bytes, int]:
    """Run ``script`` in a fresh sandbox in-process; returns (stdout, stderr, status).
    Without ``limits``, the CLI's (whose messages name ``--limit``)."""
    out, err = _Collect(), _Collect()
    sandbox = _make_sandbox(limits, arg0, args or [], BytesInput(stdin))
    status = aio.run(_run(script, sandbox, out, err, limits))
    return bytes(out.buf), bytes(err.buf), status


def sh_main(argv: list[str]) -> int:
    args = list(argv)
    mode = "command"
    if any(a in ("-h", "--help") for a in _leading_options(args)):
        print(help_text())
        return 0
    try:
        limits, args = parse_limit_options(args)
    except ValueError as e:
        print(f"sh: {e}\n{USAGE}", file=sys.stderr)
        return 2
    if args and args[0] == "-c":
        if len(args) < 2:
            print("sh: -c: option requires an argument\n" + USAGE, file=sys.stderr)
            return 2
        script = args[1]
        arg0 = args[2] if len(args) > 2 else "bash"
        rest = args[3:]
        stdin_stream: InputStream = HostStdin()
    elif args:
        path = args[0]
        try:
            with open(path, "rb") as f:
                script = f.read().decode("utf-8", "surrogateescape")
        except OSError as e:
            print(f"sh: {path}: {e.strerror}", file=sys.stderr)
            return 127
        arg0, rest = path, args[1:]
        stdin_stream = HostStdin()
        mode = "file"
    else:
        script = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
        arg0, rest = "bash", []
        stdin_stream = BytesInput(b"")
        mode = "stdin"
    sys.stdout.flush()
    sandbox = _make_sandbox(limits, arg0, rest, stdin_stream, mode)
    status = aio.run(_run(script, sandbox, _HostWriter(1), _HostWriter(2), None))
    return status


def _leading_options(args: list[str]) -> list[str]:
    """The options before the script (-c, FILE or --): where -h/--help counts."""
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] not in ("-c", "--"):
        i += 2 if args[i] == "--limit" else 1
    return args[:i]


__all__ = ["run_script", "sh_main"]
