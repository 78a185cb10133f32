"""`python -m sandbox_kernel COMMAND ...`: sh, install, kernel (launch), ..."""
from __future__ import annotations

import importlib
import sys

#: subcommand -> (module, function, one-line help). Each function takes argv (list) -> int.
SUBCOMMANDS = {
    "sh": ("sandbox_kernel.cli", "sh_main",
           "run a shell script in a fresh sandbox: sh [--limit NAME=VALUE]... [-c SCRIPT | FILE [ARGS...]]"),
    "install": ("sandbox_kernel.kernel.install", "install_main", "install the Jupyter kernelspec"),
    "kernel": ("sandbox_kernel.kernel.launch", "kernel_main", "launch the kernel (used by kernel.json)"),
    "run-tour": (
        "sandbox_kernel.kernel.tour",
        "tour_main",
        "install the kernelspec into this Python's prefix, execute notebooks/tour.ipynb, write build/tour.ipynb",
    ),
    "python-setup": (
        "sandbox_kernel.python.setup",
        "python_setup_main",
        "compile the %%python interpreter once per host into the shared cache (make does this)",
    ),
    "vm-image": (
        "sandbox_kernel.vm.setup",
        "vm_image_main",
        "build the %%vm guest image if needed and start the VM once (make run does this before the tour)",
    ),
}


def _drop_working_directory() -> None:
    """``python -m`` puts the working directory first on sys.path: a ``zoneinfo.py`` beside a
    notebook would be imported as ours. kernel.json starts us with ``-P``; for every other way
    in, drop the entry before anything else is imported."""
    if sys.flags.safe_path or not sys.path:
        return
    import os
    first = sys.path[0]
    if first in ("", ".") or os.path.abspath(first) == os.getcwd():
        del sys.path[0]


def main(argv: list[str] | None = None) -> int:
    _drop_working_directory()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print("usage: python -m sandbox_kernel COMMAND [ARGS...]\n\ncommands:")
        for name, (_, _, text) in SUBCOMMANDS.items():
            print(f"  {name:10} {text}")
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(f"sandbox_kernel: unknown command '{name}' (try --help)", file=sys.stderr)
        return 2
    module, func, _ = SUBCOMMANDS[name]
    return int(getattr(importlib.import_module(module), func)(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
