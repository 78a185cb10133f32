"""Shell patterns cannot hold the kernel (red team, item 6): a glob such as
``*a*a*a*a*a*a*a*a*a*a*b`` compiled to a backtracking regex blocked the kernel for 109 s on 44
characters, past its wall time and deaf to interrupts. Plain globs now match in linear time,
extglob patterns run under a budget, and the loops over prefixes and positions check it."""
from __future__ import annotations

import time

import pytest

from sandbox_kernel.wildcard import fnmatch

from tests.support.session import InterruptWhenBusy, Session

GLOB = "*a*a*a*a*a*a*a*a*a*a*b"
GLOB_SETUP = f"GLOB='{GLOB}'\n"
SETUP = f"GLOB='{GLOB}'; s=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"

#: each site with the 44-character string: (code, stdout bash prints)
SITES = {
    "[[ == ]]": ('[[ $s == $GLOB ]]; echo "st=$?"', "st=1\n"),
    "case": ("case $s in $GLOB) echo match;; *) echo none;; esac", "none\n"),
    "${s#pat}": ('echo "${s#$GLOB}" "${s##$GLOB}" "${s%$GLOB}" "${s%%$GLOB}" | wc -c', "180\n"),
    "${s//pat/x}": ('x=${s//$GLOB/x}; echo ${#x}', "44\n"),
    "pathname": ("touch $s; echo $GLOB", f"{GLOB}\n"),
}


WALL_TIME = 2.0


@pytest.fixture
def session():
    s = Session(wall_time=WALL_TIME)
    s.run("true")  # the shell's modules are loaded before any run is measured
    yield s
    s.close()


@pytest.mark.parametrize("site", sorted(SITES))
def test_the_44_character_bomb_answers_at_once(session, site):
    # the backtracking matcher took 109 s; the whole answer comes within the 2 s wall time
    code, expected = SITES[site]
    result, out, err, seconds = session.run(SETUP + code)
    assert result.status == 0 and out.decode() == expected, err


#: bombs that take minutes even without backtracking (quadratic replacement over 400 000
#: characters) or that only the extglob regex can run (20 000 characters, minutes):
#: (set-up, the bomb)
LONG = {
    "${s//pat/x}": ("printf -v s '%400000s' ''; s=${s// /a}", "x=${s//$GLOB/x}; echo done"),
    "extglob [[ == ]]": ("printf -v s '%20000s' ''; s=${s// /a}",
                         "[[ $s == @(*a*a*a*a*a*a*a*a*a*a)b ]]; echo done"),
    "extglob ${s%%pat}": ("shopt -s extglob; printf -v s '%20000s' ''; s=${s// /a}",
                          "x=${s%%@(*a*a*a*a*a*a*a*a*a*a)b}; echo done"),
}


@pytest.mark.parametrize("site", sorted(LONG))
def test_a_long_match_ends_at_the_wall_time(session, site):
    setup, bomb = LONG[site]
    result, out, err, seconds = session.run(f"{GLOB_SETUP}{setup}\n{bomb}")
    assert result.status == 124, err
    assert b"done" not in out
    assert seconds < WALL_TIME + 10  # at the wall time, long before the match would end


@pytest.mark.parametrize("site", sorted(LONG))
def test_a_long_match_ends_at_an_interrupt(site):
    session = Session(wall_time=600.0)
    try:
        setup, bomb = LONG[site]
        stdout = InterruptWhenBusy()  # once the bomb has run for 0.2 s of CPU
        result, _, err, _ = session.run(f"{GLOB_SETUP}{setup}\necho started\n{bomb}",
                                        cancel=stdout.cancel, stdout=stdout)
        ended, cpu_ended = time.monotonic(), time.process_time()
        stdout.finish()
        assert stdout.interrupted_at is not None, "the run ended before the interrupt"
        assert result.status == 130, err
        assert b"done" not in stdout.data
        # soon after the interrupt: little CPU spent (the match would take minutes of it) and
        # well within a loaded machine's wall time
        assert cpu_ended - stdout.cpu_at < 2.0
        assert ended - stdout.interrupted_at < 10
    finally:
        session.close()


def test_the_public_matcher_is_linear():
    """``fnmatch`` is what commands (find -name, tar --exclude) use."""
    assert not fnmatch(GLOB, "a" * 100_000)
    assert fnmatch(GLOB, "a" * 100_000 + "b")
    assert fnmatch("[!/]*.py", "x.py") and not fnmatch("*.py", "a/x.py", pathname=True)
    assert fnmatch("\\*", "*") and not fnmatch("\\*", "x")
