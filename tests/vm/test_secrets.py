"""Secrets from a real guest: the guest holds only a placeholder (environment, /proc, files), the
secret's host receives the value over HTTPS that the proxy terminates with the kernel's CA, any
other host receives the placeholder, and the value never reaches the notebook."""
from __future__ import annotations

import asyncio
import json
import socket
import ssl
import threading
from pathlib import Path

import pytest

from sandbox_kernel.kernel.install import install
from sandbox_kernel.policy import Policy, Secret
from tests.support.kernelclient import execute, run_ok, start_kernel, stream_text
from tests.support.tlshelpers import make_server_cert

from .vm_helpers import run_cell, with_sandbox

pytestmark = [pytest.mark.vm, pytest.mark.slow]

VALUE = "s3cret-VALUE-7d1e0a9b"
#: matches VALUE but is not VALUE: a guest command line may carry it without leaking it
PATTERN = VALUE[:-1] + "[" + VALUE[-1] + "]"

GUEST_CLIENT = """
import os, sys, urllib.request
https_port, http_port = sys.argv[1:3]
token = os.environ["TOKEN"]
print("placeholder", token.startswith("sandbox-secret-TOKEN-"))
for url in (f"https://127.0.0.1:{https_port}/api", f"http://127.0.0.1:{http_port}/other"):
    request = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    print(urllib.request.urlopen(request, timeout=60).read().decode())
"""


def listener() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


async def reflecting_servers(cert: str, key: str, seen: list[bytes], https_sock, http_sock):
    """An HTTPS and an HTTP server on loopback that record each request head and echo it back
    (a body that ends where the connection does: the proxy must pass the server's close on)."""
    async def reflect(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            seen.append(head)
            writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + head)
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        writer.close()
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    return (await asyncio.start_server(reflect, sock=https_sock, ssl=tls),
            await asyncio.start_server(reflect, sock=http_sock))


def test_the_guest_never_sees_the_secret(guest_image, tmp_path):
    cert, key = make_server_cert(str(tmp_path))
    seen: list[bytes] = []
    log_file = tmp_path / "egress.jsonl"
    (https_sock, https_port), (http_sock, http_port) = listener(), listener()
    policy = Policy(network=f"allow:127.0.0.1:{https_port},127.0.0.1:{http_port}",
                    secrets=(Secret("TOKEN", f"allow:127.0.0.1:{https_port}", VALUE),),
                    egress_log=str(log_file), egress_ca_file=cert)

    async def body(sb):
        https, http = await reflecting_servers(cert, key, seen, https_sock, http_sock)
        engine = sb.engine("vm")
        sb.fs.write_text("/workspace/client.py", GUEST_CLIENT)
        run = await run_cell(sb, f"no_proxy= python3 client.py {https_port} {http_port}")
        look = await run_cell(sb, f"env | grep -c '^TOKEN=sandbox-secret-'; "
                                  f"grep -rls '{PATTERN}' /proc/[0-9]*/environ /proc/[0-9]*/cmdline /etc /root /tmp "
                                  f"/workspace /run /home 2>/dev/null; echo found=$?",
                              args=["--root"])  # root reads every process's environment
        status, egress = await engine.magic("status"), await engine.magic("egress")
        https.close()
        http.close()
        return run, look, status, egress, engine
    run, look, status, egress, engine = with_sandbox(body, policy=policy)
    assert run.status == 0, run.err.text
    lines = run.out.text.splitlines()
    assert lines[0] == "placeholder True"
    https_head, http_head = seen
    assert f"Authorization: Bearer {VALUE}".encode() in https_head  # the secret's host got the value
    # the other host: the placeholder
    assert VALUE.encode() not in http_head and b"Bearer sandbox-secret-TOKEN-" in http_head
    assert "Bearer " + "*" * len(VALUE) in run.out.text  # the reflection came back masked
    assert look.out.text.split() == ["1", "found=1"], look.out.text  # nothing in the guest holds the value
    records = list(engine.egress.records)
    assert [(r.method, r.mode, r.secrets) for r in records] == [("CONNECT", "tls-terminated", ["TOKEN"]),
                                                                ("GET", "http", [])]
    file_lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert [e["secrets"] for e in file_lines] == [["TOKEN"], []]
    assert "secret TOKEN: for 127.0.0.1:" in status and "sandbox-secret-TOKEN-" in status
    assert "CONNECT" in egress["text/plain"] and "<table>" in egress["text/html"]
    for shown in (run.out.text, run.err.text, look.out.text, look.err.text, status, json.dumps(egress),
                  log_file.read_text(), "\n".join(engine.egress.lines())):
        assert VALUE not in shown


