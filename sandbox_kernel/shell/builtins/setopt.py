"""Shell options: set and shopt."""
from __future__ import annotations

from ...lazy import TYPE_CHECKING
from ..syntax.printer import format_function
from ..options import OPTION_DEFAULTS, OPTION_LETTERS
from .output import err, out
from .registry import builtin
from .variables import set_line
from ..state import AbortCommand

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI


def _print_options(sh: ShellAPI, plus: bool) -> str:
    lines = []
    for name in sorted(OPTION_DEFAULTS):
        on = sh.options.get(name, False)
        if plus:
            lines.append(f"set {'-' if on else '+'}o {name}")
        else:
            lines.append(f"{name:<15}\t{'on' if on else 'off'}")
    return "".join(l + "\n" for l in lines)


@builtin("set", usage="set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", text="""
Set or unset values of shell options and positional parameters.
  -e  exit immediately if a command exits with a non-zero status
  -u  treat unset variables as an error when substituting
  -x  print commands and their arguments as they are executed
  -f  disable file name generation (globbing)
  -a  mark variables which are modified or created for export
  -C  do not overwrite existing files with >
  -o option-name  set the option: errexit nounset xtrace noglob pipefail noclobber allexport ...
  --  assign any remaining arguments to the positional parameters
Using + rather than - causes these flags to be turned off. Without arguments, set prints the
names and values of all shell variables.""")
async def b_set(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    if not args:
        lines = [set_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.value is not None]
        text = "".join(l + "\n" for l in lines)
        for name in sorted(sh.functions):
            text += format_function(sh.functions[name]) + "\n"
        await out(fds, text)
        return 0
    try:
        status = await _set_options(sh, args, fds)
    finally:
        sh.sync_option_vars()
    if sh.options["noexec"] and not sh.interactive:
        # bash -n: read the rest of the script without running it (run_source skips it)
        raise AbortCommand(status)
    return status


async def _set_options(sh: ShellAPI, args: list[str], fds: Fds) -> int:
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            sh.set_positional(args[i + 1:], "set")
            return 0
        if a == "-":
            # the end of the options; -x and -v go off; no arguments keep the positionals
            sh.own_tables()
            sh.options["xtrace"] = sh.options["verbose"] = False
            if i + 1 < len(args):
                sh.set_positional(args[i + 1:], "set")
            return 0
        if a == "+":
            i += 1
            continue
        if len(a) < 2 or a[0] not in "-+":
            sh.set_positional(args[i:], "set")
            return 0
        on = a[0] == "-"
        for c in a[1:]:
            if c == "o":
                if i + 1 >= len(args):
                    await out(fds, _print_options(sh, not on))
                    return 0
                i += 1
                name = args[i]
                if name not in OPTION_DEFAULTS:
                    await err(sh, fds, "set", f"{name}: invalid option name")
                    return 2
                set_option(sh, name, on)
            elif c in OPTION_LETTERS:
                set_option(sh, OPTION_LETTERS[c], on)
            else:
                await err(sh, fds, "set", f"{a[0]}{c}: invalid option")
                await sh.err(fds, "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n")
                return 2
        i += 1
    return 0


def set_option(sh: ShellAPI, name: str, on: bool) -> None:
    sh.own_tables()
    sh.options[name] = on
    if name in ("emacs", "vi") and on:
        sh.options["vi" if name == "emacs" else "emacs"] = False


@builtin("shopt", usage="shopt [-pqsu] [-o] [optname ...]", text="""
Set and unset shell options.
  -o  restrict OPTNAMEs to those defined for use with `set -o'
  -p  print each shell option with an indication of its status
  -q  suppress output
  -s  enable (set) each OPTNAME
  -u  disable (unset) each OPTNAME
Options include nullglob failglob dotglob globstar extglob nocaseglob nocasematch
expand_aliases lastpipe xpg_echo.""")
async def b_shopt(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    mode = None
    quiet = print_form = use_set = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        for c in args[0][1:]:
            if c in "su":
                mode = c
            elif c == "q":
                quiet = True
            elif c == "p":
                print_form = True
            elif c == "o":
                use_set = True
            else:
                await err(sh, fds, "shopt", f"-{c}: invalid option")
                await sh.err(fds, "shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
                return 2
        args = args[1:]
    table = sh.options if use_set else sh.shopts
    invalid = "invalid option name" if use_set else "invalid shell option name"
    status = 0
    if mode is not None and args:
        sh.own_tables()
        table = sh.options if use_set else sh.shopts
        for name in args:
            if name not in table:
                await err(sh, fds, "shopt", f"{name}: {invalid}")
                status = 1
                continue
            if use_set:
                set_option(sh, name, mode == "s")
            else:
                table[name] = mode == "s"
        sh.sync_option_vars()
        return status
    names = args or (sorted(table) if use_set else list(table))
    lines = []
    for name in names:
        if name not in table:
            await err(sh, fds, "shopt", f"{name}: {invalid}")
            status = 1
            continue
        on = table[name]
        if mode == "s" and not on or mode == "u" and on:
            continue
        if args and not on:
            status = 1
        if print_form:
            lines.append(f"set {'-' if on else '+'}o {name}" if use_set else f"shopt -{'s' if on else 'u'} {name}")
        else:
            lines.append(f"{name:<15}\t{'on' if on else 'off'}")
    if not quiet:
        await out(fds, "".join(l + "\n" for l in lines))
    return status
