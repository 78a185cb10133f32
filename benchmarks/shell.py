"""Shell engine: the corpus against real bash, bashkit and just-bash; coreutils pipelines
against GNU on tmpfs."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .harness import Report, Row, geomean, measure_pair

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.sh"))
BASH_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/tmp"}


def _bash_runner(script: str):
    def run():
        with tempfile.TemporaryDirectory(prefix="bench-", dir=_tmpfs()) as tmp:
            subprocess.run(["bash", "-c", script], cwd=tmp, env=BASH_ENV, capture_output=True, check=False)
    return run


def _ours_inproc(script: str):
    from sandbox_kernel.cli import run_script

    return lambda: run_script(script)


def _ours_cli(script: str):
    return lambda: subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", "-c", script],
                                  capture_output=True, check=False)


def _bashkit_shell():
    import bashkit

    # its defaults stop a script at 10 000 commands or loop iterations (an error, early): a
    # third of the corpus would be timed doing less work than the others
    return bashkit.Bash(max_commands=10**9, max_loop_iterations=10**9, timeout_seconds=600)


def _bashkit(script: str):
    return lambda: _bashkit_shell().execute_sync(script)


def _just_bash(script: str):
    import just_bash

    return lambda: asyncio.run(just_bash.Bash().exec(script))


def _outputs(script: str) -> dict[str, tuple[bytes, int] | None]:
    """What bash and each peer print (stdout, status) for ``script``: a peer whose output
    differs from bash's did other work, and its time is not compared."""
    from sandbox_kernel.cli import run_script

    with tempfile.TemporaryDirectory(prefix="bench-", dir=_tmpfs()) as tmp:
        bash = subprocess.run(["bash", "-c", script], cwd=tmp, env=BASH_ENV, capture_output=True, check=False)
    out: dict[str, tuple[bytes, int] | None] = {"bash": (bash.stdout, bash.returncode)}
    stdout, _, status = run_script(script)
    out["ours"] = (stdout, status)
    try:
        r = _bashkit_shell().execute_sync(script)
        out["bashkit"] = (r.stdout.encode(), r.exit_code)
    except Exception:  # noqa: BLE001 - a peer that cannot run is reported by the caller
        out["bashkit"] = None
    try:
        import just_bash

        r = asyncio.run(just_bash.Bash().exec(script))
        out["just-bash"] = (r.stdout.encode(), r.exit_code)
    except Exception:  # noqa: BLE001
        out["just-bash"] = None
    return out


class _DevNull:
    def write(self, data: bytes) -> None:
        pass


_LOOP = asyncio.new_event_loop()


def run_in_sandbox(sandbox, script: str):
    """Run a script in an existing sandbox (state and files kept) on one persistent loop."""
    from sandbox_kernel.engine import CancelToken, Streams

    sink = _DevNull()
    return _LOOP.run_until_complete(sandbox.run("sh", script, Streams(sink, sink, CancelToken())))


def _tmpfs() -> str | None:
    return "/dev/shm" if os.path.isdir("/dev/shm") else None


