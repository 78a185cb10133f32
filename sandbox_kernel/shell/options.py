"""The shell's options: ``set -o`` names with their letters, and ``shopt`` names, with the
values a new shell starts with. Shared by the interpreter and the set/shopt/bash builtins."""
from __future__ import annotations

SHOPT_DEFAULTS = {
    "nullglob": False, "failglob": False, "dotglob": False, "globstar": False, "extglob": False,
    "nocaseglob": False, "nocasematch": False, "expand_aliases": False, "lastpipe": False,
    "globskipdots": True, "sourcepath": True, "xpg_echo": False, "inherit_errexit": False,
    "checkwinsize": True, "cmdhist": True, "interactive_comments": True, "progcomp": True,
    "promptvars": True, "hostcomplete": True, "complete_fullquote": True, "extquote": True,
    "force_fignore": True, "patsub_replacement": True, "login_shell": False,
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
