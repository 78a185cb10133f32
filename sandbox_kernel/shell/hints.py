"""What "command not found" adds for programs people expect on a Linux box: where the
sandbox has them instead (or why it has none)."""
from __future__ import annotations

_PYTHON = "python3 runs in the notebook's microVM: a %%vm cell, or `vm python3 ...` from here"
_PIP = "pip is not installed here; %%vm cells have python3 with its standard library"
_NET = "the shell has no network; a %%vm cell can reach the hosts the notebook's policy allows (python3 urllib)"
_NODE = "JavaScript runs in-sandbox as `js FILE` / `node FILE` (QuickJS) or in a %%js cell; there is no npm"

#: command name -> the hint shown after "NAME: command not found"
NOT_FOUND_HINTS: dict[str, str] = {
    "python": _PYTHON, "python3": _PYTHON, "ipython": _PYTHON,
    "pip": _PIP, "pip3": _PIP, "conda": _PIP,
    "curl": _NET, "wget": _NET, "ssh": _NET, "git": "git is not installed here (and the shell has no network)",
    "npm": _NODE, "npx": _NODE, "nodejs": _NODE, "deno": _NODE,
    "sudo": "there is no root in the sandbox: you are `user`, and /workspace and your home are yours",
}


def not_found_message(name: str) -> str:
    """The shell's message for a command NAME that is nowhere on PATH."""
    hint = NOT_FOUND_HINTS.get(name)
    return f"{name}: command not found" + (f" ({hint})" if hint else "")
