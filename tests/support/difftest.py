"""Run one script in real GNU bash and in the sandbox shell, for differential tests."""
from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

BASH_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "HOME": "/home/user",
            "USER": "user", "LOGNAME": "user", "TZ": "UTC", "TERM": "dumb"}


@dataclass
class Outcome:
    stdout: bytes
    stderr: bytes
    status: int


def run_bash(script: str, stdin: bytes = b"", timeout: float = 30) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="difftest-") as tmp:
        proc = subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in BASH_ENV.items()],
                               "bash", "-c", script, "bash"],
                              cwd=tmp, input=stdin, capture_output=True, timeout=timeout)
        return Outcome(proc.stdout, proc.stderr, proc.returncode)


def run_sandbox(script: str, stdin: bytes = b"") -> Outcome:
    from sandbox_kernel.cli import run_script

    out, err, status = run_script(script, stdin=stdin)
    return Outcome(out, err, status)


#: the differential corpus: every script under these (relative to tests/)
CASE_DIRS = ("shell/cases", "commands/cases")


def stdin_of(text: str) -> bytes:
    """A case's input: its leading ``# stdin: TEXT`` comment (\\n escapes allowed), else none."""
    for line in text.splitlines():
        if line.startswith("# stdin: "):
            return line[len("# stdin: "):].encode().decode("unicode_escape").encode("latin-1")
        if not line.startswith("#"):
            break
    return b""


def case_files(*dirs: str) -> list[Path]:
    root = Path(__file__).parents[1]  # tests/
    return sorted(p for d in dirs for p in (root / d).glob("**/*.sh"))


def compare(script: str, stdin: bytes = b"") -> tuple[Outcome, Outcome]:
    return run_bash(script, stdin), run_sandbox(script, stdin)


def assert_same(script: str, stdin: bytes = b"", label: str = "") -> None:
    """stdout and status equal, and stderr empty in both or non-empty in both."""
    want, got = compare(script, stdin)
    detail = (f"{label}\n--- script\n{script}\n--- bash stdout\n{want.stdout!r}\n--- ours stdout\n{got.stdout!r}"
              f"\n--- bash stderr\n{want.stderr!r}\n--- ours stderr\n{got.stderr!r}"
              f"\n--- status bash={want.status} ours={got.status}")
    assert got.stdout == want.stdout, "stdout differs" + detail
    assert got.status == want.status, "status differs" + detail
    assert bool(got.stderr) == bool(want.stderr), "stderr emptiness differs" + detail
