"""`python -m sandbox_kernel sh -c true` starts without what running `true` does not need
(issue #29: 130 ms, now ~50 ms). Not a timed test, which a loaded machine would make flaky:
the start must not import the modules made lazy (aio.py, lazy.py) nor compile a regex."""
from __future__ import annotations

import subprocess
import sys

import pytest

#: what `sh -c true` must not import, and why it need not
HEAVY = {
    "asyncio": "aio.py: the event loop starts when a run first needs one",
    "dataclasses": "the records the start makes are plain classes (limits, engine, registry, syntax tree)",
    "inspect": "dataclasses' (and asyncio's)",
    "regex": "[[ =~ ]] and extglob groups only (cond.py, pattern.py)",
    "json": "rich output and policy options only",
    "argparse": "the admin's policy options only (policy.py)",
    "tarfile": "archives only (vfs.tar)",
    "zoneinfo": "dates only (commands._lib.dates: printf %(...)T)",
    "datetime": "dates only",
    "signal": "strsignal only (builtins.jobs)",
    "random": "$RANDOM and /dev/random only",
    "typing": "annotations only (lazy.TYPE_CHECKING, lazy.cast); the loop imports it when a run needs one",
    "pkgutil": "commands.load_all only",
    "sandbox_kernel.policy": "a sandbox without a policy makes Policy() when asked for (Sandbox.policy)",
    "sandbox_kernel.vfs.tar": "archives only",
    "sandbox_kernel.commands._lib.posix_regex": "[[ =~ ]] only",
    "sandbox_kernel.commands._lib.dates": "printf %(...)T only",
}
#: the commands package's modules a start may import: the API, not a command
COMMANDS_API = {"sandbox_kernel.commands", "sandbox_kernel.commands.registry", "sandbox_kernel.commands.options",
                "sandbox_kernel.commands.index", "sandbox_kernel.commands._lib",
                "sandbox_kernel.commands._lib.quoting"}

# `python -m sandbox_kernel ARGS` in-process, then what it imported and how many regexes the
# re module compiled (its cache); without ARGS, what the probe itself imports
PROBE = """
import re, runpy, sys
status = None
if sys.argv[1:]:
    sys.argv = ["sandbox_kernel", *sys.argv[1:]]
    try:
        runpy.run_module("sandbox_kernel", run_name="__main__", alter_sys=True)
    except SystemExit as e:
        status = e.code
print("\\nprobe:", status, len(getattr(re, "_cache", ())), *sorted(sys.modules))
"""


def probe(*args: str) -> tuple[object, int, set[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120,
                          check=True)
    status, patterns, *modules = done.stdout.rpartition("\nprobe: ")[2].split()
    return status, int(patterns), set(modules)


@pytest.fixture(scope="module")
def baseline():
    return probe()


def test_sh_c_true_imports_only_what_it_needs(baseline):
    _, patterns_before, before = baseline
    status, patterns, after = probe("sh", "-c", "true")
    assert status == "0"
    imported = after - before
    heavy = {name: why for name, why in HEAVY.items() if name in imported}
    assert heavy == {}
    commands = {name for name in imported if name.startswith("sandbox_kernel.commands")} - COMMANDS_API
    assert commands == set()  # a command module loads on the first use of one of its commands
    assert patterns == patterns_before  # module-level patterns compile on first use (lazy_compile)


@pytest.mark.parametrize("script, loaded", [
    ("sleep 0", {"asyncio"}),  # a command: the loop starts
    ("true | true", {"asyncio"}),  # a pipeline's stages
    ("[[ a =~ a ]]", {"regex", "sandbox_kernel.commands._lib.posix_regex"}),
    ("printf '%(%Y)T' 0", {"zoneinfo", "sandbox_kernel.commands._lib.dates"}),
])
def test_what_a_script_uses_is_imported_when_it_is_used(baseline, script, loaded):
    status, _, after = probe("sh", "-c", script)
    assert status == "0"
    assert loaded <= after - baseline[2]
