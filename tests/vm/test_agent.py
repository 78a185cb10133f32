"""The guest agent's protocol: file requests, validation on both sides, malformed frames."""
from __future__ import annotations

import asyncio
import errno
import os
import struct

import pytest

from sandbox_kernel.vm import protocol as P
from sandbox_kernel.vm.client import AgentError, _Request
from sandbox_kernel.vm.machine import Machine

pytestmark = [pytest.mark.vm, pytest.mark.slow]


def with_machine(guest_image, body):
    async def main():
        from sandbox_kernel.vm.engine import VmEngine
        from sandbox_kernel.sandbox import Sandbox

        # the engine knows where the saved state is: resume through it, then drive the agent
        sandbox = Sandbox()
        engine: VmEngine = sandbox.engine("vm")
        try:
            machine: Machine = await engine.start(lambda line: None)
            return await body(machine.client)
        finally:
            await sandbox.shutdown()
    return asyncio.run(main())


def test_file_requests(guest_image):
    async def body(client):
        await client.mkdir("/tmp/a/b", parents=True)
        await client.write_file("/tmp/a/b/f", b"x" * (3 * P.CHUNK + 5), mode=0o600, mtime_ns=1_600_000_000_123_456_789)
        st = await client.stat("/tmp/a/b/f")
        assert st == {"type": "file", "mode": 0o600, "size": 3 * P.CHUNK + 5, "mtime_ns": 1_600_000_000_123_456_789,
                      "target": None}
        assert await client.read_file("/tmp/a/b/f") == b"x" * (3 * P.CHUNK + 5)
        assert await client.read_chunk("/tmp/a/b/f", 3 * P.CHUNK, 100) == b"xxxxx"
        names = {e["name"]: e["type"] for e in await client.list("/tmp/a", recursive=True)}
        assert names == {"b": "dir", "b/f": "file"}
        with pytest.raises(AgentError) as e:
            await client.remove("/tmp/a")
        assert e.value.errno == errno.ENOTEMPTY
        await client.remove("/tmp/a", recursive=True)
        with pytest.raises(AgentError) as e:
            await client.stat("/tmp/a")
        assert e.value.errno == errno.ENOENT and "No such file" in e.value.strerror
        with pytest.raises(AgentError) as e:
            await client.read_file("/nonexistent")
        assert e.value.errno == errno.ENOENT
    with_machine(guest_image, body)


def test_host_side_validation():
    with pytest.raises(P.ProtocolError):
        P.check_path("relative/path")
    with pytest.raises(P.ProtocolError):
        P.check_path("/with\0nul")
    with pytest.raises(P.ProtocolError):
        P.check_path("/" + "a" * 5000)
    with pytest.raises(P.ProtocolError):
        P.check_words(["ok", "bad\0arg"], "arguments")
    with pytest.raises(P.ProtocolError):
        P.frame(P.WRITE, 1, b"x" * (P.MAX_PAYLOAD + 1))
    with pytest.raises(P.ProtocolError):
        P.parse_fields(b"\x00\x01\x00\x00\x00\x09abc")


