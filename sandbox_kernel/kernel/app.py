"""Launching the kernel: ``python -P -m sandbox_kernel kernel [POLICY OPTIONS] -f CONNECTION_FILE``."""
from __future__ import annotations

import argparse
import os
import sys

from ipykernel.kernelapp import IPKernelApp

from .. import policy
from .kernel import SandboxKernel


class SandboxKernelApp(IPKernelApp):
    name = "sandbox-kernel"

    def init_control(self, context) -> None:
        super().init_control(context)
        # No shell-channel thread means no kernel subshells: the sandbox is one machine that
        # runs one cell at a time (SandboxKernel answers subshell requests with an error).
        self.shell_channel_thread = None


def kernel_main(argv: list[str]) -> int:
    """Our policy options first (the admin's, from kernel.json), the rest is ipykernel's.
    Secret values are taken out of the environment here, before anything is started."""
    parser = argparse.ArgumentParser(prog="python -m sandbox_kernel kernel", add_help=False)
    policy.add_arguments(parser)
    args, rest = parser.parse_known_args(list(argv))
    try:
        SandboxKernel.policy = policy.from_arguments(args, os.environ)
    except ValueError as e:
        print(f"sandbox_kernel kernel: {e}", file=sys.stderr)
        return 2
    SandboxKernelApp.launch_instance(argv=rest, kernel_class=SandboxKernel)
    return 0
