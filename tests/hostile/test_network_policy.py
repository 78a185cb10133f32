"""The VM's network is the admin's policy; a cell may only narrow it, and the proxy never
connects to loopback, private, link-local or the host's own addresses unless the admin listed
that exact address (red team, item 3: a cell set ``network=allow:127.0.0.1:PORT`` and read a
host loopback service; names were checked, resolved addresses were not)."""
from __future__ import annotations

import asyncio
import ipaddress
import json
import logging

import pytest

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.kernel.protocol.cells import CellRunner
from sandbox_kernel.netpolicy import (AllowRule, check_narrower, host_addresses, is_public,
                                      parse_address, parse_allow_list, reachable)
from sandbox_kernel.policy import Policy, Secret
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vm import egress
from sandbox_kernel.vm.accesslog import AccessLog
from sandbox_kernel.vm.egress import EgressProxy
from sandbox_kernel.vm.engine import VmError

CANARY = b"host-loopback-canary-6f1e"


@pytest.mark.parametrize("cell, admin", [
    ("allow:127.0.0.1:8080", "none"),
    ("allow:example.org", "none"),
    ("allow:127.0.0.1:8080", "allow:example.org"),
    ("allow:example.org:22", "allow:example.org"),
    ("allow:*.example.org", "allow:www.example.org"),
    ("allow:*.org", "allow:*.example.org"),
    ("allow:evilexample.org", "allow:*.example.org"),
    ("allow:[::1]:80", "allow:localhost"),
])
def test_a_cell_cannot_widen_the_network(cell, admin):
    with pytest.raises(ValueError):
        check_narrower(cell, admin)


@pytest.mark.parametrize("cell, admin", [
    ("none", "none"),
    ("none", "allow:example.org"),
    ("allow:example.org:443", "allow:example.org"),
    ("allow:a.example.org,*.b.example.org", "allow:*.example.org"),
    ("allow:*.example.org", "allow:*.example.org"),
    ("allow:10.0.0.5:8080", "allow:10.0.0.5:8080,example.org"),
    ("allow:[::ffff:10.0.0.5]:8080", "allow:10.0.0.5:8080"),
])
def test_a_cell_may_narrow_the_network(cell, admin):
    check_narrower(cell, admin)


@pytest.mark.parametrize("text", ["127.0.0.1", "127.8.9.1", "10.1.2.3", "172.16.0.1", "192.168.1.1",
                                  "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
                                  "::1", "::", "fe80::1", "fc00::1", "ff02::1", "::ffff:127.0.0.1",
                                  "::ffff:169.254.169.254", "64:ff9b::7f00:1", "2002:7f00:1::1",
                                  "[::ffff:10.0.0.1]"])
def test_non_public_addresses(text):
    addr = parse_address(text)
    assert addr is not None and not is_public(addr)


