"""`python -m sandbox_kernel sh`: --limit NAME=VALUE (parsed and capped like %limits), and
limit messages that name the option (the CLI has no %limits)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from sandbox_kernel.cli import parse_limit_options, run_script
from sandbox_kernel.limits import CliLimits


def sh(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", *argv], capture_output=True, text=True,
                          timeout=60)


def test_limit_options_set_the_run_s_limits():
    limits, rest = parse_limit_options(["--limit", "wall_time=2m", "--limit=vfs_bytes=1G", "-c", "echo", "x"])
    assert isinstance(limits, CliLimits) and (limits.wall_time, limits.vfs_bytes) == (120.0, 1 << 30)
    assert rest == ["-c", "echo", "x"]
    assert parse_limit_options(["--limit", "commands=5", "--", "--limit"])[1] == ["--limit"]  # a script's name
    for bad, why in ((["--limit"], "requires an argument"), (["--limit", "wall_time"], "expected NAME=VALUE"),
                     (["--limit", "nonsense=1"], "unknown limit 'nonsense'"),
                     (["--limit", "wall_time=2d"], "above the most the CLI allows (86400 s)"),
                     (["--limit", "vfs_bytes=0"], "must be positive")):
        with pytest.raises(ValueError, match=re.escape(why)):
            parse_limit_options(bad)


def test_the_cli_takes_limits_and_its_messages_name_the_option():
    done = sh("--limit", "wall_time=1", "-c", "echo start; sleep 5")
    assert (done.returncode, done.stdout) == (124, "start\n")
    assert done.stderr == "bash: wall time limit exceeded (1 s; limit wall_time; raise it with --limit wall_time=2)\n"
    done = sh("--limit", "commands=100", "--limit", "vfs_bytes=1M", "-c",
              "head -c 2000000 /dev/zero > big; f() { while :; do :; done; }; f | cat")
    assert done.returncode == 1
    assert done.stderr == ("head: /workspace/big: No space left on device\n"
                           "bash: too many commands: 100 executed "
                           "(limit commands; raise it with --limit commands=200)\n"
                           "[sandbox: no space left: the sandbox's files may take 1M (limit vfs_bytes; "
                           "raise it with --limit vfs_bytes=2M)]\n")
    done = sh("--limit", "wall_time=100000", "-c", "echo never")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("sh: wall_time=100000 s is above the most the CLI allows (86400 s)\nusage:")


def test_help_documents_the_limits():
    done = sh("--help")
    assert done.returncode == 0
    assert "--limit NAME=VALUE" in done.stdout.splitlines()[0]
    assert "  wall_time                  30 s" in done.stdout and "86400 s" in done.stdout
    assert sh("--limit", "commands=5", "-h").stdout == done.stdout


def test_run_script_is_the_cli_in_process():
    out, err, status = run_script("f() { f; }; f")
    assert err == (b"bash: f: maximum function nesting level exceeded (1000; limit function_depth; "
                   b"the CLI allows no more)\n")
    out, err, status = run_script("while :; do :; done", limits=CliLimits(commands=50))
    assert err == b"bash: too many commands: 50 executed (limit commands; raise it with --limit commands=100)\n"
