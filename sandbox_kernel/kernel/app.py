"""Launching the kernel: ``python -P -m sandbox_kernel kernel [POLICY OPTIONS] -f CONNECTION_FILE``."""
from __future__ import annotations

import argparse
import os
import sys

from ipykernel.kernelapp import IPKernelApp
from ipykernel.kernelbase import Kernel
from traitlets import Type
from traitlets.utils.importstring import import_item

from .. import policy

#: imported by name once the sockets are bound, so the sandbox's modules load while the
#: client's first connection attempts are under way (not before them)
KERNEL_CLASS = "sandbox_kernel.kernel.kernel.SandboxKernel"


class SandboxKernelApp(IPKernelApp):
    name = "sandbox-kernel"
    #: set to KERNEL_CLASS in init_kernel (a class named here would be imported at start)
    kernel_class = Type(Kernel, klass=Kernel)
    #: the admin's policy from the kernel's argv, handed to the kernel class
    policy = policy.Policy()

    def init_kernel(self) -> None:
        kernel_class = import_item(KERNEL_CLASS)
        kernel_class.policy = self.policy
        self.kernel_class = kernel_class
        super().init_kernel()

    #: sockets bound before ipykernel loaded (``launch.bind_early``), or None
    early = None

    def _bind_socket(self, s, port):
        """The socket already bound to ``port`` early takes the place of ``s`` (in the
        attribute that holds it), so connections made meanwhile are kept."""
        early = self.early
        if early is not None and port and self.transport == "tcp" and self.curve_secretkey is None:
            for name in ("shell_socket", "stdin_socket", "control_socket", "iopub_socket"):
                if getattr(self, name, None) is s:
                    bound = early.take(port, s.type, self.ip)
                    if bound is not None:
                        s.close(linger=0)
                        setattr(self, name, bound)
                        return port
                    break
        return super()._bind_socket(s, port)

    def init_sockets(self) -> None:
        super().init_sockets()
        if self.early is not None:  # any not taken (a port the app did not ask for)
            self.early.close()

    def init_control(self, context) -> None:
        super().init_control(context)
        # No shell-channel thread means no kernel subshells: the sandbox is one machine that
        # runs one cell at a time (SandboxKernel answers subshell requests with an error).
        self.shell_channel_thread = None


def kernel_main(argv: list[str], early=None) -> int:
    """Our policy options first (the admin's, from kernel.json's argv, else from its env), the rest
    is ipykernel's.
    Secret values are taken out of the environment here, before anything is started.
    ``early``: the sockets ``launch.bind_early`` bound (what is left of them is closed once
    the app has its own)."""
    parser = argparse.ArgumentParser(prog="python -m sandbox_kernel kernel", add_help=False)
    policy.add_arguments(parser)
    args, rest = parser.parse_known_args(list(argv))
    try:
        # the policy in the environment (install --policy-in-env) applies when argv has none
        env_argv = policy.argv_from_environment(os.environ)
        if env_argv is not None and not policy.to_argv(args):
            SandboxKernelApp.policy = policy.from_argv(env_argv, os.environ)
        else:
            SandboxKernelApp.policy = policy.from_arguments(args, os.environ)
    except ValueError as e:
        print(f"sandbox_kernel kernel: {e}", file=sys.stderr)
        return 2
    SandboxKernelApp.early = early
    SandboxKernelApp.launch_instance(argv=rest)
    return 0
