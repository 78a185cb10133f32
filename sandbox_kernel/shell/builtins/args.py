"""Builtin arguments read the way bash reads them (its ``internal_getopt``)."""
from __future__ import annotations

from ...lazy import TYPE_CHECKING
from ...chars import isdigits, parse_int
from ..state import ShellError
from .registry import HELP

if TYPE_CHECKING:
    from ..api import ShellAPI


def bash_int(text: str) -> int:
    """int() as bash reads a builtin's number (ValueError otherwise)."""
    n = parse_int(text)
    if n is None:
        raise ValueError(text)
    return n


def usage_error(name: str, message: str | None = None, status: int = 2) -> ShellError:
    """``NAME: MESSAGE`` and then bash's ``NAME: usage: ...`` line (status 2, as bash)."""
    usage = f"{name}: usage: {HELP[name][0]}" if name in HELP else f"{name}: usage error"
    return ShellError(f"{name}: {message}\n{usage}" if message else usage, status)


def too_many_arguments(sh: ShellAPI, name: str) -> ShellError:
    """What bash does on ``shift 1 2``, ``exit 1 2``, ``continue 1 2``: the command line is
    abandoned with status 1 and a ``bash -c`` string ends there (a script goes on)."""
    return ShellError(f"{name}: too many arguments", 1, fatal=sh.command_string, abort=True)


def parse_options(argv: list[str], letters: str, numbers: bool = False,
                  plus: bool = False) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Split ``argv`` (``argv[0]`` is the builtin's name) into options and operands.

    ``letters`` lists the option letters, each followed by ``:`` when it takes a value (in the
    same word or the next). Options end at ``--`` (dropped), at ``-`` alone or at the first
    word not starting with ``-``; with ``numbers``, ``-N`` and ``+N`` words are operands (the
    directory-stack builtins); with ``plus``, ``+x`` turns option x off and is returned as
    ``"+x"``. An unknown letter or a missing value raises ``usage_error``."""
    name = argv[0]
    opts: list[tuple[str, str | None]] = []
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        sign = word[:1]
        if len(word) < 2 or sign not in ("-", "+") or (sign == "+" and not plus):
            break
        if numbers and isdigits(word[1:]):
            break
        j = 1
        while j < len(word):
            c = word[j]
            at = letters.find(c)
            if at < 0 or c == ":":
                raise usage_error(name, f"{sign}{c}: invalid option")
            if letters[at + 1:at + 2] != ":":
                opts.append((c if sign == "-" else "+" + c, None))
                j += 1
                continue
            value = word[j + 1:]
            if not value:
                i += 1
                if i >= len(argv):
                    raise usage_error(name, f"{sign}{c}: option requires an argument")
                value = argv[i]
            opts.append((c if sign == "-" else "+" + c, value))
            break
        i += 1
    return opts, argv[i:]
