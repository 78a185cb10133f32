"""Shell patterns cannot hold the kernel (red team, item 6): a glob such as
``*a*a*a*a*a*a*a*a*a*a*b`` compiled to a backtracking regex blocked the kernel for 109 s on 44
characters, past its wall time and deaf to interrupts. Plain globs now match in linear time,
extglob patterns run under a budget, and the loops over prefixes and positions check it."""
from __future__ import annotations

import threading

import pytest

from sandbox_kernel.engine import CancelToken
from sandbox_kernel.wildcard import fnmatch

from .session import Session

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


@pytest.fixture
def session():
    s = Session(wall_time=2.0)
    yield s
    s.close()


@pytest.mark.parametrize("site", sorted(SITES))
def test_the_44_character_bomb_answers_at_once(session, site):
    code, expected = SITES[site]
    result, out, err, seconds = session.run(SETUP + code)
    assert out.decode() == expected, err
    assert seconds < 1.0


#: bombs that take minutes even without backtracking (quadratic replacement over 400 000
#: characters) or that only the extglob regex can run (20 000 characters, ~40 s)
LONG = {
    "${s//pat/x}": "printf -v s '%400000s' ''; s=${s// /a}\nx=${s//$GLOB/x}; echo done",
    "extglob [[ == ]]": "printf -v s '%20000s' ''; s=${s// /a}\n"
                        "[[ $s == @(*a*a*a*a*a*a*a*a*a*a)b ]]; echo done",
    "extglob ${s%%pat}": "shopt -s extglob; printf -v s '%20000s' ''; s=${s// /a}\n"
                         "x=${s%%@(*a*a*a*a*a*a*a*a*a*a)b}; echo done",
}


@pytest.mark.parametrize("site", sorted(LONG))
def test_a_long_match_ends_at_the_wall_time(session, site):
    result, out, err, seconds = session.run(GLOB_SETUP + LONG[site])
    assert result.status == 124, err
    assert b"done" not in out
    assert seconds < 3.0


@pytest.mark.parametrize("site", sorted(LONG))
def test_a_long_match_ends_at_an_interrupt(site):
    session = Session(wall_time=60.0)
    try:
        cancel = CancelToken()
        timer = threading.Timer(0.5, cancel.set, args=("interrupt",))
        timer.start()
        result, out, err, seconds = session.run(GLOB_SETUP + LONG[site], cancel=cancel)
        timer.join()
        assert result.status == 130, err
        assert seconds < 1.5
    finally:
        session.close()


def test_the_public_matcher_is_linear():
    """``fnmatch`` is what commands (find -name, tar --exclude) use."""
    assert not fnmatch(GLOB, "a" * 100_000)
    assert fnmatch(GLOB, "a" * 100_000 + "b")
    assert fnmatch("[!/]*.py", "x.py") and not fnmatch("*.py", "a/x.py", pathname=True)
    assert fnmatch("\\*", "*") and not fnmatch("\\*", "x")
