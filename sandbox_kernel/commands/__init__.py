"""Coreutils over the VFS: every module in this package registers its commands on import."""
from __future__ import annotations

import importlib
import pkgutil

from .registry import CommandContext, command, lookup, names, invoke

__all__ = ["CommandContext", "command", "lookup", "names", "invoke", "load_all"]

_SKIP = {"registry", "options"}


def load_all() -> None:
    """Import every command module of the package (each registers itself)."""
    for info in pkgutil.iter_modules(__path__):
        if info.name not in _SKIP and not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
