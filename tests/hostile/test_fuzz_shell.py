"""Property-based fuzz of the shell: random scripts never raise a Python exception out of the
parser or the interpreter, and every run ends within its limits."""
from __future__ import annotations


from hypothesis import HealthCheck, given, settings, strategies as hs

from sandbox_kernel.shell.syntax.parser import check_complete

from tests.support.session import Session

# pieces of shell syntax, glued randomly: they make far more interesting inputs than raw text
TOKENS = ["echo", "x=1", "$x", "${x:-a}", "${#x}", "${x//a/b}", "$((1+2))", "$(echo a)", "`echo b`",
          "|", "||", "&&", ";", "&", "\n", "(", ")", "{", "}", "if", "then", "else", "fi", "for",
          "in", "do", "done", "while", "case", "esac", ";;", "<<EOF", "EOF", "<<<", ">", ">>",
          "2>&1", "<", "'q'", '"d $x"', "$'\\n'", "*", "?", "[a-z]", "{1..3}", "~", "!", "[[", "]]",
          "-f", "==", "=~", "f()", "local", "return", "break", "set", "-e", "\\", "#c", "$@", "$?",
          "arr=(1 2)", "${arr[@]}", "declare", "-A", "read", "cat", "true", "false", "seq", "3"]

scripts = hs.lists(hs.sampled_from(TOKENS) | hs.text(max_size=6), max_size=25).map(" ".join)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(src=hs.text(max_size=80) | scripts)
def test_parser_never_raises(src):
    assert check_complete(src) in ("complete", "incomplete", "invalid")


_session: Session | None = None


def session() -> Session:
    global _session
    if _session is None:
        _session = Session(wall_time=2, commands=5000, stdout_bytes=20000, stderr_bytes=20000)
    return _session


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(src=scripts)
def test_interpreter_never_raises_and_ends_in_time(src):
    s = session()
    result, out, err, dt = s.run(src)
    assert dt < 6, f"{src!r} ran {dt:.1f}s"
    assert isinstance(result.status, int) and 0 <= result.status <= 255
    assert b"Traceback" not in err and b"internal error" not in err.lower(), (src, err)
    if result.status != 0:
        assert result.error is not None
