"""Word-list bombs (red team, item 7): ``echo {1..1000}{1..1000}{1..1000}`` took 5 GB and never
answered. A brace expansion's size is known before it is built, one command may expand to at
most ``Limits.words`` words (globs and "$@" included), and the wall time and interrupts apply
during a long expansion."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sandbox_kernel.engine import CancelToken
from sandbox_kernel.limits import DEFAULT_CEILINGS, Limits

from .session import Session

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


@pytest.fixture
def session():
    s = Session(wall_time=2.0)
    yield s
    s.close()


@pytest.mark.parametrize("code", [
    "echo {1..1000}{1..1000}{1..1000}",
    "echo {1..100}{1..100}{1..101}",
    "echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}",
    "echo {1..2000000}",
])
def test_brace_bombs_fail_within_a_second(session, code):
    result, out, err, seconds = session.run(code)
    assert result.status == 1
    assert b"too many words" in err
    assert seconds < 1.0


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


def test_a_long_expansion_ends_at_the_wall_time(session):
    # 10^6 words through the general path (a $x in the word) take seconds
    result, out, err, seconds = session.run("x=; echo {1..1000}{1..999}$x; echo after")
    assert result.status == 124, err
    assert seconds < 3.0


def test_a_long_expansion_ends_at_an_interrupt():
    s = Session(wall_time=60.0)
    try:
        cancel = CancelToken()
        timer = threading.Timer(0.5, cancel.set, args=("interrupt",))
        timer.start()
        result, out, err, seconds = s.run("x=; echo {1..1000}{1..999}$x", cancel=cancel)
        timer.join()
        assert result.status == 130, err
        assert seconds < 1.5
    finally:
        s.close()


def test_words_is_a_limit_with_a_ceiling():
    assert Limits().words == 1_000_000
    assert DEFAULT_CEILINGS.words >= Limits().words
