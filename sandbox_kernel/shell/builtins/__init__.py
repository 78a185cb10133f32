"""Shell builtins, one module per family; each registers its builtins on import."""
from __future__ import annotations

from . import (conditional, control, dirs, echo_printf, getopts, history, jobs, meta, process, read, resources,
    setopt, variables)
from .registry import BUILTINS, HELP, SPECIAL_BUILTINS, SYNC_BUILTINS, builtin, help_text

#: the modules that register builtins (imported for that)
FAMILIES = (conditional, control, dirs, echo_printf, getopts, history, jobs, meta, process, read, resources, setopt,
            variables)

__all__ = ["BUILTINS", "FAMILIES", "HELP", "SPECIAL_BUILTINS", "SYNC_BUILTINS", "builtin", "help_text"]
