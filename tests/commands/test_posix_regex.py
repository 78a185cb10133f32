"""POSIX BRE/ERE -> Python translation and matching (commands/_lib/posix_regex.py)."""
from __future__ import annotations

import time

import pytest

from sandbox_kernel.commands._lib.posix_regex import (Bounds, RegexError, RegexStopped, compile_posix, translate,
    translate_lines)


@pytest.mark.parametrize("bre, python", [
    ("abc", "abc"),
    ("a.c", "a.c"),
    ("a*", "a*"),
    ("*a", "\\*a"),              # leading * is literal
    ("\\(*a\\)", "(\\*a)"),      # ... also at the start of a group
    ("^*", "^\\*"),              # ... and right after a leading ^
    ("a\\{2,3\\}", "a{2,3}"),
    ("a\\{2\\}", "a{2}"),
    ("a\\{2,\\}", "a{2,}"),
    ("a\\{,2\\}", "a{0,2}"),
    ("a\\+b\\?", "a+b?"),        # GNU extensions
    ("a\\|b", "a|b"),
    ("a+?{}|()", "a\\+\\?\\{\\}\\|\\(\\)"),  # literal in a BRE
    ("\\(ab\\)\\1", "(ab)(?:\\1)"),
    ("a^b", "a\\^b"),            # ^ not at the start is literal
    ("a$b", "a\\$b"),            # $ not at the end is literal
    ("ab$", "ab\\Z"),
    ("\\(a$\\)", "(a\\Z)"),
    ("x\\|^a", "x|^a"),
    ("\\<w\\>", "\\b(?=\\w)w\\b(?<=\\w)"),
    ("\\bw\\B", "\\bw\\B"),
    ("[]a]", "[\\]a]"),
    ("[^]a]", "[^\\]a]"),
    ("[a-]", "[a\\-]"),
    ("[\\]", "[\\\\]"),           # backslash is literal in brackets
    ("[[:digit:][:upper:]]", "[0-9A-Z]"),
    ("[[=a=]b]", "[ab]"),
    ("[[.-.]]", "[\\-]"),
    ("a**", "(?:a*)*"),           # stacked repetition, not Python syntax errors
    ("#&~ ", "\\#\\&\\~\\ "),
])
def test_bre(bre, python):
    assert translate(bre) == python


@pytest.mark.parametrize("ere, python", [
    ("a|b", "a|b"),
    ("(ab)+", "(ab)+"),
    ("a{2}", "a{2}"),
    ("a{", "a\\{"),               # not an interval: literal
    ("a{1", "a\\{1"),
    ("a{1,2", "a\\{1,2"),
    ("a{x}", "a\\{x\\}"),
    ("*a", "a"),                  # nothing to repeat: ignored, as GNU does
    ("a|*b", "a|b"),
    ("a+?", "(?:a+)?"),           # not Python's lazy quantifier
    ("a*+", "(?:a*)+"),           # not Python's possessive quantifier
    ("()", "()"),
    ("a)", "a\\)"),               # unmatched ) is literal in GNU ERE
    ("\\(", "\\("),
    ("^a$", "^a\\Z"),
    ("(a)\\1", "(a)(?:\\1)"),
])
def test_ere(ere, python):
    assert translate(ere, extended=True) == python


@pytest.mark.parametrize("pattern, extended, message", [
    ("[a", False, "Unmatched [, [^, [:, [., or [="),
    ("[[:foo:]]", False, "Invalid character class name"),
    ("a\\", False, "Trailing backslash"),
    ("[z-a]", False, "Invalid range end"),
    ("\\(a", False, "Unmatched ( or \\("),
    ("a\\)", False, "Unmatched ) or \\)"),
    ("(a", True, "Unmatched ( or \\("),
    ("a\\{1", False, "Unmatched \\{"),
    ("a\\{2,1\\}", False, "Invalid content of \\{\\}"),
    ("a\\{x\\}", False, "Invalid content of \\{\\}"),
    ("\\1", False, "Invalid back reference"),
    ("\\(a\\)\\2", False, "Invalid back reference"),
])
def test_errors(pattern, extended, message):
    with pytest.raises(RegexError) as info:
        translate(pattern, extended=extended)
    assert str(info.value) == message


def test_sed_escapes():
    assert translate("a\\tb\\n", sed_escapes=True) == "a\\tb\\n"
    assert compile_posix("a\\tb", sed_escapes=True).search("xa\tb")
    assert compile_posix("a\\tb").search("atb")  # grep: \t is just t


def test_multiline_dollar():
    rx = compile_posix("a$", multiline=True)
    assert rx.search("xa\nb") is not None
    assert compile_posix("a$").search("xa\nb") is None


def test_leftmost_longest_with_alternation():
    assert compile_posix("a|ab", extended=True).search("xabc").group() == "ab"
    m = compile_posix("(a|ab)(c|bcd)(d*)", extended=True).search("abcd")
    assert m.group(0) == "abcd"


def test_gnu_empty_match_rule():
    spans = [m.span() for m in compile_posix("a*").finditer_nonoverlapping("baaac")]
    assert spans == [(0, 0), (1, 4), (5, 5)]  # no empty match right after "aaa"


def test_case_insensitive_classes():
    assert compile_posix("[[:upper:]]x", ignore_case=True).search("ax")


def test_dot_matches_newline_for_sed_pattern_space():
    assert compile_posix("a.b").search("a\nb")


def test_line_mode_never_crosses_lines():
    src, risky, alternation, repetitions = translate_lines("a.b[^x][[:space:]]\\W\\s", extended=True)
    assert "\n" not in src.replace("\\n", "")
    import re
    rx = re.compile(src, re.M)
    assert rx.search("a\nb") is None and rx.search("axby ! ") is not None
    assert translate_lines("a\\nb", sed_escapes=True) is None
    assert translate_lines("a|b", extended=True)[2] is True


def test_catastrophic_pattern_stops_at_the_deadline():
    rx = compile_posix("(.*a){12}x", extended=True)
    assert rx.risky
    rx.bind(Bounds(time.monotonic() + 0.2))
    start = time.monotonic()
    with pytest.raises(RegexStopped) as e:
        rx.search("a" * 3000)
    assert time.monotonic() - start < 0.5
    assert e.value.reason == "timeout" and e.value.pattern == "(.*a){12}x"


def test_simple_patterns_use_fast_engine():
    assert not compile_posix("foo.*bar").risky
    assert compile_posix("\\(a*\\)*b").risky
    assert compile_posix("a.*b.*c").risky  # several unbounded repeats may backtrack polynomially
