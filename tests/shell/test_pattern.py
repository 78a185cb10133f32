"""The wildcard matcher (sandbox_kernel.wildcard) and the shell's pattern operations."""
from __future__ import annotations

import random
import re
import time

import pytest

from sandbox_kernel.shell import pattern as pat
from sandbox_kernel.wildcard import Budget, Wildcard, fnmatch


class Stop(Exception):
    pass


def _regex_of(p: str) -> re.Pattern:
    """A reference translation (backtracking, fine for tiny inputs)."""
    return re.compile(pat.translate(p, extglob=False) + r"\Z", re.S)


@pytest.mark.parametrize("seed, pattern_chars, text_chars", [
    (7, "ab*?[]!-\\c", "abc-[]\\"),
    (11, "ab**\\", "ab*\\"),  # literals and stars only: the str.find path, not the NFA
])
def test_agrees_with_a_regex_on_random_small_cases(seed, pattern_chars, text_chars):
    rng = random.Random(seed)
    for _ in range(5000):
        p = "".join(rng.choice(pattern_chars) for _ in range(rng.randint(0, 8)))
        t = "".join(rng.choice(text_chars) for _ in range(rng.randint(0, 6)))
        rx = _regex_of(p)
        w = Wildcard(p)
        assert w.fullmatch(t) == bool(rx.match(t)), (p, t)
        assert list(w.ends(t)) == [j for j in range(len(t) + 1) if rx.match(t, 0, j)], (p, t)
        assert list(w.starts(t)) == [i for i in range(len(t), -1, -1) if rx.match(t, i)], (p, t)


def test_literal_and_star_patterns_take_the_find_path():
    assert Wildcard("*.txt")._segments == ["", ".txt"]
    assert Wildcard("a*b\\*c")._segments == ["a", "b*c"]
    assert Wildcard("a?b")._segments is None and Wildcard("[ab]*")._segments is None
    assert Wildcard("a*b", nocase=True)._segments is None


def test_a_literal_pattern_with_many_stars_is_linear():
    text = "a" * 1_000_000
    start = time.process_time()
    assert not Wildcard("*a*a*a*a*a*a*b").fullmatch(text)
    assert Wildcard("a*a*a*a*a*a*a").fullmatch(text)
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize("p, text, expected", [
    ("[C\\-D]", "-", True),        # an escaped dash is no range
    ("[C\\-D]", "C", True),
    ("[C-D]", "-", False),
    ("[z-a]x", "x", False),       # a reversed range matches nothing ...
    ("[z-ab]", "b", True),        # ... but the rest of the bracket still counts
    ("[]]", "]", True),
    ("[!]]", "a", True),
    ("[[:alpha:]_]*", "_x1", True),
    ("[[:digit:]]", "a", False),
    ("[", "[", True),             # an unclosed bracket is literal
    ("\\*", "*", True),
    ("\\*", "a", False),
])
def test_brackets_and_escapes(p, text, expected):
    assert fnmatch(p, text) is expected


def test_pathname_and_nocase():
    assert not fnmatch("*", "a/b", pathname=True)
    assert not fnmatch("a?b", "a/b", pathname=True)
    assert not fnmatch("a[!x]b", "a/b", pathname=True)
    assert fnmatch("*/b*", "a/bc", pathname=True)
    assert fnmatch("A[B-C]*", "abc", nocase=True)


def test_a_long_match_checks_its_budget():
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 3:
            raise Stop

    with pytest.raises(Stop):
        Wildcard("*?b").fullmatch("a" * 100_000, Budget(check))  # ? keeps it on the NFA


def test_replace_and_strip():
    assert pat.replace("aXbXc", "X", "-", "//") == "a-b-c"
    assert pat.replace("aXbXc", "X", "-", "/") == "a-bXc"
    assert pat.replace("abcabc", "b*", "-", "/") == "a-"          # longest at the leftmost place
    assert pat.replace("abc", "", "-", "/#") == "-abc"
    assert pat.replace("abc", "c", "-", "/%") == "ab-"
    assert pat.strip_prefix("a.b.c", "*.", longest=False) == "b.c"
    assert pat.strip_prefix("a.b.c", "*.", longest=True) == "c"
    assert pat.strip_suffix("a.b.c", ".*", longest=False) == "a.b"
    assert pat.strip_suffix("a.b.c", ".*", longest=True) == "a"
    assert pat.strip_suffix("x.tar.gz", "@(.tar|.gz)", longest=False) == "x.tar"


def test_globignore_lists_keep_colons_of_classes():
    assert pat.split_pattern_list("[[:alnum:]]*:*.o:a\\:b") == ["[[:alnum:]]*", "*.o", "a\\:b"]


def test_a_slow_extglob_match_ends_at_the_deadline():
    deadline = time.monotonic() + 0.3
    budget = Budget(lambda: _past(deadline), deadline)
    start = time.monotonic()
    with pytest.raises(Stop):
        pat.match("@(*a*a*a*a*a*a*a*a*a*a)b", "a" * 20_000, budget=budget)
    assert time.monotonic() - start < 1.0


def _past(deadline: float) -> None:
    if time.monotonic() > deadline:
        raise Stop
