"""``python -m sandbox_kernel install``: install the ``sandbox`` kernelspec, like ipykernel does."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from .. import policy
from ..kernelspec import SPEC_DIR, SPEC_FILES

DEFAULT_NAME = "sandbox"
SPEC_DIR_MODE, SPEC_FILE_MODE = 0o755, 0o644


def build_spec(display_name: str | None = None, interrupt_mode: str | None = None,
               python: str | None = None, policy_argv: list[str] | None = None,
               policy_in_env: bool = False) -> dict:
    """kernel.json for this Python: the shipped spec with argv[0] set to the interpreter and
    the admin's policy options before the connection file, or (``policy_in_env``) in the
    environment, for launchers that replace the argv (Enterprise Gateway's)."""
    spec = json.loads((SPEC_DIR / "kernel.json").read_text(encoding="utf-8"))
    spec["argv"][0] = python or sys.executable
    if policy_in_env:
        spec["env"][policy.POLICY_ENV] = json.dumps(list(policy_argv or []))
        # Enterprise Gateway's kernel-pod bootstrap picks its launcher by this (the kernel class is Python)
        spec["env"]["KERNEL_LANGUAGE"] = "python"
    elif policy_argv:
        at = spec["argv"].index("-f")
        spec["argv"][at:at] = list(policy_argv)
    if display_name:
        spec["display_name"] = display_name
    if interrupt_mode:
        spec["interrupt_mode"] = interrupt_mode
    return spec


def install(name: str = DEFAULT_NAME, user: bool = False, prefix: str | None = None,
            display_name: str | None = None, interrupt_mode: str | None = None,
            policy_argv: list[str] | None = None, policy_in_env: bool = False) -> str:
    """Install the kernelspec; returns the directory it went to."""
    from jupyter_client.kernelspec import KernelSpecManager

    with tempfile.TemporaryDirectory() as tmp:
        for fname in SPEC_FILES[1:]:
            shutil.copy(SPEC_DIR / fname, Path(tmp) / fname)
        spec = build_spec(display_name, interrupt_mode, policy_argv=policy_argv, policy_in_env=policy_in_env)
        (Path(tmp) / "kernel.json").write_text(json.dumps(spec, indent=1, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
        # every user starts kernels from it (a system install, a JupyterHub image): the temporary
        # directory is 0700 and the files follow the umask, and copytree keeps both
        os.chmod(tmp, SPEC_DIR_MODE)
        for fname in SPEC_FILES:
            os.chmod(Path(tmp) / fname, SPEC_FILE_MODE)
        return KernelSpecManager().install_kernel_spec(tmp, name, user=user, prefix=prefix)


def install_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sandbox_kernel install",
        description="Install the sandbox kernelspec so Jupyter front ends can start the kernel.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="install for the current user (~/.local/share/jupyter)")
    where.add_argument("--sys-prefix", action="store_true",
                       help=f"install into this Python's prefix ({sys.prefix}), e.g. a venv")
    where.add_argument("--prefix", metavar="P", help="install under PREFIX/share/jupyter/kernels")
    parser.add_argument("--name", default=DEFAULT_NAME, help=f"kernelspec name (default: {DEFAULT_NAME})")
    parser.add_argument("--display-name", metavar="D", help="name shown in the launcher")
    parser.add_argument("--interrupt-mode", choices=("message", "signal"),
                        help="how front ends interrupt the kernel (default: message)")
    parser.add_argument("--policy-in-env", action="store_true",
                        help=f"write the policy into the kernelspec's env ({policy.POLICY_ENV}, with "
                             "KERNEL_LANGUAGE=python) instead of its argv: for Enterprise Gateway, whose "
                             "launchers start the kernel class with argv of their own (docs/deploy.md)")
    parser.add_argument("--vm-image", action="store_true",
                        help="also build the %%%%vm guest image now and boot it once (what the first %%%%vm "
                             "cell would otherwise wait for, 1-3 min), into the cache of the user running "
                             "this (SANDBOX_KERNEL_CACHE or ~/.cache/sandbox-kernel; readable by every uid)")
    policy.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        policy.from_arguments(args)
    except ValueError as e:
        parser.error(str(e))
    if not args.name or not all(c.isalnum() or c in "-._" for c in args.name):
        parser.error(f"invalid kernelspec name '{args.name}' (letters, digits, '-', '.', '_')")
    prefix = sys.prefix if args.sys_prefix else args.prefix
    try:
        path = install(args.name, user=args.user, prefix=prefix, display_name=args.display_name,
                       interrupt_mode=args.interrupt_mode, policy_argv=policy.to_argv(args),
                       policy_in_env=args.policy_in_env)
    except OSError as e:
        print(f"sandbox_kernel install: {e.filename or ''}{': ' if e.filename else ''}{e.strerror or e}"
              + ("\n(try --user or --sys-prefix)" if not (args.user or prefix) else ""), file=sys.stderr)
        return 1
    print(f"Installed kernelspec {args.name} in {path}")
    if args.vm_image:
        from ..vm.setup import vm_image_main  # only here: the vm package is not needed otherwise
        return vm_image_main([])
    return 0
