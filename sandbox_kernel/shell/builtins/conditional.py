"""test and [: conditional expressions of arguments (evaluated by the shell: eval/cond.py)."""
from __future__ import annotations


from ...lazy import TYPE_CHECKING
from ..state import ShellError, TestError
from .output import err
from .registry import builtin

if TYPE_CHECKING:
    from typing import Awaitable
    from ..api import Fds, ShellAPI


def _run_test(sh: ShellAPI, name: str, args: list[str], fds: Fds):
    try:
        return 0 if sh.evaluate_test(args) else 1
    except TestError as e:
        return _failed(sh, fds, name, str(e))
    except ShellError as e:
        return _failed(sh, fds, name, e.message)


async def _failed(sh: ShellAPI, fds: Fds, name: str, message: str) -> int:
    await err(sh, fds, name, message)
    return 2


@builtin("test", usage="test [expr]", text="""
Evaluate conditional expression. Exits with a status of 0 (true) or 1 (false) depending on
the evaluation of EXPR. File operators: -e -f -d -s -r -w -x -L -h -b -c -p -S -nt -ot -ef.
String operators: -z -n = != < >. Integer comparisons: -eq -ne -lt -le -gt -ge.
Other: -v VAR (variable is set), -o OPTION, ! EXPR, EXPR -a EXPR, EXPR -o EXPR, ( EXPR ).""", sync=True)
def b_test(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    return _run_test(sh, "test", argv[1:], fds)


@builtin(
    "[",
    usage="[ arg... ]",
    text=("Evaluate conditional expression. This is a synonym for the \"test\" builtin, but the last argument "
          "must be a literal `]', to match the opening `['."),
    sync=True,
)
def b_bracket(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    if argv[-1] != "]":
        return _failed(sh, fds, "[", "missing `]'")
    return _run_test(sh, "[", argv[1:-1], fds)
