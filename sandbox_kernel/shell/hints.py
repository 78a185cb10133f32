"""What "command not found" adds for programs people expect on a Linux box: where the
sandbox has them instead (or why it has none)."""
from __future__ import annotations

_PYTHON = "python3 and %%python cells run CPython here, with numpy, pandas and matplotlib built in"
_PIP = "packages cannot be installed here; python3 has numpy, pandas, scipy, matplotlib ... built in (`pip list`)"
_NET = "the shell has no network; a %%vm cell can reach the hosts the notebook's policy allows (python3 urllib)"
_NODE = "JavaScript runs in-sandbox as `js FILE` / `node FILE` (QuickJS) or in a %%js cell; there is no npm"

#: command name -> the hint shown after "NAME: command not found"
NOT_FOUND_HINTS: dict[str, str] = {
    "ipython": _PYTHON, "python2": _PYTHON, "jupyter": _PYTHON,
    "conda": _PIP, "mamba": _PIP,
    "curl": _NET, "wget": _NET, "ssh": _NET, "git": "git is not installed here (and the shell has no network)",
    "npm": _NODE, "npx": _NODE, "nodejs": _NODE, "deno": _NODE,
    "sudo": "there is no root in the sandbox: you are `user`, and /workspace and your home are yours",
}


def not_found_message(name: str) -> str:
    """The shell's message for a command NAME that is nowhere on PATH."""
    hint = NOT_FOUND_HINTS.get(name)
    return f"{name}: command not found" + (f" ({hint})" if hint else "")
