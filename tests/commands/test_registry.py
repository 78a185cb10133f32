"""The command index (commands/index.py) lists exactly what the modules register, and a
sandbox starts without importing the command modules."""
from __future__ import annotations

import subprocess
import sys

from sandbox_kernel.commands import load_all, registry
from sandbox_kernel.commands.index import COMMAND_MODULES


def test_index_matches_the_registrations():
    load_all()
    registered: dict[str, set[str]] = {}
    for name, spec in registry.COMMANDS.items():
        registered.setdefault(spec.func.__module__.removeprefix("sandbox_kernel."), set()).add(name)
    indexed = {module: set(names.split()) for module, names in COMMAND_MODULES.items()}
    assert indexed == registered, "update sandbox_kernel/commands/index.py"


def test_commands_load_on_first_use_only():
    code = ("import sys\n"
            "from sandbox_kernel.sandbox import Sandbox\n"
            "from sandbox_kernel.commands import lookup\n"
            "sb = Sandbox()\n"
            "loaded = lambda m: f'sandbox_kernel.commands.{m}' in sys.modules\n"
            "assert not loaded('jq') and not loaded('sort'), 'imported at start'\n"
            "assert sb.fs.exists('/usr/bin/jq') and sb.fs.exists('/usr/bin/sort')\n"
            "assert lookup('sort').name == 'sort' and loaded('sort') and not loaded('jq')\n"
            "assert lookup('no-such-command') is None\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
