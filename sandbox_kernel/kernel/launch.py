"""``python -m sandbox_kernel kernel``: the kernel's sockets are bound first, then ipykernel loads.

A frontend connects while the kernel starts: its ZMQ sockets retry every 100 ms until the
kernel's are bound, and it is ready once a ``kernel_info_reply`` and an IOPub message have
come back. ipykernel binds after importing itself (~0.15 s of imports: IPython, jupyter_client,
tornado); here only ``zmq`` is imported before the shell, stdin, control and IOPub sockets of
the connection file are bound, so connections (and IOPub subscriptions) are made while the rest
loads, and the first request waits in the socket for the kernel to read it.
``SandboxKernelApp._bind_socket`` then hands each app socket's place to the one bound here.
Anything unusual (no connection file yet, IPC transport, CurveZMQ keys, a port not given)
leaves the binding to ipykernel as before.
"""
from __future__ import annotations

import json
import os
from typing import Any


class EarlySockets:
    """The sockets bound before ipykernel loads: port -> socket, all in ``context``."""

    def __init__(self, context: Any, sockets: dict[int, Any], ip: str) -> None:
        self.context = context
        self.sockets = sockets
        self.ip = ip

    def take(self, port: int, socket_type: int, ip: str):
        """The socket bound to ``port`` if it is of ``socket_type`` on ``ip`` (each once)."""
        s = self.sockets.get(port)
        if s is None or ip != self.ip or s.type != socket_type:
            return None
        del self.sockets[port]
        return s

    def close(self) -> None:
        for s in self.sockets.values():
            s.close(linger=0)
        self.sockets.clear()


def connection_file(argv: list[str]) -> str | None:
    """The ``-f FILE`` of ipykernel's command line (``-f FILE``, ``-f=FILE``, ``--f=FILE``)."""
    for i, a in enumerate(argv):
        if a == "-f" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(("-f=", "--f=")):
            return a.split("=", 1)[1]
    return None


def bind_early(argv: list[str]) -> EarlySockets | None:
    """Bind the sockets the connection file names (TCP, no CurveZMQ); None when it does not
    apply or anything fails (ipykernel binds them then)."""
    path = connection_file(argv)
    if not path or not os.path.isfile(path):
        return None
    try:
        with open(path) as f:
            info = json.load(f)
        if info.get("transport", "tcp") != "tcp" or any(k.startswith("curve") and v for k, v in info.items()):
            return None
        ip = info.get("ip") or "127.0.0.1"
        wanted = {name: int(info.get(name + "_port") or 0) for name in ("shell", "stdin", "control", "iopub")}
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    if not all(wanted.values()):
        return None
    import zmq

    context = zmq.Context()
    early = EarlySockets(context, {}, ip)
    try:
        for name, port in wanted.items():
            s = context.socket(zmq.XPUB if name == "iopub" else zmq.ROUTER)
            s.linger = 1000
            early.sockets[port] = s
            s.bind("tcp://%s:%i" % (ip, port))
    except zmq.ZMQError:
        early.close()
        context.term()
        return None
    return early


def kernel_main(argv: list[str]) -> int:
    early = bind_early(argv)
    from .app import kernel_main as main

    return main(argv, early)
