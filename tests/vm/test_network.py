"""Network: none by default; allow-listed HTTP/HTTPS egress through the host proxy."""
from __future__ import annotations

import asyncio
import socket

import pytest

from sandbox_kernel.netpolicy import AllowRule, parse_allow_list
from sandbox_kernel.policy import Policy

from .vm_helpers import run_cell, with_sandbox

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def test_allow_rules():
    rules = parse_allow_list("allow:example.org,*.pypi.org,localhost:8080")
    allowed = lambda h, p: any(r.matches(h, p) for r in rules)  # noqa: E731
    assert allowed("example.org", 443) and allowed("EXAMPLE.org.", 80)
    assert not allowed("example.org", 22) and not allowed("www.example.org", 443)
    assert allowed("files.pypi.org", 443) and not allowed("pypi.org", 443) and not allowed("evilpypi.org", 443)
    assert allowed("localhost", 8080) and not allowed("localhost", 80)
    for bad in ("allow:", "allow:a b", "allow:host:99999", "everything"):
        with pytest.raises(ValueError):
            parse_allow_list(bad)
    assert AllowRule("*.x.org").host == "*.x.org"


def loopback_listener() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


async def serve_canary(sock: socket.socket):
    async def serve(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        path = head.split()[1].decode()
        reply = f"hello from the host, {path}".encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(reply) + reply)
        await writer.drain()
        writer.close()
    return await asyncio.start_server(serve, sock=sock)


GUEST_CLIENT = """
import http.client, os, sys, urllib.request, urllib.error
port = int(sys.argv[1])
print(urllib.request.urlopen(f"http://localhost:{port}/plain").read().decode())
try:
    urllib.request.urlopen("http://example.org/")
except urllib.error.HTTPError as e:
    print("denied", e.code)
c = http.client.HTTPConnection("127.0.0.1", 3128)
c.set_tunnel("localhost", port)
c.request("GET", "/tunnel")
print(c.getresponse().read().decode())
"""


def test_allow_listed_egress_through_the_host_proxy(guest_image):
    """The admin lists the test server by name and by its exact loopback address (a name alone
    that resolves to loopback is refused: see the next test)."""
    sock, port = loopback_listener()

    async def body(sb):
        server = await serve_canary(sock)
        engine = sb.engine("vm")
        assert engine.network == f"allow:localhost:{port},127.0.0.1:{port}"
        assert (await engine.magic(f"config network=allow:localhost:{port},127.0.0.1:{port}")).endswith(
            f"network=allow:localhost:{port},127.0.0.1:{port}")
        sb.fs.write_text("/workspace/client.py", GUEST_CLIENT)
        # the test server is on the host's localhost, which the guest's no_proxy exempts
        run = await run_cell(sb, f"no_proxy= python3 client.py {port} && ls /sys/class/net")
        server.close()
        assert run.status == 0, run.err.text
        assert run.out.text.splitlines() == ["hello from the host, /plain", "denied 403",
                                             "hello from the host, /tunnel", "lo"]
        assert "network egress through the host proxy" in run.err.text
        log = "\n".join(engine.egress.lines())
        assert f"ALLOWED GET localhost:{port}" in log and "DENIED GET example.org:80" in log
        assert f"ALLOWED CONNECT localhost:{port}" in log
        assert "accesses logged" in await engine.magic("status")
    with_sandbox(body, policy=Policy(network=f"allow:localhost:{port},127.0.0.1:{port}"))


def test_guest_cannot_reach_host_loopback(guest_image):
    """Red team, item 3: a cell widening the network is refused, and a name the admin allowed
    that resolves to loopback is refused by the proxy; the canary is never read."""
    sock, port = loopback_listener()
    probe = (f"no_proxy= python3 -c \"import urllib.request as u; "
             f"print(u.urlopen('http://localhost:{port}/c').read())\"; "
             f"echo status=$?")

    async def body(sb):
        server = await serve_canary(sock)
        engine = sb.engine("vm")
        with pytest.raises(ValueError, match="not within the admin's allow-list"):  # the cell fails
            await engine.magic(f"config network=allow:127.0.0.1:{port}")
        assert engine.network == f"allow:localhost:{port}"
        run = await run_cell(sb, probe)
        server.close()
        assert "hello from the host" not in run.out.text and "status=1" in run.out.text
        assert "403" in run.err.text
        assert any("DENIED" in line and "not a public address" in line for line in engine.egress.lines())
    with_sandbox(body, policy=Policy(network=f"allow:localhost:{port}"))


BULK = 8 << 20


def _bulk() -> bytes:
    import hashlib
    return b"".join(hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(BULK // 32))


GUEST_BULK = """
import hashlib, http.client, sys, time
port = int(sys.argv[1])
data = b"".join(hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range({n} // 32))
c = http.client.HTTPConnection("127.0.0.1", 3128)
c.request("POST", f"http://localhost:{{port}}/up", body=data)
print("plain up", c.getresponse().read().decode())
c = http.client.HTTPConnection("127.0.0.1", 3128)
c.set_tunnel("localhost", port)
c.request("POST", "/up", body=data)
print("tunnel up", c.getresponse().read().decode())
c = http.client.HTTPConnection("127.0.0.1", 3128)
c.request("GET", f"http://localhost:{{port}}/down")
r, h = c.getresponse(), hashlib.sha256()
while chunk := r.read(65536):  # a slow reader: the proxy waits for it
    h.update(chunk)
    time.sleep(0.002)
print("plain down", h.hexdigest())
""".format(n=BULK)


def test_bulk_transfers_through_the_proxy_keep_every_byte(guest_image):
    """8 MiB up (plain and tunnelled) and down to a slow reader, with the real agent's windows:
    nothing stalls, nothing is lost or reordered."""
    import hashlib
    sock, port = loopback_listener()
    data = _bulk()
    digest = hashlib.sha256(data).hexdigest()

    async def serve(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        if head.startswith(b"POST"):
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            reply = hashlib.sha256(await reader.readexactly(length)).hexdigest().encode()
        else:
            reply = data
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(reply))
        for at in range(0, len(reply), 65536):
            writer.write(reply[at:at + 65536])
            await writer.drain()
        writer.close()

    async def body(sb):
        server = await asyncio.start_server(serve, sock=sock)
        sb.fs.write_text("/workspace/bulk.py", GUEST_BULK)
        run = await run_cell(sb, f"no_proxy= python3 bulk.py {port}", wall_time=300)
        server.close()
        assert run.status == 0, run.err.text
        assert run.out.text.splitlines() == [f"plain up {digest}", f"tunnel up {digest}", f"plain down {digest}"]
    with_sandbox(body, policy=Policy(network=f"allow:localhost:{port},127.0.0.1:{port}"))
