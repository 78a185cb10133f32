"""getopts."""
from __future__ import annotations

from ...lazy import TYPE_CHECKING, lazy_compile
from ..syntax.lexer import is_name
from .output import err
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI

_ATOI = lazy_compile(r"[ \t\n\v\f\r]*([-+]?[0-9]+)")

#: getopts_state when no option group (-abc) is half read
NO_GROUP = (0, 0, None, None)


@builtin("getopts", usage="getopts optstring name [arg ...]", text="""
Parse option arguments. OPTSTRING contains the option letters to be recognized; a letter
followed by a colon expects an argument (put in OPTARG). Each call puts the next option in
the shell variable NAME and its index in OPTIND. A leading colon in OPTSTRING selects silent
error reporting. Returns non-zero at the end of the options.""")
async def b_getopts(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    if len(argv) >= 3 and not is_name(argv[2]):
        # bash parses the option (OPTIND, OPTARG move on) but sets no NAME and fails
        await _getopts(sh, argv, fds, None)
        await err(sh, fds, "getopts", f"`{argv[2]}': not a valid identifier")
        return 1
    return await _getopts(sh, argv, fds, argv[2] if len(argv) >= 3 else None)


async def _getopts(sh: ShellAPI, argv, fds: Fds, name):
    if len(argv) < 3:
        await sh.err(fds, "getopts: usage: getopts optstring name [arg ...]\n")
        return 2
    optstring = argv[1]
    args = argv[3:] if len(argv) > 3 else list(sh.positional)
    silent = optstring.startswith(":")
    if silent:
        optstring = optstring[1:]
    # OPTIND as bash reads it (atoi): empty -- a new `local OPTIND` --, 0, negative or not a
    # number all start afresh at 1
    m = _ATOI.match(sh.get_scalar("OPTIND") or "")
    optind = int(m.group(1)) if m and len(m.group(1)) < 12 else 0
    # where the last call stopped inside a group like -abc; it applies only to the same OPTIND
    # variable (not a new `local OPTIND`) and, for explicit arguments, the same ones
    last_ind, charpos, last_var, last_args = sh.getopts_state
    source = list(args) if len(argv) > 3 else None
    if last_ind != optind or charpos == 0 or last_var is not sh.lookup_raw("OPTIND") or last_args != source:
        charpos = 1
    if optind < 1:
        optind = 1
    if optind > len(args):
        return _end_of_options(sh, name, len(args) + 1)
    arg = args[optind - 1]
    if charpos == 1:
        if arg == "--":
            return _end_of_options(sh, name, optind + 1)
        if not arg.startswith("-") or arg == "-":
            return _end_of_options(sh, name, optind)
    opt = arg[charpos]
    charpos += 1
    at_end = charpos >= len(arg)
    idx = optstring.find(opt) if opt != ":" else -1
    if idx < 0:
        if silent:
            sh.set_var("OPTARG", opt)
        else:
            await sh.err(fds, f"{sh.arg0}: illegal option -- {opt}\n")  # getopt's message: $0, no line
            sh.unset_var("OPTARG")
        _set_name(sh, name, "?")
        if at_end:
            optind += 1
            charpos = 0
        sh.set_var("OPTIND", str(optind))
        sh.getopts_state = (optind, charpos, sh.lookup_raw("OPTIND"), source)
        return 0
    if idx + 1 < len(optstring) and optstring[idx + 1] == ":":
        if not at_end:
            sh.set_var("OPTARG", arg[charpos:])
            optind += 1
        elif optind < len(args):
            sh.set_var("OPTARG", args[optind])
            optind += 2
        else:
            optind += 1
            sh.set_var("OPTIND", str(optind))
            sh.getopts_state = NO_GROUP
            if silent:
                _set_name(sh, name, ":")
                sh.set_var("OPTARG", opt)
            else:
                await sh.err(fds, f"{sh.arg0}: option requires an argument -- {opt}\n")
                _set_name(sh, name, "?")
                sh.unset_var("OPTARG")
            return 0
        charpos = 0
    else:
        sh.unset_var("OPTARG")
        if at_end:
            optind += 1
            charpos = 0
    _set_name(sh, name, opt)
    sh.set_var("OPTIND", str(optind))
    sh.getopts_state = (optind, charpos, sh.lookup_raw("OPTIND"), source)
    return 0


def _end_of_options(sh: ShellAPI, name: str, optind: int) -> int:
    """No option left: bash sets OPTIND (where the operands start) and NAME=? in any case,
    and unsets OPTARG."""
    sh.set_var("OPTIND", str(optind))
    sh.unset_var("OPTARG")
    _set_name(sh, name, "?")
    sh.getopts_state = NO_GROUP
    return 1


def _set_name(sh: ShellAPI, name: str | None, value: str) -> None:
    if name is not None:
        sh.set_var(name, value)
