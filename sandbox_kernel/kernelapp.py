"""Launching the kernel: ``python -m sandbox_kernel kernel -f CONNECTION_FILE``."""
from __future__ import annotations

from ipykernel.kernelapp import IPKernelApp

from .kernel import SandboxKernel


class SandboxKernelApp(IPKernelApp):
    name = "sandbox-kernel"

    def init_control(self, context) -> None:
        super().init_control(context)
        # No shell-channel thread means no kernel subshells: the sandbox is one machine that
        # runs one cell at a time (SandboxKernel answers subshell requests with an error).
        self.shell_channel_thread = None


def kernel_main(argv: list[str]) -> int:
    SandboxKernelApp.launch_instance(argv=list(argv), kernel_class=SandboxKernel)
    return 0
