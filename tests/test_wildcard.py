"""The one name matcher (sandbox_kernel.wildcard.fnmatch) held to the C library's fnmatch(3):
random patterns and names, every flag combination the commands use, compared with glibc's
answer through ctypes. Patterns are ASCII in the C locale. Left out where bash (the shell's
judge) and glibc disagree and the matcher follows bash: a lone trailing backslash (glibc never
matches it) and collating symbols ``[[.x.]`` run together with other brackets."""
from __future__ import annotations

import ctypes
import ctypes.util
import locale

import pytest
from hypothesis import assume, given, settings, strategies as st

from sandbox_kernel.wildcard import excluded, fnmatch
from tests.support.prereqs import require

FNM_PATHNAME, FNM_PERIOD, FNM_LEADING_DIR, FNM_CASEFOLD = 1, 4, 8, 16

_path = ctypes.util.find_library("c")
_libc = ctypes.CDLL(_path) if _path else None


@pytest.fixture(scope="module", autouse=True)
def c_locale():
    require(None if _libc is not None and hasattr(_libc, "fnmatch") else "no C library with fnmatch")
    saved = locale.setlocale(locale.LC_ALL)
    locale.setlocale(locale.LC_ALL, "C")
    yield
    locale.setlocale(locale.LC_ALL, saved)


def c_fnmatch(pattern: str, name: str, flags: int) -> bool:
    return _libc.fnmatch(pattern.encode(), name.encode(), flags) == 0


PIECES = ["*", "?", "a", "b", "A", ".", "/", "-", "\\*", "\\a", "[ab]", "[!a]", "[^.]", "[a-c]", "[]a]", "[!]a]",
          "[[:alpha:]]", "[[:digit:]]", "[[:upper:]]", "[[:punct:]]", "[.]", "[/]", "[a-]", "[", "]", "1", "[Z-a]"]
names = st.text(alphabet="abAB.1/-*[]", max_size=8)
patterns = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)


@settings(max_examples=400, deadline=None)
@given(pattern=patterns, name=names, flags=st.sets(st.sampled_from(
    [FNM_PATHNAME, FNM_PERIOD, FNM_LEADING_DIR, FNM_CASEFOLD])).map(sum))
def test_agrees_with_the_c_library(pattern, name, flags):
    assume("[[." not in pattern)
    ours = fnmatch(pattern, name, pathname=bool(flags & FNM_PATHNAME), period=bool(flags & FNM_PERIOD),
                   leading_dir=bool(flags & FNM_LEADING_DIR), nocase=bool(flags & FNM_CASEFOLD))
    assert ours == c_fnmatch(pattern, name, flags), (pattern, name, flags)


@pytest.mark.parametrize("pattern,name,flags", [
    ("[[:alpha:]]*", "x1", 0), ("[[:digit:]]*", "1x", 0), ("*", ".hidden", FNM_PERIOD),
    ("a/*", "a/.b", FNM_PATHNAME | FNM_PERIOD), ("a/*", "a/.b", FNM_PERIOD), ("a", "a/b/c", FNM_LEADING_DIR),
    ("a*", "ab/c", FNM_LEADING_DIR | FNM_PATHNAME), ("A?", "ab", FNM_CASEFOLD), ("*/b", "a/x/b", FNM_PATHNAME),
    ("[!a]", "A", FNM_CASEFOLD), ("[Z-a]", "[", FNM_CASEFOLD), ("[[:upper:]]", "b", FNM_CASEFOLD),
    ("[[.]", ".", 0), ("[[.]", "[", 0),
])
def test_named_cases(pattern, name, flags):
    ours = fnmatch(pattern, name, pathname=bool(flags & FNM_PATHNAME), period=bool(flags & FNM_PERIOD),
                   leading_dir=bool(flags & FNM_LEADING_DIR), nocase=bool(flags & FNM_CASEFOLD))
    assert ours == c_fnmatch(pattern, name, flags)


@settings(max_examples=300, deadline=None)
@given(pattern=st.text(max_size=40), name=st.text(max_size=60), flags=st.integers(0, 31), anchored=st.booleans())
def test_any_pattern_and_name_give_an_answer(pattern, name, flags, anchored):
    """Untrusted patterns (a grep --include, a tar --exclude, a zip member) never raise."""
    answer = fnmatch(pattern, name, pathname=bool(flags & 1), period=bool(flags & 2), leading_dir=bool(flags & 4),
                     nocase=bool(flags & 8))
    assert answer in (True, False)
    assert excluded(pattern, name, anchored=anchored, leading_dir=bool(flags & 4)) in (True, False)
    if not any(c in pattern for c in "*?[\\"):
        assert fnmatch(pattern, name) == (pattern == name)  # no wildcard: the text itself