def bench_shell(report: Report, runs: int) -> None:
    peers = {"bash": _bash_runner, "bashkit": _bashkit, "just-bash": _just_bash}
    available = {name: f for name, f in peers.items() if report.peers.get(name, "ok") == "ok"}
    ratios: dict[str, list[float]] = {name: [] for name in available}
    for case in CORPUS:
        script = case.read_text()
        outputs = _outputs(script)
        for peer, make in available.items():
            if peer != "bash" and outputs.get(peer) != outputs["bash"]:
                report.add(Row("shell", case.stem, None, peer, None, note="peer output differs from bash: not timed"))
                continue
            ours = _ours_inproc(script)
            try:
                a, b, ratio = measure_pair(ours, make(script), runs)
            except Exception as e:  # a peer failing a case is reported, not fatal
                report.add(Row("shell", case.stem, None, peer, None, note=f"error: {e}"))
                continue
            ratios[peer].append(ratio)
            report.add(Row("shell", case.stem, a, peer, b, ratio=ratio))
    targets = {"just-bash": ("< 1.0x just-bash", lambda g: g < 1.0),
               "bashkit": ("<= 1x bashkit", lambda g: g <= 1.0),
               "bash": ("<= 3x bash", lambda g: g <= 3.0)}
    for peer, values in ratios.items():
        g = geomean(values)
        text, check = targets.get(peer, ("", None))
        report.add(Row("shell", "geomean (in-process)", None, peer, None, unit="ratio", ratio=g,
                       target=text, passed=check(g) if check else None))
    # the CLI end to end (includes interpreter start) against bash, on a few cases
    if "bash" in available:
        for case in CORPUS[:3]:
            script = case.read_text()
            a, b, ratio = measure_pair(_ours_cli(script), _bash_runner(script), max(1, runs // 2))
            report.add(Row("shell-cli", case.stem, a, "bash", b, ratio=ratio))
    bench_startup(report, runs, "bash" in available)


def _process(*argv: str, env: dict | None = None):
    return lambda: subprocess.run(argv, capture_output=True, check=False, env=env)


def bench_startup(report: Report, runs: int, with_bash: bool) -> None:
    """``sh -c true``: the interpreter's start and the shell's imports, beside bash's start and
    Python's own (``python -c pass``, the floor under ours). Bytecode is cached as in an
    installed package (the first run writes it, whatever PYTHONDONTWRITEBYTECODE says)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    ours = _process(sys.executable, "-m", "sandbox_kernel", "sh", "-c", "true", env=env)
    peers = {"python": _process(sys.executable, "-c", "pass", env=env)}
    if with_bash:
        peers["bash"] = _process("bash", "-c", "true")
    for peer, run in peers.items():
        a, b, ratio = measure_pair(ours, run, max(runs, 10))
        report.add(Row("shell-cli", "start-up: sh -c true", a, peer, b, ratio=ratio, target="<= 60 ms",
                       passed=a.median <= 0.060))


PIPELINES = {
    "seq|sort|uniq|sort|head": ("", "seq 1 200000 | sort -n | uniq -c | sort -rn | head"),
    "grep -c over 10 MB": ("text10m", "grep -c needle big.txt"),
    "awk sum over 200k lines": ("nums", "awk '{s+=$1} END {print s}' nums.txt"),
    "sed s/a/b/g over 10 MB": ("text10m", "sed s/a/b/g big.txt > /dev/null"),
}


def _make_data(kind: str) -> tuple[str, bytes]:
    if kind == "text10m":
        line = b"a quick brown fox jumps over the lazy dog, and a needle sometimes\n"
        lines = [
            line if i % 7 == 0 else line.replace(b"needle", b"thread") for i in range(10 * 1024 * 1024 // len(line))
        ]
        return "big.txt", b"".join(lines)
    if kind == "nums":
        return "nums.txt", b"".join(b"%d\n" % (i * 37 % 1000) for i in range(200_000))
    return "", b""


def bench_coreutils(report: Report, runs: int) -> None:
    from sandbox_kernel.sandbox import Sandbox

    for name, (kind, cmd) in PIPELINES.items():
        fname, data = _make_data(kind)
        with tempfile.TemporaryDirectory(prefix="bench-", dir=_tmpfs()) as tmp:
            if fname:
                Path(tmp, fname).write_bytes(data)

            def gnu():
                subprocess.run(["bash", "-c", cmd], cwd=tmp, env=BASH_ENV, capture_output=True, check=False)

            sandbox = Sandbox()
            if fname:
                sandbox.fs.write_bytes("/workspace/" + fname, data)

            def ours():
                run_in_sandbox(sandbox, cmd)

            try:
                a, b, ratio = measure_pair(ours, gnu, runs)
            except Exception as e:
                report.add(Row("coreutils", name, None, "GNU", None, note=f"error: {e}"))
                continue
            report.add(Row("coreutils", name, a, "GNU", b, ratio=ratio, target="<= 5x GNU",
                           passed=ratio <= 5.0))
