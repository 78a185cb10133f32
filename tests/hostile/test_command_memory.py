"""Command memory bombs (issue 19, "every unbounded resource"): commands that read their whole
input (``yes | sort`` grew to 1.5 GB in 30 s), awk's doubling strings (3.2 GB) and growing arrays,
jq's ``[range(1e9)]`` (4.9 GB). Each command's memory counts against ``memory_bytes`` and ends
with ``CMD: memory limit exceeded (...)`` and GNU's failure status while the script goes on; what
no command counts is stopped by the run's safety net over the process (memory.py). Measured in
a subprocess whose address space is bounded, as the word bombs are."""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = "256M"
#: the most the sandbox process may reach (resident): the limit, and what a sandbox starts with
RSS_BOUND = 768 * 1024 * 1024
MESSAGE = "{}: memory limit exceeded (256M; limit memory_bytes; raise it with --limit memory_bytes=512M)"

#: runs the CLI and reports its peak resident memory on stderr's last line (VmHWM: its own, not
#: the parent's carried across exec as ru_maxrss is; tests/support/rss.py)
PEAK = ("import runpy, sys\n"
        "sys.argv = ['sandbox_kernel'] + sys.argv[1:]\n"
        "try:\n"
        "    runpy.run_module('sandbox_kernel', run_name='__main__')\n"
        "finally:\n"
        "    peak = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
        "    sys.stderr.write(f'\\npeak {peak * 1024}\\n')\n")


def _bounded_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 * RSS_BOUND,) * 2)