def test_agent_answers_malformed_frames_and_keeps_serving(guest_image):
    async def body(client):
        async def expect_error(raw: bytes, req_id: int, code=errno.EINVAL) -> str:
            req = client._requests[req_id] = _Request()  # listen on the id the raw frame uses
            await client.send_raw(raw)
            type_, payload = await asyncio.wait_for(req.queue.get(), 10)
            client._close(req_id)
            assert type_ == P.ERROR, (type_, payload)
            info = P.field_map(payload)
            assert info[P.T_ERRNO] == code
            return info[P.T_MESSAGE].decode()

        rid = 900_001
        cases = [
            (P.frame(99, rid, b""), "unknown request type"),
            (P.frame(P.STAT, rid, b"\x00\x01\x00\x00"), "truncated field header"),
            (P.frame(P.STAT, rid, b"\x00\x01\x00\x00\x10\x00/x"), "field length exceeds"),
            (P.frame(P.STAT, rid, P.field(P.T_PATH, b"relative")), "absolute"),
            (P.frame(P.STAT, rid, P.field(P.T_PATH, b"/a\0b")), "NUL"),
            (P.frame(P.STAT, rid, P.field(P.T_PATH, b"/" + b"a" * 5000)), "path length"),
            (P.frame(P.STAT, rid, P.field(77, b"?")), "unknown field"),
            (P.frame(P.STAT, rid, struct.pack(">HI", P.T_FLAGS, 3) + b"abc"), "8 bytes"),
            (P.frame(P.EXEC, rid, b""), "no argv"),
            (P.frame(P.EXEC, rid, P.field(P.T_ARG, b"ls") + P.field(P.T_ENV, b"NOEQUALS")), "NAME=VALUE"),
            (P.frame(P.READ, rid, P.fields([(P.T_PATH, b"/etc/hostname"), (P.T_LENGTH, 1 << 30)])), "length over"),
            (P.frame(P.SIGNAL, rid, P.field(P.T_SIGNAL, 999)), "bad signal"),
            (P.frame(P.REMOVE, rid, P.field(P.T_PATH, b"/")), "refusing"),
        ]
        for i, (raw, words) in enumerate(cases):
            code = errno.EPERM if words == "refusing" else errno.EINVAL
            message = await expect_error(raw, rid, code)
            assert words in message, (i, message)
            assert (await client.hello(timeout=10)) is not None
        # bad version and oversized length: an error, then the stream resynchronises
        bad_version = struct.pack(">2sBBII", b"VM", 7, P.HELLO, rid, 0)
        assert "version" in await expect_error(bad_version, rid, errno.EPROTO)
        huge = struct.pack(">2sBBII", b"VM", P.VERSION, P.WRITE, rid, 1 << 30)
        assert "over limit" in await expect_error(huge, rid, errno.EPROTO)
        await client.send_raw(os.urandom(3000).replace(b"VM", b"vm"))
        info = await client.hello(timeout=10, data=b"still here")
        assert info[P.T_DATA] == b"still here"
        # random garbage frames with a valid header: never a crash
        for _ in range(50):
            type_ = int.from_bytes(os.urandom(1), "big") % 16
            if type_ in (P.SHUTDOWN, P.EXEC, P.SYNC, P.REMOVE, P.WRITE, P.MKDIR):
                continue
            await client.send_raw(P.frame(type_, 950_000, os.urandom(int.from_bytes(os.urandom(1), "big"))))
        assert (await client.hello(timeout=10)) is not None
        ex = await client.exec(["echo", "ok"])
        out = b"".join([d async for _, d in ex.events()])
        assert out == b"ok\n" and ex.exit.status == 0
    with_machine(guest_image, body)


def test_exec_request_options(guest_image):
    async def body(client):
        ex = await client.exec(["sh", "-c", "echo $FOO; pwd; cat"], cwd="/tmp", env={"FOO": "bar"},
                               stdin=_chunks([b"in", b"put\n"]))
        out = b"".join([d async for _, d in ex.events()])
        assert out == b"bar\n/tmp\ninput\n"
        ex = await client.exec(["sleep", "10"], timeout=0.5)
        [_ async for _ in ex.events()]
        assert ex.exit.kind == P.TIMED_OUT and ex.exit.status == 124
        ex = await client.exec(["sh", "-c", "head -c 100000 /dev/zero"], output_limit=1000)
        out = b"".join([d async for _, d in ex.events()])
        assert len(out) == 1000 and ex.exit.kind == P.OUTPUT_LIMIT
        with pytest.raises(AgentError) as e:
            ex = await client.exec(["true"], cwd="/nonexistent")
            [_ async for _ in ex.events()]
        assert e.value.errno == errno.ENOENT
    with_machine(guest_image, body)


def _chunks(parts):
    it = iter(parts)

    async def next_chunk():
        return next(it, b"")
    return next_chunk


def test_pty_shell_with_resize(guest_image):
    async def body(client):
        ex = await client.exec(["bash", "-c", "tty; stty size; trap 'stty size' WINCH; echo ready; "
                                              "read line; echo got:$line"],
                               pty=(30, 100), interactive=True, env={"TERM": "xterm"})
        out = b""
        async for _, data in ex.events():
            out += data
            if b"ready" in out and b"resized" not in out:
                out += b"resized"
                await ex.resize(40, 120)
                await asyncio.sleep(0.5)
                ex.write(b"hello\n")
        text = out.decode().replace("\r", "")
        assert "/dev/pts/" in text and "30 100" in text
        assert "40 120" in text
        assert "got:hello" in text
        assert ex.exit.status == 0
    with_machine(guest_image, body)


SERVER = """
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 8765)); s.listen(1); print("listening", flush=True)
c, _ = s.accept(); data = b""
while True:
    chunk = c.recv(65536)
    if not chunk: break
    data += chunk
c.sendall(data.upper()); c.close()
"""


def test_connect_to_a_guest_port(guest_image):
    async def body(client):
        with pytest.raises(AgentError) as e:
            await client.connect(8765)
        assert e.value.errno == errno.ECONNREFUSED
        server = await client.exec(["python3", "-c", SERVER])
        events = server.events()
        kind, first = await events.__anext__()
        assert first == b"listening\n"
        conn = await client.connect(8765)
        payload = os.urandom(300_000).hex().encode()
        conn.write(payload)
        conn.close_input()
        back = b"".join([d async for _, d in conn.events()])
        assert back == payload.upper()
        [_ async for _ in events]
        assert server.exit.status == 0
    with_machine(guest_image, body)
