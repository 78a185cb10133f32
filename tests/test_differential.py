"""Differential corpus: every tests/*/cases/**/*.sh runs in real bash and in the sandbox.

A case file may start with comment lines ``# stdin: TEXT`` (input, \\n escapes allowed).
"""
from __future__ import annotations

import pytest

from tests.support.difftest import CASE_DIRS, assert_same, case_files, stdin_of
from tests.support.prereqs import host_tool

CASES = case_files(*CASE_DIRS)


@host_tool("bash")
@pytest.mark.parametrize("case", CASES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CASES])
def test_case_matches_bash(case):
    text = case.read_text()
    assert_same(text, stdin_of(text), label=str(case))
