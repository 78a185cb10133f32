"""Property-based fuzz of awk's lexer, parser and compiler, which read untrusted program text:
any text either compiles or is refused with gawk's kind of message (a syntax error: status 1,
``awk: cmd. line:N: ...``; a character no program may hold: status 2), never a Python
exception or traceback; and a program that compiles runs to an exit status within its limits."""
from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as hs

from sandbox_kernel.commands.awk.compiler import CompileError, Compiler
from sandbox_kernel.commands.awk.lexer import AwkSyntaxError
from sandbox_kernel.commands.awk.parser import AwkErrors, parse

from tests.support.session import Session

# pieces of awk, glued randomly: far more interesting programs than raw text
TOKENS = ["BEGIN", "END", "{", "}", "(", ")", "[", "]", ";", "\n", ",", "function", "f", "g", "(a, b)",
          "return", "x", "a", "b", "i", "NF", "NR", "$", "$0", "$1", "$NF", "=", "+=", "-=", "^=", "++", "--",
          "+", "-", "*", "/", "%", "^", "**", "!", "~", "!~", "<", "<=", "==", "!=", ">", ">=", "&&", "||",
          "?", ":", "in", "for", "while", "do", "if", "else", "break", "continue", "next", "exit", "delete",
          "getline", "<", "|", "print", "printf", "\"%d %s\\n\"", "\"a\\tb\"", "\"\\x41\\101\"", "/re+/",
          "/[a-z]*/", "/a\\52b/", "1", "0", "2.5e3", "0x1F", "length", "substr", "split", "sub", "gsub",
          "match", "sprintf", "index", "tolower", "srand", "rand()", "int", "close", "system", "RS", "FS",
          "RT", "ENVIRON", "SUBSEP", "\\\n", "#c\n", ".", "&", "@", "`", "'", "\x01", "é"]

programs = hs.lists(hs.sampled_from(TOKENS) | hs.text(max_size=5), max_size=30).map(" ".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(src=hs.text(max_size=80) | programs)
@example(src='"\\\n')  # an unterminated string continued by a backslash-newline (its column was -3)
def test_parser_and_compiler_refuse_only_with_their_errors(src):
    try:
        prog = parse(src)
    except AwkSyntaxError as e:
        assert e.message and e.line >= 1 and e.col >= 0
        return
    except AwkErrors as e:
        assert e.errors and all(line >= 1 and message for line, message in e.errors)
        return
    try:
        code, _ = Compiler(prog).compile()
    except CompileError as e:
        assert str(e) and e.kind in ("fatal", "error")
        return
    compile(code, "<awk>", "exec")  # the generated Python is always valid


@pytest.fixture(scope="module")
def session():
    s = Session(wall_time=2, stdout_bytes=20000, stderr_bytes=20000)
    s.run("awk 'BEGIN { }'")  # the sandbox set up (its recursion limit) before hypothesis runs
    yield s
    s.close()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(src=hs.text(max_size=60) | programs)
def test_awk_answers_any_program_with_a_status_and_no_traceback(session, src):
    result, out, err, seconds = session.run(f"awk {shlex.quote(src)} </dev/null")
    assert seconds < 6, f"{src!r} ran {seconds:.1f}s"
    assert b"Traceback" not in err and b"internal error" not in err and b"cannot compile" not in err, (src, err)
    if result.status in (1, 2) and err.startswith(b"awk: cmd. line:"):
        return  # refused (syntax error 1, fatal 2), as gawk says it
    # else it ran: its own exit status (exit N), or a limit (wall time, output) stopped it
    assert 0 <= result.status <= 255, (src, result.status, err)
