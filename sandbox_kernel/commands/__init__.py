"""Coreutils over the VFS: every command module in this package registers its commands on
import. registry, options and index are the package's infrastructure and _lib holds the helpers
commands share; none of them registers a command."""
from __future__ import annotations

import importlib

from .index import COMMAND_MODULES
from .registry import CommandContext, command, invoke, lookup, names

__all__ = ["CommandContext", "command", "lookup", "names", "invoke", "load_all"]

#: modules of this package that register no command
_INFRASTRUCTURE = {"registry", "options", "index"}


def load_all() -> None:
    """Import every command module (each registers itself): this package's, its subpackages'
    (archive, awk, jq, sed), and the engines' command modules the index names (js.commands, vm.commands)."""
    import pkgutil  # here: a run loads the commands it uses (index.py), never this walk

    for info in pkgutil.walk_packages(__path__, prefix=f"{__name__}."):
        short = info.name.removeprefix(f"{__name__}.")
        if short not in _INFRASTRUCTURE and not short.startswith("_lib"):
            importlib.import_module(info.name)
    for module in COMMAND_MODULES:
        importlib.import_module(f"sandbox_kernel.{module}")
