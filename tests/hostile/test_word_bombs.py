"""Word-list bombs (red team, item 7): ``echo {1..1000}{1..1000}{1..1000}`` took 5 GB and never
answered. A brace expansion's size is known before it is built, one command may expand to at
most ``Limits.words`` words (globs and "$@" included), and the wall time and interrupts apply
during a long expansion."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox_kernel.limits import DEFAULT_CEILINGS, Limits

from tests.support.session import InterruptWhenBusy, Session

ROOT = Path(__file__).resolve().parents[2]
RSS_BOUND = 1024 * 1024 * 1024


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (RSS_BOUND + 512 * 1024 * 1024,) * 2)


def test_a_brace_product_fails_at_once_in_bounded_memory():
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", "-c",
                           "echo {1..1000}{1..1000}{1..1000}; echo after"],
                          capture_output=True, timeout=60, preexec_fn=_bounded_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert proc.returncode == 1, proc.stderr
    assert b"too many words" in proc.stderr and b"limit words" in proc.stderr
    assert proc.stdout == b""
    assert time.monotonic() - start < 10  # interpreter start included; the expansion itself below


WALL_TIME = 2.0


@pytest.fixture
def session():
    s = Session(wall_time=WALL_TIME)
    s.run("true")  # the shell's modules are loaded before any run is measured
    yield s
    s.close()


@pytest.mark.parametrize("code", [
    "echo {1..1000}{1..1000}{1..1000}",
    "echo {1..100}{1..100}{1..101}",
    "echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}",
    "echo {1..2000000}",
])
def test_brace_bombs_fail_at_once(session, code):
    # status 1, not the wall time's 124: refused before any word is built (10^6 words take ~6 s)
    result, out, err, seconds = session.run(code)
    assert result.status == 1, err
    assert b"too many words" in err


def test_the_words_limit_counts_every_word_of_a_command():
    s = Session(words=1000)
    try:
        result, out, err, _ = s.run("echo {1..999}")
        assert result.status == 0 and len(out.split()) == 999
        result, out, err, _ = s.run("set -- {1..600}; echo \"$@\" \"$@\"")
        assert result.status == 1 and b"too many words: over 1000" in err
        result, out, err, _ = s.run("mkdir d; cd d; touch f{1..600}; echo * *")
        assert result.status == 1 and b"too many words" in err
    finally:
        s.close()


#: 10^6 words through the general path (a $x in the word): ~6 s of CPU
LONG_EXPANSION = "x=; echo {1..1000}{1..999}$x > /dev/null; echo after"


def test_a_long_expansion_ends_at_the_wall_time(session):
    cpu = time.process_time()
    result, out, err, seconds = session.run(LONG_EXPANSION)
    cpu = time.process_time() - cpu
    assert result.status == 124, err
    assert b"after" not in out
    # cut at the wall time: less CPU than the expansion needs however loaded the machine is,
    # and no hang
    assert cpu < WALL_TIME + 1.5
    assert seconds < WALL_TIME + 10


def test_a_long_expansion_ends_at_an_interrupt():
    s = Session(wall_time=600.0)
    try:
        stdout = InterruptWhenBusy()  # once the expansion has run for 0.2 s of CPU
        result, _, err, _ = s.run("echo started; " + LONG_EXPANSION, cancel=stdout.cancel, stdout=stdout)
        ended, cpu_ended = time.monotonic(), time.process_time()
        stdout.finish()
        assert stdout.interrupted_at is not None, "the run ended before the interrupt"
        assert result.status == 130, err
        assert b"after" not in stdout.data
        assert cpu_ended - stdout.cpu_at < 1.5  # far from the ~6 s of CPU the expansion needs
        assert ended - stdout.interrupted_at < 10
    finally:
        s.close()


def test_words_is_a_limit_with_a_ceiling():
    assert Limits().words == 1_000_000
    assert DEFAULT_CEILINGS.words >= Limits().words


def _run_bounded(script: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", "-c", script],
                          capture_output=True, timeout=120, preexec_fn=_bounded_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    return proc, time.monotonic() - start


BIG = 'x=$(printf "%060000000d" 0); '


@pytest.mark.parametrize("code", [
    BIG + ': "$x"{1..100}',                    # a brace expansion of a big value: 6 GB of words
    BIG + ": ${x}{1..20}",                      # the same unquoted (split at C speed, then counted)
    BIG + ': "$x"y "$x"y "$x"y "$x"y "$x"y "$x"y "$x"y "$x"y',  # each word a new 60 MB string
])
def test_word_lists_of_big_values_end_in_the_memory_limit(code):
    # red team, gap 2: the bytes a command's words make count against shell_memory_bytes
    proc, seconds = _run_bounded(code + "; echo never")
    assert proc.returncode == 1, proc.stderr
    assert b"word expansion: memory limit exceeded" in proc.stderr and b"shell_memory_bytes" in proc.stderr
    assert b"never" not in proc.stdout
    assert seconds < 30  # well inside the CLI's 30 s wall time: no character-by-character scan


def test_a_glob_product_stops_at_the_words_limit():
    # red team, gap 1: d*/../d*/... over 100 directories is 10^10 paths; the matches stop at the
    # words limit as they are made, in bounded memory
    proc, seconds = _run_bounded("mkdir -p t && cd t && for i in $(seq 1 100); do mkdir d$i; done; "
                                 "echo d*/../d*/../d*/../d*/../d*; echo never")
    assert proc.returncode == 1, proc.stderr
    assert b"too many words" in proc.stderr
    assert b"never" not in proc.stdout


def test_deeply_nested_unmatched_braces_are_linear():
    # red team, gap 10: 20 000 nested '{a,' took 53 s (each brace scanned to the end)
    proc, seconds = _run_bounded("""y=$(printf '{a,%.0s' {1..20000}); eval "echo $y" | wc -c""")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == b"60001"
    assert seconds < 20