def test_no_network_needs_the_secrets_off(guest_image):
    """kumoba refuses secrets without a network: `%vm config network=none` fails the cell while
    the admin's secrets are on (tests/hostile/test_network_policy.py); with `secrets=off` as well
    the VM runs without network and without the secret."""
    async def body(sb):
        engine = sb.engine("vm")
        with pytest.raises(ValueError, match="network=none, but the admin gave this kernel the secret TOKEN"):
            await engine.magic("config network=none")
        assert engine.network == "allow:api.example.org"  # refused: nothing changed
        assert (await engine.magic("config network=none secrets=off")).endswith("network=none secrets=off")
        run = await run_cell(sb, "echo ${TOKEN-unset} ${https_proxy-no-proxy}")
        return run, await engine.magic("status")
    run, status = with_sandbox(body, policy=Policy(network="allow:api.example.org",
                                                   secrets=(Secret("TOKEN", "allow:api.example.org", VALUE),)))
    assert run.status == 0 and run.out.text == "unset no-proxy\n", run.err.text
    assert "TOKEN" not in run.err.text
    assert "secret TOKEN: for api.example.org; off in this VM" in status and VALUE not in status


def qemu_of(kernel_pid: int) -> list[Path]:
    """The /proc entries of QEMU processes whose parent is ``kernel_pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and b"qemu-system" in (entry / "cmdline").read_bytes() \
                    and f"PPid:\t{kernel_pid}\n" in (entry / "status").read_text():
                found.append(entry)
        except OSError:
            continue
    return found


def test_secrets_from_a_notebook(guest_image, tmp_path, monkeypatch):
    """The admin's kernelspec names the secret; its value is in the kernel's environment only.
    From a notebook: the request gets it, %vm egress shows a table, and neither the outputs nor
    QEMU's environment hold it."""
    cert, key = make_server_cert(str(tmp_path))
    (https_sock, https_port), (http_sock, http_port) = listener(), listener()
    seen: list[bytes] = []
    loop = asyncio.new_event_loop()
    servers = loop.run_until_complete(reflecting_servers(cert, key, seen, https_sock, http_sock))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    prefix = tmp_path / "prefix"
    monkeypatch.setenv("JUPYTER_PATH", str(prefix / "share" / "jupyter"))
    monkeypatch.setenv("TOKEN", VALUE)
    install("sandbox", prefix=str(prefix), policy_argv=[
        "--network", f"allow:127.0.0.1:{https_port},127.0.0.1:{http_port}",
        "--secret", f"TOKEN@127.0.0.1:{https_port}", "--egress-ca-file", cert])
    try:
        with start_kernel("sandbox") as (km, kc):
            run_ok(kc, f"cat > client.py <<'EOF'\n{GUEST_CLIENT}\nEOF")
            _, ran = execute(kc, f"%%vm\nno_proxy= python3 client.py {https_port} {http_port}", timeout=120)
            assert stream_text(ran).startswith("placeholder True\n"), ran
            _, table = execute(kc, "%vm egress", timeout=120)
            [result] = [m["content"]["data"] for m in table if m["msg_type"] == "execute_result"]
            assert "tls-terminated" in result["text/plain"] and "<table>" in result["text/html"]
            _, status = execute(kc, "%vm status", timeout=120)
            assert "secret TOKEN: for 127.0.0.1:" in stream_text(status)
            [qemu] = qemu_of(km.provisioner.process.pid)
            assert VALUE.encode() not in (qemu / "environ").read_bytes()
            assert f"Bearer {VALUE}".encode() in seen[0] and VALUE.encode() not in seen[1]
            for messages in (ran, table, status):
                assert VALUE not in json.dumps([m["content"] for m in messages])
    finally:
        for server in servers:
            loop.call_soon_threadsafe(server.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
