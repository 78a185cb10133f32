"""Allow-listed network egress for the guest, without giving it a network card.

The guest has only ``lo``. When the kernel's policy allows a network (the admin's
``--network allow:example.org,*.pypi.org``, which a cell may narrow) the agent listens on
127.0.0.1:3128 inside the guest and hands each connection to the host over the agent channel;
this module is the HTTP proxy at the host end. It accepts ``CONNECT host:port`` (HTTPS and any
TLS) and absolute-URI plain HTTP requests, lets through only hosts on the allow-list, resolves
each name once and connects to a resolved public address (``netpolicy.reachable``), logs every
access (allowed or denied), and answers everything else with 403.
"""
from __future__ import annotations

import asyncio
import logging
import re
import socket
import time
from typing import Callable

from ..chars import isdigits
from ..netpolicy import AllowRule, host_addresses, parse_address, reachable
from .client import AgentGone, Execution

GUEST_PROXY_PORT = 3128
MAX_HEAD = 64 * 1024
log = logging.getLogger(__name__)


class EgressProxy:
    def __init__(self, rules: list[AllowRule], record: Callable[[str], None] | None = None) -> None:
        self.rules = rules
        self.record = record
        self.tasks: set[asyncio.Task] = set()

    def allowed(self, host: str, port: int) -> bool:
        return any(rule.matches(host, port) for rule in self.rules)

    def _log(self, verdict: str, what: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {verdict} {what}"
        log.info("vm egress: %s", line)
        if self.record:
            self.record(line)

    def serve(self, stream: Execution) -> None:
        task = asyncio.get_running_loop().create_task(self._handle(stream))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _handle(self, stream: Execution) -> None:
        events = stream.events()
        head = b""
        try:
            while b"\r\n\r\n" not in head:
                try:
                    _, data = await asyncio.wait_for(events.__anext__(), 30)
                except (StopAsyncIteration, asyncio.TimeoutError):
                    stream.close_input()
                    return
                head += data
                if len(head) > MAX_HEAD:
                    self._reply(stream, 431, "Request Header Fields Too Large")
                    return
            head, _, rest = head.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            parts = lines[0].split()
            if len(parts) != 3:
                self._reply(stream, 400, "Bad Request")
                return
            method, target, version = parts
            tunnel = method.upper() == "CONNECT"
            if tunnel:
                host, port = _split_host_port(target, 443)
            else:
                m = re.fullmatch(r"http://([^/?#]+)([^#]*)", target, re.IGNORECASE)
                if not m:
                    self._reply(stream, 400, "Bad Request (absolute http:// URL or CONNECT expected)")
                    return
                host, port = _split_host_port(m.group(1), 80)
                path = m.group(2) or "/"
            what = f"{method} {host}:{port}"
            if host is None or port is None or not self.allowed(host, port):
                self._log("DENIED", what)
                self._reply(stream, 403, f"Forbidden by the VM network allow-list: {host}:{port}")
                return
            try:
                addresses = await self._resolve(host, port)
            except OSError as e:
                self._log("FAILED", f"{what} (cannot resolve: {e})")
                self._reply(stream, 502, f"Bad Gateway: cannot resolve {host}")
                return
            own = host_addresses()
            allowed = [a for a in addresses if reachable(a, port, self.rules, own)]
            if not allowed:
                shown = ", ".join(str(a) for a in addresses[:4])
                self._log("DENIED", f"{what} (resolves to {shown}: not a public address)")
                self._reply(stream, 403, f"Forbidden: {host} resolves to {shown}, which is not a "
                                         "public address (loopback, private, link-local or this host)")
                return
            try:
                reader, writer = await self._connect(allowed, port)
            except (OSError, asyncio.TimeoutError) as e:
                self._log("FAILED", f"{what} ({e or type(e).__name__})")
                self._reply(stream, 502, f"Bad Gateway: {e or 'timed out'}")
                return
            self._log("ALLOWED", what)
            if tunnel:
                stream.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                headers = [h for h in lines[1:] if not h.lower().startswith(("proxy-connection:", "proxy-authorization:"))]
                writer.write(f"{method} {path} {version}\r\n".encode("latin-1")
                             + "\r\n".join(headers).encode("latin-1") + b"\r\n\r\n")
            if rest:
                writer.write(rest)
            await self._pipe(stream, events, reader, writer)
        except AgentGone:
            pass
        finally:
            # the queued answer is still being sent: wait for the guest side to close
            try:
                await asyncio.wait_for(_drain(events), 30)
            except (asyncio.TimeoutError, AgentGone):
                await events.aclose()

    @staticmethod
    async def _resolve(host: str, port: int) -> list:
        """Every address of ``host``, resolved once: the connection goes to one of these, so a
        name cannot resolve to something else between the check and the connect."""
        literal = parse_address(host)
        if literal is not None:
            return [literal]
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        found = []
        for info in infos:
            addr = parse_address(info[4][0].split("%")[0])
            if addr is not None and addr not in found:
                found.append(addr)
        if not found:
            raise OSError(f"no address for {host}")
        return found

    @staticmethod
    async def _connect(addresses: list, port: int):
        error: BaseException | None = None
        for addr in addresses:
            try:
                return await asyncio.wait_for(asyncio.open_connection(str(addr), port), 15)
            except (OSError, asyncio.TimeoutError) as e:
                error = e
        raise error if error else OSError("no address")

    async def _pipe(self, stream: Execution, events, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        async def upstream() -> None:
            try:
                async for _, data in events:
                    writer.write(data)
                    await writer.drain()
                if writer.can_write_eof():
                    writer.write_eof()
            except (OSError, AgentGone):
                pass

        async def downstream() -> None:
            try:
                while data := await reader.read(65536):
                    stream.write(data)
            except OSError:
                pass
            stream.close_input()

        up = asyncio.ensure_future(upstream())
        try:
            await downstream()
            await asyncio.wait_for(up, 60)
        except asyncio.TimeoutError:
            up.cancel()
        finally:
            writer.close()

    @staticmethod
    def _reply(stream: Execution, code: int, reason: str) -> None:
        body = (reason + "\n").encode()
        stream.write(f"HTTP/1.1 {code} {reason.split(':')[0]}\r\nContent-Type: text/plain\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        stream.close_input()


async def _drain(events) -> None:
    async for _ in events:
        pass


def _split_host_port(text: str, default: int) -> tuple[str | None, int | None]:
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    if port and not isdigits(port):
        return None, None
    return host or None, int(port) if port else default
