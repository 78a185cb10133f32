"""Differential corpus: every tests/*/cases/**/*.sh runs in real bash and in the sandbox.

A case file may start with comment lines ``# stdin: TEXT`` (input, \\n escapes allowed).
"""
from __future__ import annotations

import pytest

from difftest import assert_same, case_files
from prereqs import host_tool

CASES = case_files("shell/cases", "commands/cases")


def _stdin_of(text: str) -> bytes:
    for line in text.splitlines():
        if line.startswith("# stdin: "):
            return line[len("# stdin: "):].encode().decode("unicode_escape").encode("latin-1")
        if not line.startswith("#"):
            break
    return b""


@host_tool("bash")
@pytest.mark.parametrize("case", CASES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CASES])
def test_case_matches_bash(case):
    text = case.read_text()
    assert_same(text, _stdin_of(text), label=str(case))
