"""man: pages from the commands' --help texts and the builtins' help, written out whole."""
from __future__ import annotations

import pytest

from sandbox_kernel.cli import run_script


def sh(script: str) -> tuple[str, str, int]:
    out, err, status = run_script(script)
    return out.decode(), err.decode(), status


def test_man_shows_a_commands_help_under_a_man_header():
    out, err, status = sh("man ls")
    help_text, _, _ = sh("ls --help")
    header, blank, rest = out.split("\n", 2)
    assert header.startswith("LS(1) ") and header.endswith(" LS(1)") and len(header) == 80
    assert blank == "" and rest == help_text and (err, status) == ("", 0)


def test_man_of_a_command_that_answers_help_itself_and_of_a_builtin():
    out, _, status = sh("man md5sum")
    assert "Print or check MD5" in out and status == 0
    out, _, status = sh("man cd")
    assert out.split("\n")[0].split() == ["CD(1)", "Shell", "Builtins", "CD(1)"]
    assert "Change the shell working directory" in out and status == 0
    # a builtin's page is the builtin's, whatever function shadows its name
    assert "Change the shell working directory" in sh("cd() { :; }; man cd")[0]


def test_man_width_follows_columns_and_pages_follow_each_other():
    out, _, status = sh("COLUMNS=40 man 1 true false")
    headers = [line for line in out.split("\n") if line.endswith("(1)")]
    assert [len(h) for h in headers] == [40, 40] and status == 0


@pytest.mark.parametrize("script, err, status", [
    ("man", "What manual page do you want?\nFor example, try 'man man'.\n", 1),
    ("man nosuch", "No manual entry for nosuch\n", 16),
    ("man 9 ls", "No manual entry for ls in section 9\n", 16),
    ("man ec", "No manual entry for ec\n", 16),  # help's prefix matching is not man's
    ("man for", "No manual entry for for\n", 16),
    ("man -z ls", "man: invalid option -- 'z'\nTry 'man --help' for more information.\n", 1),
])
def test_man_errors_as_man_db(script, err, status):
    assert sh(script) == ("", err, status)


def test_man_of_a_missing_page_among_found_ones():
    out, err, status = sh("man nosuch true")
    assert "TRUE(1)" in out and err == "No manual entry for nosuch\n" and status == 16
