"""Regex matching in the commands obeys the run (red team, item 6): a match ends at the wall
time or at an interrupt, whatever the pattern, and a pattern too big to compile is an error,
never a MemoryError or a process grown by gigabytes. The shell's ``[[ =~ ]]`` too; its globs
have their own matcher (tests/shell/test_pattern.py)."""
from __future__ import annotations

import threading
import time

import pytest

from sandbox_kernel.commands._lib.bounded import MAX_EXPANDED, expanded_size
from sandbox_kernel.engine import CancelToken

from tests.support.session import Recorder, Session

# Made once per session (outside the timed runs): /tmp/long is 400 000 a's, /tmp/l3k and
# /tmp/l20k are 3 000 and 20 000 a's then " x", /tmp/p a path of 4 000 characters (every
# directory 250 a's) to the file " x".
SETUP = ("printf 'a%.0s' $(seq 400000) > /tmp/long; echo >> /tmp/long; "
         "printf '%s x\\n' \"$(printf 'a%.0s' $(seq 3000))\" > /tmp/l3k; "
         "printf '%s x\\n' \"$(printf 'a%.0s' $(seq 20000))\" > /tmp/l20k; "
         "d=/tmp/p; for i in $(seq 16); do d=$d/$(printf 'a%.0s' $(seq 250)); done; "
         "mkdir -p $d && touch \"$d/ x\"")

# ``a*b`` on 400 000 characters: quadratic in Python's re (70 s for grep -c before).
QUADRATIC = {
    "grep": "grep -c 'a*b' /tmp/long",
    "sed": "sed -n '/a*b/p' /tmp/long",
    "awk": "awk '/a*b/' /tmp/long",
    "awk gsub": "awk '{print gsub(/a*b/, \"x\")}' /tmp/long",
    "expr": "expr \"$(cat /tmp/long)\" : '.*a*b'",
}

# ``(.*a){k}x`` on thousands of a's and " x": polynomial of degree k, minutes in any engine.
CATASTROPHIC = {
    "grep -E": "grep -E '(.*a){40}x' /tmp/l20k",
    "grep -P": "printf 'a,%.0s' $(seq 40) | grep -P '^(.*?,){11}P'",
    "sed": "sed -E -n '/(.*a){40}x/p' /tmp/l20k",
    "awk": "awk '/(.*a){12}x/' /tmp/l3k",
    "expr": "expr \"$(cat /tmp/l20k)\" : '\\(.*a\\)\\{40\\}x'",
    "find -regex": "find /tmp/p -regextype posix-extended -regex '(.*a){60}x'",
    "jq test": "jq -R 'test(\"(.*a){12}x\")' /tmp/l3k",
}

# Counted repetitions that the regex module would write out (GBs, or a MemoryError).
TOO_BIG = {
    "grep": ("echo aaa | grep -E '(a{1000}){1000}'", b"grep: Regular expression too big"),
    "sed": ("echo aaa | sed -E 's/a{1,32767}{1,32767}/x/'", b"Regular expression too big"),
    "awk": ("echo aaa | awk '/(ab{500}){500}/'", b"Regular expression too big"),
    "awk dynamic": ("echo aaa | awk '{ if ($0 ~ \"(ab{500}){500}\") print }'", b"Regular expression too big"),
    "expr": ("expr aaa : 'a\\{32767\\}\\{32767\\}'", b"expr: Regular expression too big"),
    "find -regex": ("find /tmp -regextype posix-extended -regex '(a{900}){900}'", b"Regular expression too big"),
    "jq": ("jq -n '\"a\" | test(\"a{99999999}\")'", b"regular expression too big"),
    "jq nested": ("jq -n '\"a\" | test(\"(a{1000}){1000}\")'", b"regular expression too big"),
}


@pytest.fixture(scope="module")
def session():
    s = Session()
    result, _, err, _ = s.run(SETUP, wall_time=120)
    assert result.status == 0, err
    yield s
    s.close()


@pytest.mark.parametrize("name", sorted(QUADRATIC))
def test_a_quadratic_match_ends_within_the_wall_time(session, name):
    result, out, err, seconds = session.run(QUADRATIC[name], wall_time=3)
    assert seconds < 5, (name, seconds)  # the wall time and a margin for a loaded machine
    assert b"Traceback" not in err and result.status in (0, 1, 124), (result.status, err)


@pytest.mark.parametrize("name", sorted(CATASTROPHIC))
def test_a_catastrophic_match_stops_at_the_wall_time(session, name):
    result, out, err, seconds = session.run(CATASTROPHIC[name], wall_time=1.5)
    assert result.status == 124, (result.status, err)
    assert b"stopped: wall time limit exceeded" in err, err
    assert seconds < 3, seconds


SHELL_REGEX = "s=$(cat /tmp/l3k); [[ $s =~ (.*a){12}x ]]; echo status $?"


def test_a_catastrophic_shell_regex_stops_at_the_wall_time(session):
    result, out, err, seconds = session.run(SHELL_REGEX, wall_time=1.5)
    assert result.status == 124 and b"wall time limit exceeded" in err, (result.status, err)
    assert b"status" not in out and seconds < 3, seconds  # the run ended there, as for commands


def test_a_catastrophic_shell_regex_stops_at_an_interrupt(session):
    token = CancelToken()
    out = InterruptAfterStart(token)
    result, _, err, _ = session.run("echo started; " + SHELL_REGEX, cancel=token, wall_time=60, stdout=out)
    assert result.status == 130, (result.status, err)
    assert time.monotonic() - out.interrupted_at < 1.5


class InterruptAfterStart(Recorder):
    """A stdout whose first write ("started") makes another thread interrupt the run a little
    later, so the interrupt lands in the match; ``interrupted_at`` is when it did."""

    def __init__(self, token: CancelToken) -> None:
        super().__init__()
        self.started = threading.Event()
        self.interrupted_at = 0.0

        def interrupt() -> None:
            if self.started.wait(60):
                time.sleep(0.3)  # an offset from the event, not a wait for it
                self.interrupted_at = time.monotonic()
                token.set("interrupt")
        threading.Thread(target=interrupt, daemon=True).start()

    def write(self, data: bytes) -> None:
        super().write(data)
        self.started.set()


@pytest.mark.parametrize("name", sorted(CATASTROPHIC))
def test_a_catastrophic_match_stops_at_an_interrupt(session, name):
    token = CancelToken()
    out = InterruptAfterStart(token)
    result, _, err, _ = session.run("echo started; " + CATASTROPHIC[name], cancel=token,
                                    wall_time=60, stdout=out)
    late = time.monotonic() - out.interrupted_at
    assert result.status == 130, (result.status, err)
    assert late < 1.5, f"{name} went on {late:.1f} s after the interrupt"


@pytest.mark.parametrize("name", sorted(TOO_BIG))
def test_a_pattern_too_big_is_an_error(session, name):
    script, message = TOO_BIG[name]
    result, out, err, seconds = session.run(script, wall_time=10)
    assert message in err and b"MemoryError" not in err, err
    assert result.status not in (0, 124) and seconds < 2, (result.status, seconds)


def test_expanded_size_counts_what_the_matcher_writes_out():
    assert expanded_size("abc") == 3
    assert expanded_size("(?:ab){200}c") == 401
    assert expanded_size("a{32767}b{32767}c{32767}") < MAX_EXPANDED
    assert expanded_size("(?:a{1000}){1000}") > MAX_EXPANDED
    assert expanded_size("[{]{99999}x\\{99999}") == 99999 + 8  # an escaped brace counts nothing
    assert expanded_size("(a|bb){4}") == 12
