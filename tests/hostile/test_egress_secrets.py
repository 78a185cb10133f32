"""The egress proxy with secrets, without a VM: a loopback socket stands in for the guest's proxy
connection, real HTTP(S) servers on 127.0.0.1 for the hosts. The secret's value reaches only
its host; the guest side sees the placeholder or a mask; the log never holds the value."""
from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import socket
import ssl
import stat

import pytest

from sandbox_kernel.netpolicy import parse_allow_list
from sandbox_kernel.policy import Secret
from sandbox_kernel.vm.accesslog import AccessLog, AccessRecord
from sandbox_kernel.vm.egress import EgressProxy
from sandbox_kernel.vm.injection import Scrubber, SecretInjector
from sandbox_kernel.vm.tlsintercept import KernelCA, upstream_context
from tests.support.tlshelpers import make_server_cert

VALUE = "s3cret-VALUE-7d1e0a9b"


class SocketStream:
    """A TCP connection shaped like the agent's stream of a guest connection: as with the
    agent's, nothing written after its events ended reaches the guest."""

    def __init__(self, reader, writer) -> None:
        self.reader, self.writer = reader, writer
        self.ended = False

    def events(self):
        async def gen():
            try:
                while data := await self.reader.read(65536):
                    yield "stdout", data
            except ConnectionError:
                return
            finally:
                self.ended = True
        return gen()

    def write(self, data: bytes) -> None:
        self._queue(lambda: self.writer.write(data))

    async def drain(self) -> None:
        await asyncio.sleep(0)  # the queued writes first
        if not self.writer.is_closing():
            try:
                await self.writer.drain()
            except ConnectionError:
                pass

    def close_input(self) -> None:
        self._queue(self.writer.close)

    def _queue(self, action) -> None:
        def send() -> None:  # queued, as the agent client's stdin pump sends it
            if not self.writer.is_closing() and not self.ended:
                action()
        asyncio.get_running_loop().call_soon(send)


class Hosts:
    """An HTTPS and an HTTP server on loopback that record every request head and reflect it
    in the body (the worst case: a host that echoes credentials), and the proxy in front."""

    def __init__(self, tmp_path, secret_hosts: str | None = None, trust_upstream: bool = True) -> None:
        self.tmp = str(tmp_path)
        self.secret_hosts = secret_hosts
        self.trust_upstream = trust_upstream
        self.seen: list[bytes] = []

    async def __aenter__(self) -> "Hosts":
        self.cert, key = make_server_cert(self.tmp)
        server_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_tls.load_cert_chain(self.cert, key)

        async def reflect(reader, writer):
            try:
                while True:
                    head = await reader.readuntil(b"\r\n\r\n")
                    self.seen.append(head)
                    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                                   if line.lower().startswith(b"content-length:")), 0)
                    body = await reader.readexactly(length) if length else b""
                    reply = head + body
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(reply) + reply)
                    await writer.drain()
                    if b"\r\nconnection: close\r\n" in head.lower():
                        break
            except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
                pass
            writer.close()
        self.https = await asyncio.start_server(reflect, "127.0.0.1", 0, ssl=server_tls)
        self.http = await asyncio.start_server(reflect, "127.0.0.1", 0)
        self.https_port = self.https.sockets[0].getsockname()[1]
        self.http_port = self.http.sockets[0].getsockname()[1]
        hosts = (self.secret_hosts or "127.0.0.1:{https}").format(https=self.https_port, http=self.http_port)
        self.injector = SecretInjector([Secret("TOKEN", "allow:" + hosts, VALUE)])
        self.placeholder = self.injector.placeholders()["TOKEN"]
        self.ca = KernelCA(self.injector.rules())
        self.log = AccessLog(os.path.join(self.tmp, "egress.jsonl"))
        rules = parse_allow_list(f"allow:127.0.0.1:{self.https_port},127.0.0.1:{self.http_port},"
                                 f"localhost:{self.https_port}")
        self.proxy = EgressProxy(rules, self.log, self.injector, self.ca,
                                 upstream_context(self.cert if self.trust_upstream else None))

        self.streams: list[SocketStream] = []  # kept: a collected writer would close its socket

        async def handle(reader, writer):
            self.streams.append(SocketStream(reader, writer))
            await self.proxy._handle(self.streams[-1])
        self.front = await asyncio.start_server(handle, "127.0.0.1", 0)
        self.proxy_port = self.front.sockets[0].getsockname()[1]
        self.ca_file = os.path.join(self.tmp, "kernel-ca.pem")
        with open(self.ca_file, "wb") as f:
            f.write(self.ca.pem)
        return self

    async def __aexit__(self, *exc) -> None:
        for server in (self.front, self.https, self.http):
            server.close()
        await asyncio.wait_for(asyncio.gather(*self.proxy.tasks, return_exceptions=True), 20)
        self.log.close()

    async def replace_https(self, handler) -> None:
        """Another HTTPS server on the same port (the secret's host)."""
        self.https.close()
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(self.cert, self.cert.replace("server.pem", "server.key"))
        self.https = await asyncio.start_server(handler, sock=_listening(self.https_port), ssl=tls)

    async def replace_http(self, handler) -> None:
        self.http.close()
        self.http = await asyncio.start_server(handler, sock=_listening(self.http_port))

    def client_tls(self, trust_kernel_ca: bool = True) -> ssl.SSLContext:
        """The guest's view: it trusts the kernel's CA (and, for tunnels, the real server's)."""
        context = ssl.create_default_context(cafile=self.ca_file if trust_kernel_ca else self.cert)
        if trust_kernel_ca:
            context.load_verify_locations(self.cert)
        return context

    def https_get(self, paths: list[str], headers: dict, host: str = "127.0.0.1",
                  port: int | None = None) -> list[tuple[int, bytes]]:
        conn = http.client.HTTPSConnection("127.0.0.1", self.proxy_port, context=self.client_tls(), timeout=20)
        conn.set_tunnel(host, port or self.https_port)
        answers = []
        for path in paths:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            answers.append((response.status, response.read()))
        conn.close()
        return answers

    def raw(self, data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", self.proxy_port), timeout=20) as s:
            s.sendall(data)
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks)


