"""Allow-listed network egress for the guest, without giving it a network card.

The guest has only ``lo``. With ``%vm config network=allow:example.org,*.pypi.org`` the agent
listens on 127.0.0.1:3128 inside the guest and hands each connection to the host over the
agent channel; this module is the HTTP proxy at the host end. It accepts ``CONNECT host:port``
(HTTPS and any TLS) and absolute-URI plain HTTP requests, lets through only hosts on the
allow-list, logs every access (allowed or denied), and answers everything else with 403.
"""
from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Callable

from ..chars import isdigits
from .client import AgentGone, Execution

GUEST_PROXY_PORT = 3128
DEFAULT_PORTS = (80, 443)
MAX_HEAD = 64 * 1024
log = logging.getLogger(__name__)

_HOST_RE = re.compile(r"(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")


class AllowRule:
    """``host`` (ports 80 and 443), ``host:port``, ``*.domain`` (any subdomain of domain)."""

    def __init__(self, text: str) -> None:
        host, sep, port = text.strip().rpartition(":") if ":" in text else (text.strip(), "", "")
        if not _HOST_RE.fullmatch(host):
            raise ValueError(f"invalid host pattern '{text}'")
        if sep and (not isdigits(port) or not 1 <= int(port) <= 65535):
            raise ValueError(f"invalid port in '{text}'")
        self.text = text.strip()
        self.host = host.lower()
        self.ports = (int(port),) if sep else DEFAULT_PORTS

    def matches(self, host: str, port: int) -> bool:
        host = host.lower().rstrip(".")
        if port not in self.ports:
            return False
        if self.host.startswith("*."):
            return host.endswith(self.host[1:]) and len(host) > len(self.host) - 1
        return host == self.host


def parse_allow_list(spec: str) -> list[AllowRule]:
    """``allow:a.org,*.b.org:8443`` -> rules; raises ValueError."""
    if not spec.startswith("allow:"):
        raise ValueError("network must be 'none' or 'allow:HOST[,HOST...]'")
    items = [s for s in spec[len("allow:"):].split(",") if s.strip()]
    if not items:
        raise ValueError("network=allow: needs at least one host")
    return [AllowRule(s) for s in items]


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
                reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 15)
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
