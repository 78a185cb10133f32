"""The shell's options: ``set -o`` names with their letters, and ``shopt`` names, with the
values a new shell starts with. Shared by the interpreter and the set/shopt/bash builtins."""
from __future__ import annotations

#: bash 5.2's shopt names in the order ``shopt`` lists them (most are accepted and have no
#: effect in the sandbox)
SHOPT_DEFAULTS = {
    "autocd": False, "assoc_expand_once": False, "cdable_vars": False, "cdspell": False,
    "checkhash": False, "checkjobs": False, "checkwinsize": True, "cmdhist": True,
    "compat31": False, "compat32": False, "compat40": False, "compat41": False, "compat42": False,
    "compat43": False, "compat44": False, "complete_fullquote": True, "direxpand": False,
    "dirspell": False, "dotglob": False, "execfail": False, "expand_aliases": False,
    "extdebug": False, "extglob": False, "extquote": True, "failglob": False, "force_fignore": True,
    "globasciiranges": True, "globskipdots": True, "globstar": False, "gnu_errfmt": False,
    "histappend": False, "histreedit": False, "histverify": False, "hostcomplete": True,
    "huponexit": False, "inherit_errexit": False, "interactive_comments": True, "lastpipe": False,
    "lithist": False, "localvar_inherit": False, "localvar_unset": False, "login_shell": False,
    "mailwarn": False, "no_empty_cmd_completion": False, "nocaseglob": False, "nocasematch": False,
    "noexpand_translation": False, "nullglob": False, "patsub_replacement": True, "progcomp": True,
    "progcomp_alias": False, "promptvars": True, "restricted_shell": False, "shift_verbose": False,
    "sourcepath": True, "varredir_close": False, "xpg_echo": False,
}
OPTION_DEFAULTS = {
    "errexit": False, "nounset": False, "xtrace": False, "pipefail": False, "noglob": False,
    "noclobber": False, "allexport": False, "verbose": False, "noexec": False, "monitor": False,
    "braceexpand": True, "hashall": True, "interactive-comments": True, "posix": False,
    "errtrace": False, "functrace": False, "notify": False, "onecmd": False, "physical": False,
    "privileged": False, "keyword": False, "nolog": False, "emacs": False, "vi": False,
    "histexpand": False, "history": False, "ignoreeof": False,
}
OPTION_LETTERS = {"e": "errexit", "u": "nounset", "x": "xtrace", "f": "noglob", "C": "noclobber",
                  "a": "allexport", "v": "verbose", "n": "noexec", "m": "monitor", "B": "braceexpand",
                  "h": "hashall", "E": "errtrace", "T": "functrace", "b": "notify", "t": "onecmd",
                  "P": "physical", "p": "privileged", "k": "keyword", "H": "histexpand"}
#: the order of the letters in ``$-`` (bash's flag table)
FLAG_ORDER = "abefhikmnptuvxBCEHPT"


def option_flags(options: dict, interactive: bool, command_string: bool) -> str:
    """``$-``: the letters of the options that are on, in bash's order, then ``c`` for
    ``bash -c``."""
    flags = [ch for ch in FLAG_ORDER if (interactive if ch == "i" else options.get(OPTION_LETTERS.get(ch, "")))]
    if command_string:
        flags.append("c")
    return "".join(flags)


def shellopts(options: dict) -> str:
    """``$SHELLOPTS``: the ``set -o`` options that are on, colon-separated."""
    return ":".join(name for name in sorted(options) if options[name])


def bashopts(shopts: dict) -> str:
    """``$BASHOPTS``: the ``shopt`` options that are on, colon-separated."""
    return ":".join(name for name in sorted(shopts) if shopts[name])
