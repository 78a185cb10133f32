"""Launching the kernel: ``python -m sandbox_kernel kernel -f CONNECTION_FILE``."""
from __future__ import annotations

from ipykernel.kernelapp import IPKernelApp

#: Named, not imported: traitlets imports it in init_kernel, after the ZMQ sockets are bound.
#: A frontend that started connecting early (ZMQ retries every 100 ms) gets through sooner.
KERNEL_CLASS = "sandbox_kernel.kernel.SandboxKernel"


class SandboxKernelApp(IPKernelApp):
    name = "sandbox-kernel"

    def init_control(self, context) -> None:
        super().init_control(context)
        # No shell-channel thread means no kernel subshells: the sandbox is one machine that
        # runs one cell at a time (SandboxKernel answers subshell requests with an error).
        self.shell_channel_thread = None


def kernel_main(argv: list[str]) -> int:
    SandboxKernelApp.launch_instance(argv=list(argv), kernel_class=KERNEL_CLASS)
    return 0