def run_bomb(script: str, *limits: str) -> tuple[int, str, list[str], int, float]:
    """(status, stdout, stderr lines, peak resident bytes, seconds) of ``sh -c script``."""
    argv = [sys.executable, "-c", PEAK, "sh", "--limit", f"memory_bytes={LIMIT}", "--limit", "wall_time=60"]
    for limit in limits:
        argv += ["--limit", limit]
    start = time.monotonic()
    proc = subprocess.run(argv + ["-c", script], capture_output=True, text=True, timeout=120,
                          preexec_fn=_bounded_address_space, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    seconds = time.monotonic() - start
    lines = proc.stderr.rstrip("\n").split("\n")
    match = re.fullmatch(r"peak (\d+)", lines[-1])
    assert match, proc.stderr
    return proc.returncode, proc.stdout, [line for line in lines[:-1] if line], int(match.group(1)), seconds


@pytest.mark.parametrize("bomb, name, status", [
    ("yes | sort", "sort", 2),
    ("seq 1000000000 | sort -n", "sort", 2),
    ("yes | tac", "tac", 1),
    ("yes | shuf", "shuf", 1),
    ("shuf -i 1-1000000000", "shuf", 1),
    ("yes | column", "column", 1),
    ("yes | diff - /dev/null", "diff", 2),
    ("yes | jq -R -s .", "jq", 5),
    ("awk 'BEGIN { s = \"x\"; while (1) s = s s }'", "awk", 2),
    ("awk 'function f(s) { return f(s s s) } BEGIN { f(\"ab\") }'", "awk", 2),
    ("awk 'BEGIN { while (1) a[i++] = i }'", "awk", 2),
    ("yes | awk '{ a[NR] = $0 }'", "awk", 2),
    ("awk 'BEGIN { printf \"%*d\", 2e9, 1 }'", "awk", 2),
    ("awk 'BEGIN { s = sprintf(\"%50000000s\", \"\"); print split(s, a, \"\") }'", "awk", 2),
    ("jq -n '[range(1e9)]'", "jq", 5),
    ("jq -n '\"x\" * 1e9'", "jq", 5),
    ("jq -n 'reduce range(100) as $i (\"x\"; . + .)'", "jq", 5),
    ("jq -n 'reduce range(100) as $i ([1]; . + .)'", "jq", 5),
    ("jq -n 'reduce range(40) as $i (1; [., .])'", "jq", 5),  # 40 lists, 2^40 numbers of text
    ("jq -n '\"x\" * 200000000 | explode | length'", "jq", 5),
    ("echo x | sed ':a; s/.*/&&/; ba'", "sed", 4),
    ("echo x | sed ':a; h; G; ba'", "sed", 4),
])
def test_a_command_bomb_ends_with_its_memory_error_and_the_script_goes_on(bomb, name, status):
    code, out, err, peak, seconds = run_bomb(f"{bomb}; echo \"after $?\"")
    assert err == [MESSAGE.format(name)], err
    assert (code, out.splitlines()[-1]) == (0, f"after {status}"), (out[-200:], err)
    assert peak < RSS_BOUND, peak
    assert seconds < 45


def test_what_no_command_counts_stops_the_run_at_the_safety_net():
    # an awk function's local array: only the process's growth shows it
    code, out, err, peak, _ = run_bomb("awk 'function f(a, i) { while (1) a[i++] = i } BEGIN { f() }'; echo never",
                                       "shell_memory_bytes=64M")
    assert code == 1 and out == "", err
    assert len(err) == 1 and re.fullmatch(r"bash: memory limit exceeded \(the sandbox grew by [0-9.]+M in this run; "
                                          r"limit memory_bytes; raise it with --limit memory_bytes=512M\)", err[0]), err
    assert peak < RSS_BOUND, peak


def test_streaming_commands_still_stream():
    # nothing held: an endless input through them is no memory bomb (head ends it)
    for script in ("seq 1000000000 | uniq -c | head -c 100", "yes | rev | fold -w 3 | head -c 100",
                   "yes | base64 | head -c 100", "yes | awk '{ n++ } n == 3000000 { print n; exit }'",
                   "yes | sed -n '3000000{p;q}'", "head -c 300000000 /dev/zero | sha256sum | wc -c",
                   "yes | gzip | head -c 100 | wc -c"):
        code, out, err, peak, _ = run_bomb(script, "memory_bytes=64M")
        assert code == 0 and err == [], (script, err)
        assert peak < RSS_BOUND


def _peak_of(script: str, *limits: str) -> int:
    code, _, err, peak, _ = run_bomb(script, *limits)
    assert code == 0 and err == [], err
    return peak


#: (what makes the input, the command, its name and failure status or None when it finishes,
#: memory_bytes): the third red team's bombs (issue 28), scaled down to seconds
HOLDERS = [
    # two 3 M-line files: lines, keys and the search's diagonals cost ~60 times the text
    ("seq 3000000 > a; seq 2 3000001 > b", "diff a b > /dev/null", "diff", 2, "256M"),
    ("seq 3000000 > a; seq 2 3000001 > b", "diff -y a b > /dev/null", "diff", 2, "256M"),
    # a million arguments: each a str and a tuple, ~20 times its text
    ("seq 1000000 > a", "xargs -n 1000000 echo < a > /dev/null", "xargs", 1, "64M"),
    ("seq 1000000 | tr '\\n' '\\0' > a", "xargs -0 -n 1000000 echo < a > /dev/null", "xargs", 1, "64M"),
    # jq -R reads a line at a time and tac reverses a block at a time: both hold only the text
    ("seq 500000 > a", "jq -R . a | tail -n 1", None, None, "16M"),
    ("seq 1000000 > a", "tac a | tail -n 1", None, None, "16M"),
]


@pytest.mark.parametrize("setup, script, name, status, limit", HOLDERS)
def test_a_command_that_holds_its_input_counts_it(setup, script, name, status, limit):
    """The process grows by at most the limit (and a chunk): the command either finishes within
    it or ends with its memory error and GNU's status, and the script goes on."""
    before = _peak_of(setup, f"memory_bytes={limit}")
    code, out, err, peak, seconds = run_bomb(f"{setup}; {script}; echo \"after $?\"", f"memory_bytes={limit}")
    if name is None:
        assert code == 0 and out.splitlines()[-1] == "after 0", (out[-200:], err)
        assert err == [], err
    else:
        message = (f"{name}: memory limit exceeded ({limit}; limit memory_bytes; raise it with "
                   f"--limit memory_bytes={2 * int(limit[:-1])}M)")
        assert err == [message], err
        assert (code, out.splitlines()[-1]) == (0, f"after {status}"), (out[-200:], err)
    grown = peak - before
    limit_bytes = int(limit[:-1]) << 20
    assert grown < limit_bytes + 8 * 1024 * 1024, (grown, limit)
    assert seconds < 45
