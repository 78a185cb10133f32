"""printf held to bash's own builtin, and /usr/bin/printf (commands/echoprintf.py: what env,
xargs and find -exec run) to GNU coreutils' printf on this machine: random formats (flags,
widths, precisions, ``*``, length modifiers, every conversion, escapes, bad directives) and
random arguments (integers, floats in every spelling strtold reads, out-of-range and
malformed numbers, quoted characters, strings), the stdout and exit status compared (the
builtin with and without ``-v``). Derandomized: the same examples every run, so a failure is
reproducible and the run's time is fixed.

Left out of the strategy, and why:
- non-ASCII text (arguments, ``\\u`` escapes past U+007F): the oracle runs in the C locale,
  where ``'é`` is the code of a byte, ``%q`` quotes é as ``$'\\303\\251'`` and ``\\u00E9`` is
  written as text, and the sandbox models a UTF-8 one (tests/shell/cases/printf_*.sh hold
  byte-counted widths of UTF-8 text);
- widths and precisions from ``*`` past 1000 (a width of 2**31 makes bash write 2 GB, where
  the sandbox stops at its string limit);
- ``%(...)T`` formats finer than the year: "now" (``-1``, no argument) differs between the
  two processes; and times past the years 1 to 9999, which a Python datetime cannot hold
  (the sandbox's dates stop at those ends; glibc goes on to year 2**31+1899);
- an unterminated ``%(``: bash reads past the end of the format there."""
from __future__ import annotations

import shlex

from hypothesis import HealthCheck, example, given, settings, strategies as st

from tests.support.difftest import run_bash, run_sandbox
from tests.support.prereqs import host_tool
from sandbox_kernel.shell.builtins.echo_printf import _printf_integer

LITERALS = ["a", "b ", "|", "\n", "%%", "\\n", "\\t", "\\\\", "\\x41", "\\x", "\\xg", "\\101", "\\0", "\\18",
            "\\c", "\\'", '\\"', "\\?", "\\q", "\\u0041", "\\U0000007e", "\\uz", "\\e", "\\", "'"]
FLAGS = st.lists(st.sampled_from("#'-+ 0"), max_size=3).map("".join)
WIDTHS = st.sampled_from(["", "", "*", "1", "5", "12", "0", "08"])
PRECISIONS = st.sampled_from(["", "", "", ".", ".0", ".1", ".3", ".12", ".25", ".*", ".-2", ".-"])
MODIFIERS = st.sampled_from(["", "", "", "l", "ll", "h", "hh", "L", "j", "z", "t", "q"])
CONVERSIONS = st.sampled_from(list("csbqQdiouxXeEfFgGaA") + ["d", "s", "f", "g", "n", "y", "%", "(%Y)T", "(x)T",
                                                              "(%Y)X", "(%(%Y%))T", ""])
directive = st.builds(lambda *p: "%" + "".join(p), FLAGS, WIDTHS, PRECISIONS, MODIFIERS, CONVERSIONS)
formats = st.lists(st.sampled_from(LITERALS) | directive, min_size=1, max_size=5).map("".join)

NUMBERS = ["0", "1", "-1", "7", "42", "-12", "255", "5.25", "0.5", "1.5", "2.5", "-0", "-0.0", "0.1", "1e3",
           "1e-5", "2.5e20", "123456.789", "0x1f", "0X1F", "0x1p-3", "0x1.8p1", "0xf.8", "0x", "0x.8", "010",
           "08", "1e4000", "-1e4000", "1e-4940", "1e-5000", "0x1p-16445", ".5", "5.", "1e", "1e+", "+3",
           "inf", "-inf", "Infinity", "infx", "nan", "-nan", "NaN(12ab)", "nan(", "9223372036854775807",
           "9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
           "-18446744073709551615", "99999999999999999999", "1.18973149535723176502e+4932",
           "1.18973149535723176508e+4932", "3.64519953188247460253e-4951", "0.3333333333333333333333333",
           "9.9999999999999999999999", "0.95", "0.05", "1e16", "1e22", "12345678901234567890123"]
OTHER = ["", " 7", "7 ", "abc", "12abc", "'a", '"b', "'", "a b", "x\\ty", "\\c", "a\\cb", "\\0101", "\\x41",
         "ab\\", "x", "v_1", "1x", "%d", "-", "--"]
arguments = st.lists(st.sampled_from(NUMBERS + OTHER)
                     | st.integers(-(1 << 70), 1 << 70).map(str)
                     | st.floats(allow_nan=False).map(repr)
                     | st.floats(allow_nan=False).map(lambda f: f.hex()),
                     max_size=4)


def _bounded(fmt: str, args: list[str]) -> list[str]:
    """ARGS with what a ``*`` could read as a width or precision past 1000 made small."""
    if "*" not in fmt:
        return args
    return [a if abs(_printf_integer(a, [])) <= 1000 else "3" for a in args]


def _time_safe(fmt: str, args: list[str]) -> list[str]:
    """ARGS with what a ``%(...)T`` could read as a time past the years 1 to 9999 made 0."""
    if ")T" not in fmt:
        return args
    return [a if -62135596800 <= _printf_integer(a, []) <= 253402300799 else "0" for a in args]


def _script(fmt: str, args: list[str], var: bool) -> str:
    words = " ".join(shlex.quote(a) for a in [fmt, *args])
    if var:
        return f"v=old; printf -v v {words}; echo \" rc=$?\"; printf '%s' \"$v\" | od -An -c"
    return f"printf {words}; echo \" rc=$?\""


@host_tool("bash")
@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(fmt=formats, args=arguments, var=st.booleans())
@example(fmt="|%.*f|\n", args=["-12", "5.25"], var=False)
@example(fmt="[%.20f|%a|%.30e|%Lg]", args=["0.1", "1", "1.1", "1e4000"], var=False)
@example(fmt="%c|%5.2(%Y)T|%.-5d|%n", args=[], var=True)
def test_printf_matches_bash(fmt, args, var):
    args = _time_safe(fmt, _bounded(fmt, args))
    script = _script(fmt, args, var)
    want, got = run_bash(script), run_sandbox(script)
    assert (got.stdout, got.status) == (want.stdout, want.status), (
        f"\n--- script\n{script}\n--- bash\n{want.stdout!r}\n{want.stderr!r}\n--- ours\n{got.stdout!r}\n{got.stderr!r}")


@host_tool("bash")
@settings(max_examples=250, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(fmt=formats, args=arguments)
@example(fmt="a\\cb%d|%#d", args=["x"])
@example(fmt="%q|%b|%5.2q|%'.3f|%I5d", args=["a b", "a\\0101\\cb"])
def test_program_printf_matches_coreutils(fmt, args):
    script = f"env {_script(fmt, _bounded(fmt, args), False)}"
    want, got = run_bash(script), run_sandbox(script)
    assert (got.stdout, got.status) == (want.stdout, want.status), (
        f"\n--- script\n{script}\n--- coreutils\n{want.stdout!r}\n{want.stderr!r}"
        f"\n--- ours\n{got.stdout!r}\n{got.stderr!r}")