def _listening(port: int) -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", port))
    sock.listen()
    return sock


def run(tmp_path, body, **kw):
    async def main():
        async with Hosts(tmp_path, **kw) as hosts:
            return await body(hosts)
    return asyncio.run(main())


def assert_never_leaked(hosts: Hosts, *texts: bytes | str) -> None:
    for text in texts:
        assert VALUE not in (text.decode(errors="replace") if isinstance(text, bytes) else text)
    with open(hosts.log.path) as f:
        assert VALUE not in f.read()
    assert VALUE not in "\n".join(hosts.log.lines()) and VALUE not in json.dumps(hosts.log.table())


def test_https_secret_reaches_its_host_only_and_is_masked_on_the_way_back(tmp_path):
    async def body(hosts: Hosts):
        answers = await asyncio.to_thread(hosts.https_get, ["/a", "/b"],
                                          {"Authorization": f"Bearer {hosts.placeholder}"})
        return hosts, answers
    hosts, answers = run(tmp_path, body)
    assert [status for status, _ in answers] == [200, 200]  # two requests on one kept-alive connection
    assert len(hosts.seen) == 2 and all(f"Bearer {VALUE}".encode() in head for head in hosts.seen)
    for _, reply in answers:  # the host reflected the header: the guest sees a mask of the same length
        assert b"Bearer " + b"*" * len(VALUE) in reply and hosts.placeholder.encode() not in reply
    [record] = list(hosts.log.records)
    assert (record.verdict, record.mode, record.secrets, record.open) == ("allowed", "tls-terminated", ["TOKEN"], False)
    assert record.bytes_up > 0 and record.bytes_down > 0
    assert_never_leaked(hosts, *(reply for _, reply in answers))
    assert stat.S_IMODE(os.stat(hosts.log.path).st_mode) == 0o600
    entry = json.loads(open(hosts.log.path).read().splitlines()[0])
    assert entry["host"] == "127.0.0.1" and entry["secrets"] == ["TOKEN"] and entry["verdict"] == "allowed"