def test_public_addresses_and_exact_listing():
    for text in ("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "1.1.1.1"):
        assert is_public(parse_address(text))
    loop = ipaddress.ip_address("127.0.0.1")
    assert not reachable(loop, 8080, parse_allow_list("allow:localhost:8080"), set())
    assert reachable(loop, 8080, parse_allow_list("allow:127.0.0.1:8080"), set())
    assert not reachable(loop, 8081, parse_allow_list("allow:127.0.0.1:8080"), set())
    assert AllowRule("[::1]:9").matches("::1", 9) and AllowRule("10.0.0.1").matches("[::ffff:10.0.0.1]", 80)


def test_the_hosts_own_addresses_are_known():
    import socket

    own = host_addresses()
    assert ipaddress.ip_address("127.0.0.1") in own
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:  # the address of the default route
        try:
            s.connect(("192.0.2.1", 9))
            assert ipaddress.ip_address(s.getsockname()[0]) in own
        except OSError:
            pass  # no route at all: nothing more to compare


def test_cell_config_cannot_widen_the_admin_policy():
    sb = Sandbox(policy=Policy(network="allow:example.org"))
    vm = sb.engine("vm")
    assert vm.network == "allow:example.org"  # the admin's list is where a kernel starts
    answer = vm.configure(["network=allow:127.0.0.1:8080"])
    assert "not within the admin's allow-list" in answer and vm.network == "allow:example.org"
    assert vm.configure(["network=allow:example.org:443"]).endswith("network=allow:example.org:443")
    assert vm.configure(["network=none"]).endswith("network=none")
    assert "no network" in Sandbox().engine("vm").configure(["network=allow:127.0.0.1:8080"])


SECRETS = (Secret("TOKEN", "allow:api.example.org", "s3cret-value-1"),
           Secret("OTHER", "allow:api.example.org", "s3cret-value-2"))


def _cell(sb: Sandbox, code: str):
    """A cell through the kernel's CellRunner (magics as a notebook runs them), no VM."""
    out, err = bytearray(), bytearray()
    streams = Streams(Sink(out), Sink(err), CancelToken())
    outcome = asyncio.run(CellRunner(sb, logging.getLogger("test")).run(code, streams))
    return outcome.result, (out + err).decode()


class Sink:
    def __init__(self, buffer: bytearray) -> None:
        self.buffer = buffer

    def write(self, data: bytes) -> None:
        self.buffer += data


def test_a_cell_cannot_take_the_network_from_the_admins_secrets():
    """Issue 17: secrets with the network disabled are a clear error, not a notice. The cell
    that asks for network=none fails naming the secrets and the two ways on; the error leaves
    the settings as they were."""
    sb = Sandbox(policy=Policy(network="allow:api.example.org", secrets=SECRETS))
    result, _ = _cell(sb, "%vm config network=none")
    assert result.status != 0 and result.error is not None
    message = result.error.evalue
    assert "network=none, but the admin gave this kernel the secrets TOKEN, OTHER" in message
    assert "%vm config network=allow:HOST" in message and "%vm config network=none secrets=off" in message
    assert "s3cret" not in message
    vm = sb.engine("vm")
    assert vm.network == "allow:api.example.org" and bool(vm.secrets)
    result, text = _cell(sb, "%vm config network=none secrets=off")
    assert result.error is None and text.strip().endswith("network=none secrets=off")
    assert vm.network == "none" and not vm.secrets and vm._guest_env(False).get("TOKEN") is None
    result, _ = _cell(sb, "%vm config secrets=on")  # back on without a network: refused too
    assert result.error is not None and "secrets=off" in result.error.evalue and not vm.secrets
    result, _ = _cell(sb, "%vm config network=allow:api.example.org secrets=on")
    assert result.error is None and vm.secrets and vm.network == "allow:api.example.org"


def test_a_vm_without_network_does_not_start_with_secrets():
    """Should a VM ever be asked to start without network while secrets are on, the start
    fails with the same message, before any QEMU runs."""
    sb = Sandbox(policy=Policy(network="allow:api.example.org", secrets=SECRETS))
    vm = sb.engine("vm")
    vm.network = "none"
    with pytest.raises(VmError, match="secrets TOKEN, OTHER.*secrets=off"):
        asyncio.run(vm.start(lambda line: None))
    assert vm.machine is None


def test_secrets_whose_value_is_missing_do_not_hold_the_network():
    sb = Sandbox(policy=Policy(network="allow:api.example.org", secrets=(Secret("TOKEN", "allow:api.example.org"),)))
    result, _ = _cell(sb, "%vm config network=none")
    assert result.error is None and sb.engine("vm").network == "none"


def test_refused_vm_settings_fail_the_cell():
    result, _ = _cell(Sandbox(), "%vm config vcpus=99")
    assert result.error is not None and "vcpus=99 is above this kernel's ceiling" in result.error.evalue
    result, _ = _cell(Sandbox(), "%vm config vcpus=0")
    assert result.error is not None and "vcpus must be" in result.error.evalue


class FakeGuestConnection:
    """What the proxy sees of one guest connection: the request bytes, then the reply."""

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.reply = bytearray()
        self.closed = asyncio.Event()

    def events(self):
        async def gen():
            yield "stdout", self.request
            await self.closed.wait()
        return gen()

    def write(self, data: bytes) -> None:
        self.reply += data

    async def drain(self) -> None:
        """What is written is taken at once: never a wait."""

    def close_input(self) -> None:
        self.closed.set()


async def _through_proxy(rules: str, request: str) -> tuple[bytes, list[str]]:
    async def serve(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(CANARY) + CANARY)
        await writer.drain()
        writer.close()
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    log = AccessLog()
    proxy = EgressProxy(parse_allow_list(rules.format(port=port)), log)
    conn = FakeGuestConnection(request.format(port=port).encode())
    await asyncio.wait_for(proxy._handle(conn), 20)
    server.close()
    return bytes(conn.reply), log.lines()


@pytest.mark.parametrize("rules, request_text", [
    ("allow:localhost:{port}", "GET http://localhost:{port}/ HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n"),
    ("allow:localhost:{port}", "CONNECT localhost:{port} HTTP/1.1\r\n\r\n"),
    ("allow:localhost:{port}", "CONNECT [::ffff:127.0.0.1]:{port} HTTP/1.1\r\n\r\n"),
    ("allow:localhost:{port}", "CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n"),
])
def test_proxy_refuses_loopback_behind_a_name(rules, request_text):
    reply, log = asyncio.run(_through_proxy(rules, request_text))
    assert CANARY not in reply and reply.startswith(b"HTTP/1.1 403"), reply
    assert any("DENIED" in line for line in log)


def test_proxy_reaches_an_address_the_admin_listed_exactly():
    reply, log = asyncio.run(_through_proxy("allow:127.0.0.1:{port}",
                                            "GET http://127.0.0.1:{port}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"))
    assert CANARY in reply and any("ALLOWED" in line for line in log)


class EndingGuestConnection(FakeGuestConnection):
    """A guest that sends its bytes and then ends the connection."""

    def events(self):
        async def gen():
            yield "stdout", self.request
        return gen()


async def _unreadable_request(tmp_path, request: bytes, ends: bool):
    log = AccessLog(str(tmp_path / "egress.jsonl"))
    proxy = EgressProxy(parse_allow_list("allow:example.org"), log)
    conn = (EndingGuestConnection if ends else FakeGuestConnection)(request)
    await asyncio.wait_for(proxy._handle(conn), 20)
    log.close()
    path = tmp_path / "egress.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    return bytes(conn.reply), list(log.records), [json.loads(line) for line in lines]


@pytest.mark.parametrize("request_bytes, ends, code, method, reason", [
    (b"GARBAGE\r\n\r\n", False, 400, "-", "bad request: malformed request line"),
    (b"GET /relative HTTP/1.1\r\nHost: example.org\r\n\r\n", False, 400, "GET",
     "bad request: not an absolute http:// URL"),
    (b"CONNECT example.org:443 HTTP/1.1\r\nno colon here\r\n\r\n", False, 400, "CONNECT",
     "bad request: malformed header line"),
    (b"GET http://example.org/ HTTP/1.1\r\nX-Big: " + b"a" * (70 << 10), False, 431, "GET",
     "bad request: request header too large"),
    (b"GET http://example.org/ HTTP/1.1\r\nX-Big: " + b"a" * (70 << 10) + b"\r\n\r\n", False, 431, "GET",
     "bad request: request header too large"),
    (b"GET http://example.org/ HTTP/1.1\r\nHost: exam", True, 400, "GET",
     "bad request: connection closed in the middle of a request"),
])
def test_unreadable_requests_are_logged(tmp_path, request_bytes, ends, code, method, reason):
    """Malformed or oversized requests the proxy answers itself still make an access record
    (kumoba's AccessSink sees every request): denied, host '-', the bytes both ways."""
    reply, records, lines = asyncio.run(_unreadable_request(tmp_path, request_bytes, ends))
    assert reply.startswith(f"HTTP/1.1 {code} ".encode()), reply[:80]
    [record] = records
    assert (record.method, record.host, record.port, record.verdict, record.reason) == \
        (method, "-", None, "denied", reason)
    assert (record.bytes_up, record.bytes_down) == (len(request_bytes), len(reply))
    assert f"DENIED {method} - " in record.line()
    [entry] = lines
    assert {k: entry[k] for k in ("method", "host", "port", "verdict", "bytes_up", "bytes_down")} == {
        "method": method, "host": "-", "port": None, "verdict": "denied",
        "bytes_up": len(request_bytes), "bytes_down": len(reply)}


def test_a_request_head_that_never_completes_is_logged(tmp_path, monkeypatch):
    monkeypatch.setattr(egress, "FIRST_HEAD_TIMEOUT", 0.2)
    partial = b"CONNECT example.org:443 HTTP/1.1\r\n"
    reply, [record], [entry] = asyncio.run(_unreadable_request(tmp_path, partial, ends=False))
    assert reply == b""  # no answer: the connection is closed
    assert (record.method, record.host, record.verdict, record.bytes_up, record.bytes_down) == \
        ("CONNECT", "-", "denied", len(partial), 0)
    assert record.reason == "no complete request within 0.2 s" and entry["reason"] == record.reason


def test_a_connection_closed_without_a_byte_is_no_request(tmp_path):
    reply, records, lines = asyncio.run(_unreadable_request(tmp_path, b"", ends=True))
    assert reply == b"" and records == [] and lines == []


def test_denied_records_count_the_answer(tmp_path):
    """A denial is logged once its answer is sent: the admin's file has its bytes too."""
    reply, [record], [entry] = asyncio.run(_unreadable_request(
        tmp_path, b"CONNECT other.example:443 HTTP/1.1\r\n\r\n", ends=False))
    assert reply.startswith(b"HTTP/1.1 403") and record.host == "other.example" and record.port == 443
    assert entry["bytes_down"] == record.bytes_down == len(reply) > 0


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _flood(log: AccessLog, count: int) -> list[bytes]:
    proxy = EgressProxy(parse_allow_list("allow:example.org"), log)
    conns = [FakeGuestConnection(b"GET http://evil.example/%d HTTP/1.1\r\nHost: evil.example\r\n\r\n" % i)
             for i in range(count)]
    await asyncio.wait_for(asyncio.gather(*(proxy._handle(conn) for conn in conns)), 60)
    return [bytes(conn.reply) for conn in conns]


def _entries(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_flood_of_requests_is_rate_limited_in_the_admins_log(tmp_path):
    """A guest opening connections as fast as it can (each denied) gets the burst written, the
    rest summed up in one record; %vm egress keeps its last records as before."""
    clock = FrozenClock()
    path = tmp_path / "egress.jsonl"
    log = AccessLog(str(path), rate=1.0, burst=20, clock=clock)
    replies = asyncio.run(_flood(log, 400))
    assert all(reply.startswith(b"HTTP/1.1 403") for reply in replies)
    assert len(_entries(path)) == 20 and len(log.records) == 400
    clock.now += 5  # five tokens later: the summary first, then the records that fit
    asyncio.run(_flood(log, 10))
    log.close()
    entries = _entries(path)
    assert len(entries) == 20 + 1 + 5 + 1
    summaries = [e for e in entries if e["verdict"] == "suppressed"]
    assert [e["reason"].split(" records")[0] for e in summaries] == ["380", "5"]
    assert "380 denied" in summaries[0]["reason"] and entries[20] == summaries[0]
    denied_bytes = sum(r.bytes_down for r in list(log.records)[20:400])
    assert summaries[0]["bytes_down"] == denied_bytes > 0


def test_the_admins_log_has_a_size_cap_per_kernel(tmp_path):
    path = tmp_path / "egress.jsonl"
    log = AccessLog(str(path), rate=1e9, burst=10**9, file_cap=4000)
    asyncio.run(_flood(log, 200))
    log.close()
    entries = _entries(path)
    assert path.stat().st_size <= 4000 + 400 and entries[-1]["verdict"] == "log-full"
    assert sum(e["verdict"] == "log-full" for e in entries) == 1 and "cap is 4000" in entries[-1]["reason"]
    assert "is full for this kernel" in log.table()["text/plain"]
