"""Command-line handling of `python3` / `python` (CPython's own options where they make sense)
and `pip`, which installs nothing: it says what the interpreter has."""
from __future__ import annotations

from dataclasses import dataclass, field

VERSION = "Python 3.15.0"

HELP = """\
usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
Run Python (CPython 3.15 in WebAssembly) on the sandbox filesystem; `python` is an alias.
stdin, stdout and stderr are the pipeline's: `cat data.csv | python3 script.py | sort` works.

  -c cmd   program passed in as string (terminates option list)
  -m mod   run library module as a script (terminates option list)
  file     program read from script file
  -        program read from stdin (default; interactive mode is not available)
  -V       print the Python version number and exit (also --version)
  -h       print this help message and exit (also --help)
  -u -B -E -I -s -S -O -q -b -X opt -W arg   accepted and ignored

Each command is a fresh interpreter; %%python cells share one of their own.
numpy, pandas, scipy, scikit-learn, statsmodels, matplotlib, pillow, sympy, networkx and more
are built in (`pip list`); nothing can be installed (`pip install` says why)."""

#: options without an argument that CPython accepts and we ignore
_IGNORED_FLAGS = set("uBEIsSOqbdvRP")
_IGNORED_WITH_ARG = set("XW")


@dataclass
class Plan:
    mode: str = "stdin"              # "c" | "m" | "file" | "stdin"
    target: str | None = None        # the code, the module, the script
    argv: list[str] = field(default_factory=list)


@dataclass
class Exit:
    status: int
    stdout: str = ""
    stderr: str = ""


def parse(args: list[str]) -> Plan | Exit:
    """CPython's command line: options up to -c/-m/a file/-, the rest is the program's."""
    k = 0
    while k < len(args):
        arg = args[k]
        if arg == "--":
            k += 1
            break
        if arg in ("--version",):
            return Exit(0, VERSION + "\n")
        if arg in ("--help", "--help-all"):
            return Exit(0, HELP + "\n")
        if not arg.startswith("-") or arg == "-":
            break
        if arg.startswith("--"):
            return Exit(2, stderr=f"unknown option {arg}\nusage: python3 [option] ... [-c cmd | -m mod | file | -] "
                                  "[arg] ...\nTry `python -h' for more information.\n")
        j = 1
        while j < len(arg):
            c = arg[j]
            if c == "c" or c == "m":
                rest = arg[j + 1:]
                if not rest:
                    if k + 1 >= len(args):
                        return Exit(2, stderr=f"Argument expected for the -{c} option\nusage: python3 [option] ... "
                                              "[-c cmd | -m mod | file | -] [arg] ...\n"
                                              "Try `python -h' for more information.\n")
                    rest = args[k + 1]
                    k += 1
                after = args[k + 1:]
                if c == "c":
                    return Plan("c", rest, ["-c", *after])
                return Plan("m", rest, [rest, *after])
            if c == "V":
                return Exit(0, VERSION + "\n")
            if c == "h" or c == "?":
                return Exit(0, HELP + "\n")
            if c == "i":
                return Exit(2, stderr="python3: -i: interactive mode is not available in the sandbox "
                                      "(use a %%python cell)\n")
            if c in _IGNORED_WITH_ARG:
                if j + 1 >= len(arg):
                    k += 1
                break
            if c not in _IGNORED_FLAGS:
                return Exit(2, stderr=f"Unknown option: -{c}\nusage: python3 [option] ... [-c cmd | -m mod | "
                                      "file | -] [arg] ...\nTry `python -h' for more information.\n")
            j += 1
        k += 1
    rest = args[k:]
    if not rest:
        return Plan("stdin", None, [""])
    if rest[0] == "-":
        return Plan("stdin", None, ["-", *rest[1:]])
    return Plan("file", rest[0], list(rest))


PIP_HELP = """\
pip in the sandbox installs nothing: Python here is one WebAssembly module with its packages
compiled in, and the sandbox has no network for Python. `pip list` shows what is there;
`pip show NAME` tells whether NAME is one of them. Pure-Python code can still be used: put
its .py files in the workspace (the current folder is on sys.path for scripts and cells)."""


def pip(args: list[str], packages: list[tuple[str, str]]) -> Exit:
    """`pip` answers from the artefact's package list (MANIFEST)."""
    names = {name.lower().replace("_", "-"): (name, version) for name, version in packages}
    if not args or args[0] in ("-h", "--help", "help"):
        return Exit(0, PIP_HELP + "\n")
    sub, rest = args[0], [a for a in args[1:] if not a.startswith("-")]
    if sub in ("--version", "-V"):
        return Exit(0, "pip (sandbox: no installs; python 3.15)\n")
    if sub in ("list", "freeze"):
        width = max((len(n) for n, _ in packages), default=7)
        if sub == "freeze":
            return Exit(0, "".join(f"{n}=={v}\n" for n, v in sorted(packages, key=lambda p: p[0].lower())))
        lines = [f"{'Package':<{width}} Version", f"{'-' * width} -------"]
        lines += [f"{n:<{width}} {v}" for n, v in sorted(packages, key=lambda p: p[0].lower())]
        return Exit(0, "\n".join(lines) + "\n")
    if sub == "show":
        out, missing = [], []
        for want in rest:
            found = names.get(want.lower().replace("_", "-"))
            if found:
                out.append(f"Name: {found[0]}\nVersion: {found[1]}\nLocation: built into the sandbox's Python")
            else:
                missing.append(want)
        err = "".join(f"WARNING: Package(s) not found: {m}\n" for m in missing)
        return Exit(1 if missing else 0, "\n---\n".join(out) + ("\n" if out else ""), err)
    if sub in ("install", "download", "wheel"):
        have = [names[r.split("==")[0].split(">=")[0].lower().replace("_", "-")] for r in rest
                if r.split("==")[0].split(">=")[0].lower().replace("_", "-") in names]
        lacking = [r for r in rest if r.split("==")[0].split(">=")[0].lower().replace("_", "-") not in names]
        out = "".join(f"Requirement already satisfied: {n} {v} (built into the sandbox's Python)\n" for n, v in have)
        err = ""
        if lacking:
            err = (f"ERROR: cannot install {', '.join(lacking)}: the sandbox's Python installs no packages "
                   "(its packages are compiled into one WebAssembly module and it has no network). "
                   "`pip list` shows what is available.\n")
        return Exit(1 if lacking else 0, out, err)
    if sub == "uninstall":
        return Exit(1, stderr="ERROR: the sandbox's Python packages are built in and cannot be uninstalled\n")
    return Exit(1, stderr=f"ERROR: unknown command \"{sub}\" (the sandbox's pip knows list, freeze, show, install)\n")
