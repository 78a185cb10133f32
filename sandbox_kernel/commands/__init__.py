"""Coreutils over the VFS: every module in this package registers its commands on import."""
from __future__ import annotations

import importlib
import pkgutil

from .index import COMMAND_MODULES
from .registry import CommandContext, command, lookup, names, invoke

__all__ = ["CommandContext", "command", "lookup", "names", "invoke", "load_all"]

#: modules of this package that register no command
_SKIP = {"registry", "options", "index"}


def load_all() -> None:
    """Import every command module (each registers itself): this package's, and the engines'
    command modules the index names (js.commands, vm.commands)."""
    for info in pkgutil.iter_modules(__path__):
        if info.name not in _SKIP and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    for module in COMMAND_MODULES:
        importlib.import_module(f"sandbox_kernel.{module}")