def test_a_reply_that_ends_with_the_connection_reaches_the_guest(tmp_path):
    """The server closes to end its reply: the proxy must close the guest's side before it stops
    reading from the guest (the agent stream sends nothing once its events ended)."""
    async def body(hosts: Hosts):
        async def close_after_reply(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end")
            await writer.drain()
            writer.close()
        await hosts.replace_https(close_after_reply)
        return await asyncio.to_thread(hosts.https_get, ["/"], {"Authorization": hosts.placeholder})
    assert run(tmp_path, body) == [(200, b"until the end")]


def test_basic_credentials_get_the_value_too(tmp_path):
    async def body(hosts: Hosts):
        credentials = base64.b64encode(f"user:{hosts.placeholder}".encode()).decode()
        return hosts, await asyncio.to_thread(hosts.https_get, ["/"], {"Authorization": f"Basic {credentials}"})
    hosts, _ = run(tmp_path, body)
    assert f"Basic {base64.b64encode(f'user:{VALUE}'.encode()).decode()}".encode() in hosts.seen[0]


def test_other_hosts_get_the_placeholder(tmp_path):
    """Plain HTTP to a host without the secret, and HTTPS through a tunnel to one (end to end, the
    proxy cannot and does not look inside)."""
    async def body(hosts: Hosts):
        plain = await asyncio.to_thread(hosts.raw, (f"GET http://127.0.0.1:{hosts.http_port}/x HTTP/1.1\r\n"
                                                     f"Host: 127.0.0.1:{hosts.http_port}\r\n"
                                                     f"X-Api-Key: {hosts.placeholder}\r\n\r\n").encode())
        return hosts, plain
    hosts, plain = run(tmp_path, body)
    assert plain.startswith(b"HTTP/1.1 200") and hosts.placeholder.encode() in hosts.seen[0]
    assert VALUE.encode() not in hosts.seen[0]
    assert b"Connection: close" in hosts.seen[0] and b"GET /x HTTP/1.1" in hosts.seen[0]  # origin form upstream
    assert_never_leaked(hosts, plain)


def test_a_secret_for_a_named_http_port_goes_in_clear_only_there(tmp_path):
    async def body(hosts: Hosts):
        request = (f"GET http://127.0.0.1:{hosts.http_port}/ HTTP/1.1\r\nHost: 127.0.0.1:{hosts.http_port}\r\n"
                   f"Authorization: token {hosts.placeholder}\r\n\r\n").encode()
        return hosts, await asyncio.to_thread(hosts.raw, request)
    hosts, reply = run(tmp_path, body, secret_hosts="127.0.0.1:{http}")
    assert f"Authorization: token {VALUE}".encode() in hosts.seen[0] and b"*" * len(VALUE) in reply
    assert_never_leaked(hosts, reply)


def test_domain_fronting_gets_no_value(tmp_path):
    """The connection goes to the secret's host but the Host header (or an absolute target) names
    another: a CDN would route it there, so the value is not put in."""
    async def body(hosts: Hosts):
        fronted = await asyncio.to_thread(hosts.https_get, ["/"],
                                          {"Host": "evil.example", "Authorization": hosts.placeholder})
        return hosts, fronted
    hosts, fronted = run(tmp_path, body)
    assert hosts.placeholder.encode() in hosts.seen[0] and VALUE.encode() not in hosts.seen[0]
    assert "Host header does not name" in hosts.log.records[0].reason


def test_another_hosts_target_in_the_tunnel_is_refused(tmp_path):
    async def body(hosts: Hosts):
        def go():
            conn = http.client.HTTPSConnection("127.0.0.1", hosts.proxy_port, context=hosts.client_tls(), timeout=20)
            conn.set_tunnel("127.0.0.1", hosts.https_port)
            conn.putrequest("GET", "https://evil.example/steal", skip_host=True)
            conn.putheader("Host", f"127.0.0.1:{hosts.https_port}")
            conn.putheader("Authorization", hosts.placeholder)
            conn.endheaders()
            response = conn.getresponse()
            return response.status, response.read()
        return hosts, await asyncio.to_thread(go)
    hosts, (status, reply) = run(tmp_path, body)
    assert status == 400 and b"names another host" in reply and hosts.seen == []


@pytest.mark.parametrize("framing", [
    "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
    "Content-Length: 5\r\nContent-Length: 6\r\n",
    "Transfer-Encoding: gzip, chunked\r\n",
])
def test_ambiguous_request_framing_is_refused(tmp_path, framing):
    async def body(hosts: Hosts):
        request = (f"POST http://127.0.0.1:{hosts.http_port}/ HTTP/1.1\r\nHost: 127.0.0.1:{hosts.http_port}\r\n"
                   f"{framing}\r\nhello").encode()
        return hosts, await asyncio.to_thread(hosts.raw, request)
    hosts, reply = run(tmp_path, body)
    assert reply.startswith(b"HTTP/1.1 400") and hosts.seen == []


def test_chunked_bodies_pass_through(tmp_path):
    async def body(hosts: Hosts):
        request = (f"POST http://127.0.0.1:{hosts.http_port}/up HTTP/1.1\r\nHost: 127.0.0.1:{hosts.http_port}\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n").encode()
        return hosts, await asyncio.to_thread(hosts.raw, request)
    hosts, reply = run(tmp_path, body)
    assert reply.startswith(b"HTTP/1.1 200") and b"Transfer-Encoding: chunked" in hosts.seen[0]


def test_the_real_server_is_verified(tmp_path):
    """Without the admin's CA file the loopback server's self-signed certificate does not verify:
    the proxy refuses to go on, and no request (no secret) is sent."""
    async def body(hosts: Hosts):
        def go():
            conn = http.client.HTTPSConnection("127.0.0.1", hosts.proxy_port, context=hosts.client_tls(), timeout=20)
            conn.set_tunnel("127.0.0.1", hosts.https_port)
            try:
                conn.request("GET", "/", headers={"Authorization": hosts.placeholder})
            except OSError as e:
                return str(e)
            return "connected"
        return hosts, await asyncio.to_thread(go)
    hosts, outcome = run(tmp_path, body, trust_upstream=False)
    assert "502" in outcome and hosts.seen == []
    record = hosts.log.records[0]
    assert record.verdict == "failed" and "certificate not valid" in record.reason


def test_the_kernel_ca_signs_for_the_secret_hosts_only(tmp_path):
    ca = KernelCA(parse_allow_list("allow:api.example.org,127.0.0.1:8443", (443,)))
    client = ssl.create_default_context(cadata=ca.pem.decode())

    def handshake(name: str) -> None:
        server_side = ca.server_context(name)
        a, b = ssl.MemoryBIO(), ssl.MemoryBIO()
        c, d = ssl.MemoryBIO(), ssl.MemoryBIO()
        client_obj = client.wrap_bio(a, b, server_hostname=name)
        server_obj = server_side.wrap_bio(c, d, server_side=True)
        for _ in range(10):
            for obj in (client_obj, server_obj):
                try:
                    obj.do_handshake()
                except ssl.SSLWantReadError:
                    pass
            c.write(b.read())
            a.write(d.read())
        client_obj.do_handshake()
    handshake("api.example.org")
    handshake("127.0.0.1")
    for outside in ("evil.example", "127.0.0.2", "example.org"):
        with pytest.raises(ssl.SSLCertVerificationError, match="subtree|excluded"):
            handshake(outside)


def test_scrubber_masks_values_split_across_chunks():
    scrubber = Scrubber([VALUE.encode()])
    stream = b"head " + VALUE.encode() + b" middle " + VALUE.encode()[:6]
    out = b"".join(scrubber.feed(stream[i:i + 3]) for i in range(0, len(stream), 3))
    assert scrubber.pending and out == (b"head " + b"*" * len(VALUE) + b" middle " + VALUE.encode()[:6])[:len(out)]
    assert out + scrubber.flush() == b"head " + b"*" * len(VALUE) + b" middle " + VALUE.encode()[:6]
    # a value's start is just bytes: only whole values are masked (tests/hostile/test_egress_http.py)


def test_access_log_table_and_unwritable_file(tmp_path):
    log = AccessLog(str(tmp_path / "missing-dir" / "egress.jsonl"))
    record = AccessRecord("CONNECT", "pypi.org", 443, bytes_up=1500, bytes_down=3 << 20, secrets=["TOKEN"])
    log.opened(record)
    log.closed(record)
    denied = AccessRecord("GET", "<evil>.org", 80, verdict="denied", reason="not on the allow-list", open=False)
    log.opened(denied)
    table = log.table()
    assert "cannot write the admin's egress log" in table["text/plain"]
    assert "pypi.org:443" in table["text/plain"] and "3.0M" in table["text/plain"] and "1.5K" in table["text/plain"]
    assert "&lt;evil&gt;.org" in table["text/html"] and "<evil>" not in table["text/html"]
    assert table["text/html"].count("<tr>") == 3


def test_the_kernel_process_environ_loses_the_value(tmp_path, monkeypatch):
    """A real kernel started with the secret in its environment (kernel.json ``env`` or the
    spawner's): once it runs, /proc/<kernel>/environ (readable by the user's other processes)
    no longer holds the value, and the kernel works."""
    from tests.support.kernelclient import run_ok, start_kernel
    from sandbox_kernel.kernel.install import install

    prefix = tmp_path / "prefix"
    monkeypatch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))
    monkeypatch.setenv("TOKEN", VALUE)
    install("sandbox", prefix=str(prefix), policy_argv=["--network", "allow:api.example.org",
                                                        "--secret", "TOKEN@api.example.org"])
    with start_kernel("sandbox") as (km, kc):
        assert run_ok(kc, "echo ok") == "ok\n"
        with open(f"/proc/{km.provisioner.process.pid}/environ", "rb") as f:
            environ = f.read()
    assert b"TOKEN=" in environ and VALUE.encode() not in environ
