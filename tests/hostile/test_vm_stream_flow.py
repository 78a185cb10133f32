"""Flow control of the guest's proxied connections (agent streams), without QEMU: a fake agent
on a socketpair plays the guest, loopback servers play the upstream hosts, the real
AgentClient and EgressProxy sit between. Whatever the guest or the host does (push without
end, stop reading, ignore the window), a connection holds at most about a window of the
kernel's memory, and a stalled connection stalls nothing else."""
from __future__ import annotations

import asyncio
import socket
import tracemalloc

import pytest
from sandbox_kernel.netpolicy import parse_allow_list
from sandbox_kernel.vm import client as client_module
from sandbox_kernel.vm import protocol as P
from sandbox_kernel.vm.client import (CREDIT_BATCH, INPUT_QUEUED, MAX_ACCEPTED, STDIN_WINDOW, STREAM_WINDOW,
                                      AgentClient)
from sandbox_kernel.vm.egress import EgressProxy

MiB = 1 << 20
PUSHED = 48 * MiB      # what a guest or an upstream tries to push through one connection
KERNEL_BOUND = 8 * MiB  # traced memory the whole exchange may take (a few windows and chunks)
PIECE = b"x" * 65536


async def until(condition, what: str) -> None:
    """Wait for a condition the event loop brings about (checked as tasks run)."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.005)
    try:
        await asyncio.wait_for(wait(), 60)
    except asyncio.TimeoutError:
        raise AssertionError(f"never happened: {what}") from None


class StreamAgent:
    """A guest agent with guest-side connections: ``accept`` opens one (ACCEPT), ``push``
    sends its bytes as STDOUT (within the host's credit unless ``ignore_window``); STDIN for
    it is counted and acknowledged only while ``reading[id]``; the end of its input closes it
    (EXIT), as a guest client does after its reply. EXEC, SYNC and HELLO are answered at once."""

    def __init__(self, ignore_window: bool = False) -> None:
        self.ignore_window = ignore_window
        self.writer: asyncio.StreamWriter | None = None
        self.credit: dict[int, int] = {}
        self.credit_changed = asyncio.Event()
        self.received: dict[int, int] = {}     # STDIN bytes per stream
        self.unacked: dict[int, int] = {}
        self.reading: dict[int, bool] = {}
        self.inputs: dict[int, bytearray] = {}  # STDIN kept for streams that carry requests
        self.closed: set[int] = set()          # streams ended (CREDIT_CLOSE, or the input's end)
        self.closed_by_host: set[int] = set()  # streams the host closed with CREDIT_CLOSE
        self.next_id = 1

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        try:
            while True:
                _, _, type_, rid, n = P.HEADER.unpack(await reader.readexactly(P.HEADER.size))
                body = await reader.readexactly(n) if n else b""
                if type_ == P.CREDIT:
                    info = P.field_map(body)
                    if info.get(P.T_FLAGS, 0) & P.CREDIT_CLOSE:
                        self.closed.add(rid)
                        self.closed_by_host.add(rid)
                        writer.write(P.frame(P.EXIT, rid, P.field(P.T_EXIT_KIND, P.EXITED)))
                    self.credit[rid] = self.credit.get(rid, 0) + int(info.get(P.T_LENGTH, 0))  # type: ignore[arg-type]
                    assert self.credit[rid] <= STREAM_WINDOW, "the host granted more than it took"
                    self.credit_changed.set()
                elif type_ == P.STDIN:
                    self.received[rid] = self.received.get(rid, 0) + n
                    if rid in self.inputs:
                        self.inputs[rid] += body
                    self.unacked[rid] = self.unacked.get(rid, 0) + n
                    self.ack(rid)
                    if n == 0 and rid & P.GUEST_ID_BIT and rid not in self.closed:  # the guest closes too
                        self.closed.add(rid)
                        writer.write(P.frame(P.EXIT, rid, P.field(P.T_EXIT_KIND, P.EXITED)))
                elif type_ == P.EXEC:
                    writer.write(P.frame(P.OK, rid, P.field(P.T_PID, 7)))
                    writer.write(P.frame(P.STDOUT, rid, b"exec output\n"))
                    writer.write(P.frame(P.EXIT, rid, P.fields([(P.T_EXIT_KIND, P.EXITED), (P.T_EXIT_CODE, 0)])))
                elif type_ == P.HELLO:
                    writer.write(P.frame(P.PONG, rid, P.field(P.T_VERSION, P.VERSION)))
                else:
                    writer.write(P.frame(P.OK, rid))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    def ack(self, rid: int) -> None:
        if self.reading.get(rid, True) and self.unacked.get(rid):
            assert self.writer is not None
            self.writer.write(P.frame(P.STDIN_ACK, rid, P.fields([(P.T_LENGTH, self.unacked[rid]), (P.T_FLAGS, 0)])))
            self.unacked[rid] = 0

    def start_reading(self, rid: int) -> None:
        self.reading[rid] = True
        self.ack(rid)

    def accept(self, reading: bool = True, keep_input: bool = False) -> int:
        rid = P.GUEST_ID_BIT | self.next_id
        self.next_id += 1
        self.credit[rid] = STREAM_WINDOW
        self.reading[rid] = reading
        if keep_input:
            self.inputs[rid] = bytearray()
        assert self.writer is not None
        self.writer.write(P.frame(P.ACCEPT, rid))
        return rid

    async def push(self, rid: int, data: bytes | int) -> None:
        """Send ``data`` (or that many bytes, made as they go) on the stream as the guest's
        bytes, as fast as the credit allows."""
        assert self.writer is not None
        left = data if isinstance(data, int) else len(data)
        view = memoryview(PIECE if isinstance(data, int) else data)
        while left:
            if not self.ignore_window:
                while self.credit[rid] <= 0:
                    if rid in self.closed:
                        return
                    self.credit_changed.clear()
                    await self.credit_changed.wait()
            take = min(left, 65536) if self.ignore_window else min(left, self.credit[rid], 65536)
            self.writer.write(P.frame(P.STDOUT, rid, bytes(view[:take])))
            self.credit[rid] -= take
            left -= take
            if not isinstance(data, int):
                view = view[take:]
            await self.writer.drain()

    def finish(self, rid: int) -> None:
        assert self.writer is not None
        self.writer.write(P.frame(P.EXIT, rid, P.field(P.T_EXIT_KIND, P.EXITED)))


class Upstream:
    """A loopback host that reads nothing until ``read.set()`` (then counts every byte), or
    that sends ``PUSHED`` bytes as fast as it may."""

    def __init__(self) -> None:
        self.read = asyncio.Event()
        self.got = 0
        self.sent = 0
        self.connected = asyncio.Event()
        self.done = asyncio.Event()

    async def sink(self, reader, writer) -> None:
        self.connected.set()
        await self.read.wait()
        while data := await reader.read(65536):
            self.got += len(data)
        self.done.set()
        writer.close()

    async def source(self, reader, writer) -> None:
        self.connected.set()
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % PUSHED)
        try:
            while self.sent < PUSHED:
                writer.write(PIECE)
                self.sent += len(PIECE)
                await writer.drain()
        except ConnectionError:
            pass
        self.done.set()
        writer.close()


async def connect(agent: StreamAgent) -> tuple[AgentClient, list, asyncio.Task]:
    """An agent client talking to ``agent`` over a socket pair; the streams it accepts listed."""
    a, b = socket.socketpair()
    r1, w1 = await asyncio.open_connection(sock=a)
    r2, w2 = await asyncio.open_connection(sock=b)
    agent_task = asyncio.ensure_future(agent.serve(r2, w2))
    client = AgentClient(r1, w1)
    streams: list = []
    client.on_accept = streams.append
    client.start()
    await until(lambda: agent.writer is not None, "the agent runs")
    return client, streams, agent_task


async def setup(handler, agent: StreamAgent):
    """The upstream server, the agent client with the proxy serving its accepted streams
    (kept in ``client.accepted`` too)."""
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    a, b = socket.socketpair()
    r1, w1 = await asyncio.open_connection(sock=a)
    r2, w2 = await asyncio.open_connection(sock=b)
    agent_task = asyncio.ensure_future(agent.serve(r2, w2))
    client = AgentClient(r1, w1)
    proxy = EgressProxy(parse_allow_list(f"allow:127.0.0.1:{port}"))
    client.accepted = []  # type: ignore[attr-defined]

    def accept(stream) -> None:
        client.accepted.append(stream)  # type: ignore[attr-defined]
        proxy.serve(stream)
    client.on_accept = accept
    client.start()
    await until(lambda: agent.writer is not None, "the agent runs")
    return server, port, client, proxy, agent_task


async def teardown(server, client, proxy, agent_task) -> None:
    """The VM goes first (every stream ends with AgentGone), then the proxy's tasks."""
    agent_task.cancel()
    client.writer.close()
    server.close()
    for task in list(proxy.tasks):
        task.cancel()
    await asyncio.gather(*proxy.tasks, return_exceptions=True)


def traced(coro):
    """Run ``coro`` with tracemalloc on; returns (its result, peak traced bytes)."""
    tracemalloc.start()
    try:
        result = asyncio.run(coro)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_upload_to_a_host_that_stops_reading_holds_a_window_not_the_upload():
    """The guest pushes 48 MiB to an allowed host that reads nothing: the agent runs out of
    credit after a window and waits; once the host reads, every byte arrives."""
    upstream = Upstream()
    agent = StreamAgent()

    async def main():
        server, port, client, proxy, agent_task = await setup(upstream.sink, agent)
        try:
            rid = agent.accept()
            await agent.push(rid, b"CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port))
            await until(upstream.connected.is_set, "the proxy connects upstream")
            pushing = asyncio.ensure_future(agent.push(rid, PUSHED))
            # stalled: the host reads nothing, the agent has no credit left
            await until(lambda: agent.credit[rid] <= 0 and not agent.credit_changed.is_set(), "the window fills")
            held = client._requests[rid].outstanding
            stalled_memory = tracemalloc.get_traced_memory()[0]
            upstream.read.set()
            await pushing
            agent.finish(rid)
            await until(upstream.done.is_set, "the upload ends")
            return held, stalled_memory
        finally:
            await teardown(server, client, proxy, agent_task)

    (held, stalled_memory), peak = traced(main())
    assert held <= STREAM_WINDOW
    assert upstream.got == PUSHED
    assert peak < KERNEL_BOUND, f"peak {peak >> 20} MiB while {PUSHED >> 20} MiB went through"
    assert stalled_memory < KERNEL_BOUND


def test_an_agent_that_ignores_the_window_loses_the_stream_not_the_kernel():
    """A hostile agent pushes 48 MiB past the window: the stream ends (MalformedReply inside
    the proxy), the agent is told to close it, the queue is dropped; the client goes on."""
    upstream = Upstream()
    agent = StreamAgent(ignore_window=True)

    async def main():
        server, port, client, proxy, agent_task = await setup(upstream.sink, agent)
        try:
            rid = agent.accept()
            await agent.push(rid, b"CONNECT 127.0.0.1:%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port))
            await until(upstream.connected.is_set, "the proxy connects upstream")
            await agent.push(rid, PUSHED)
            await until(lambda: rid in agent.closed_by_host, "the host closes the stream")
            assert rid not in client._requests
            execution = await client.exec(["true"])
            output = [data async for _, data in execution.events()]
            return output, execution.exit
        finally:
            await teardown(server, client, proxy, agent_task)

    (output, exit_info), peak = traced(main())
    assert output == [b"exec output\n"] and exit_info is not None and exit_info.status == 0
    assert peak < KERNEL_BOUND, f"peak {peak >> 20} MiB"


def test_a_download_to_a_guest_that_does_not_read_holds_a_window_and_stalls_nothing_else():
    """An upstream sends 48 MiB as fast as it can to a guest that reads nothing: the kernel
    queues at most INPUT_QUEUED bytes (plus a chunk) and the agent holds STDIN_WINDOW; other
    connections, exec and sync go on meanwhile; once the guest reads, every byte arrives."""
    upstream = Upstream()
    agent = StreamAgent()

    async def main():
        server, port, client, proxy, agent_task = await setup(upstream.source, agent)
        try:
            rid = agent.accept(reading=False)
            await agent.push(rid, b"GET http://127.0.0.1:%d/big HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (port, port))
            await until(lambda: agent.received.get(rid, 0) > STDIN_WINDOW - 65536, "the guest's window fills")
            stream_input = client.accepted[0]._stdin  # type: ignore[attr-defined]
            await until(lambda: stream_input.size > INPUT_QUEUED, "the kernel's queue for the guest fills")
            sent_at_stall = upstream.sent
            # meanwhile: an exec, a sync and a second connection through the proxy
            execution = await client.exec(["true"])
            assert [data async for _, data in execution.events()] == [b"exec output\n"]
            await client.sync_clock_and_rng()
            await client.hello()
            assert agent.received[rid] <= STDIN_WINDOW
            queued = stream_input.size
            agent.start_reading(rid)
            await until(upstream.done.is_set, "the download ends")
            await until(lambda: agent.received[rid] > PUSHED, "the guest has the whole reply")
            return queued, sent_at_stall
        finally:
            await teardown(server, client, proxy, agent_task)

    (queued, sent_at_stall), peak = traced(main())
    assert queued <= INPUT_QUEUED + 65536
    assert sent_at_stall < PUSHED
    assert upstream.sent == PUSHED and agent.received[next(iter(agent.received))] > PUSHED
    assert peak < KERNEL_BOUND, f"peak {peak >> 20} MiB while {PUSHED >> 20} MiB went through"


def test_a_second_connection_goes_on_while_one_is_stalled():
    """Two guest connections to an upstream that reads nothing on the first: the second
    completes a whole request and reply."""
    agent = StreamAgent()

    async def main():
        first_connected = asyncio.Event()

        async def handler(reader, writer):
            head = await reader.readuntil(b"\r\n\r\n")
            if b"/stall" in head:
                first_connected.set()
                await asyncio.Event().wait()  # never reads again
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            await writer.drain()
            writer.close()

        server, port, client, proxy, agent_task = await setup(handler, agent)
        try:
            first = agent.accept()
            await agent.push(first, b"POST http://127.0.0.1:%d/stall HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                                    b"Content-Length: %d\r\n\r\n" % (port, port, PUSHED))
            await until(first_connected.is_set, "the first request reaches the host")
            pushing = asyncio.ensure_future(agent.push(first, PUSHED))
            await until(lambda: agent.credit[first] <= 0 and not agent.credit_changed.is_set(), "the window fills")
            second = agent.accept(keep_input=True)
            await agent.push(second, b"GET http://127.0.0.1:%d/ok HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                                     % (port, port))
            await until(lambda: agent.inputs[second].endswith(b"\r\n\r\nok"), "the second reply arrives")
            assert not pushing.done()
            pushing.cancel()
            return client._requests[first].outstanding
        finally:
            await teardown(server, client, proxy, agent_task)

    held = asyncio.run(main())
    assert held <= STREAM_WINDOW


def test_an_abandoned_stream_is_closed_in_the_agent():
    """The host stops reading a connection (its consumer ends): the agent is told to close it,
    so its full window cannot keep it open forever."""
    agent = StreamAgent()

    async def main():
        client, streams, agent_task = await connect(agent)
        try:
            rid = agent.accept()
            await agent.push(rid, CREDIT_BATCH * 2)
            await until(lambda: bool(streams), "the stream is accepted")
            events = streams[0].events()
            taken = 0
            async for _, data in events:
                taken += len(data)
                if taken >= CREDIT_BATCH:
                    break
            await events.aclose()
            await until(lambda: rid in agent.closed_by_host, "the agent is told to close the stream")
            return taken
        finally:
            agent_task.cancel()
            client.writer.close()

    assert asyncio.run(main()) >= CREDIT_BATCH


def test_a_window_overrun_is_a_protocol_error_for_that_stream_only():
    async def main():
        agent = StreamAgent(ignore_window=True)
        client, streams, agent_task = await connect(agent)
        try:
            rid = agent.accept()
            await agent.push(rid, STREAM_WINDOW + 1)
            await until(lambda: bool(streams), "the stream is accepted")
            error = None
            try:
                async for _ in streams[0].events():
                    pass
            except P.MalformedReply as e:
                error = e
            assert (await client.hello())[P.T_VERSION] == P.VERSION  # the client still serves
            return error
        finally:
            agent_task.cancel()
            client.writer.close()

    error = asyncio.run(main())
    assert error is not None and "more than its window" in str(error)


def test_stdin_window_constant_matches_the_agent():
    """The windows the host assumes are the agent's (agent.c), so an honest agent never trips them."""
    import re
    from sandbox_kernel.guest.build import AGENT_SOURCE
    source = AGENT_SOURCE.read_text()
    assert re.search(r"#define STREAM_WINDOW \(1u << 20\)", source) and STREAM_WINDOW == 1 << 20
    assert re.search(r"#define STDIN_PENDING_MAX \(4u << 20\)", source) and STDIN_WINDOW <= 4 << 20


@pytest.mark.parametrize("output_limit", [None, 2 * MiB, PUSHED])
def test_exec_output_flooding_a_consumer_that_waits_is_cut_off(monkeypatch, output_limit):
    """Exec output has no window (the output limit bounds an honest agent): an agent that
    floods a command whose consumer waits is cut off at QUEUED_MAX queued bytes, or the
    command's output limit when that is more (all of it reaches a consumer that catches up);
    the command's stream ends with MalformedReply and other requests go on."""
    monkeypatch.setattr(client_module, "QUEUED_MAX", 4 * MiB)

    async def main():
        a, b = socket.socketpair()
        r1, w1 = await asyncio.open_connection(sock=a)
        r2, w2 = await asyncio.open_connection(sock=b)

        async def flood() -> None:
            while True:
                _, _, type_, rid, n = P.HEADER.unpack(await r2.readexactly(P.HEADER.size))
                await r2.readexactly(n)
                if type_ == P.EXEC:
                    w2.write(P.frame(P.OK, rid, P.field(P.T_PID, 7)))
                    for _ in range(PUSHED // len(PIECE)):
                        w2.write(P.frame(P.STDOUT, rid, PIECE))
                        await w2.drain()
                else:
                    w2.write(P.frame(P.PONG if type_ == P.HELLO else P.OK, rid, P.field(P.T_VERSION, P.VERSION)))
                    await w2.drain()

        agent_task = asyncio.ensure_future(flood())
        client = AgentClient(r1, w1)
        client.start()
        try:
            execution = await client.exec(["yes"], output_limit=output_limit)
            events = execution.events()
            assert (await events.__anext__())[1] == PIECE  # then the consumer waits
            if output_limit == PUSHED:  # within the limit: all of it waits for the consumer
                await until(lambda: execution.req.queued == PUSHED - len(PIECE), "the flood is queued")
            else:
                await until(lambda: execution.id not in client._requests, "the flood is cut off")
            peak_queue = execution.req.queued
            error = None
            taken = len(PIECE)
            try:
                async for _, data in events:
                    taken += len(data)
                    if taken == PUSHED:
                        break
            except P.MalformedReply as e:
                error = e
            version = (await client.hello())[P.T_VERSION]
            return error, peak_queue, version
        finally:
            agent_task.cancel()
            client.writer.close()

    (error, peak_queue, version), peak = traced(main())
    assert version == P.VERSION
    if output_limit == PUSHED:
        assert error is None and peak_queue == PUSHED - len(PIECE)
    else:
        assert error is not None and "has not read yet" in str(error) and peak_queue == 0
        assert peak < KERNEL_BOUND, f"peak {peak >> 20} MiB"


def test_a_flood_of_accepted_connections_is_capped():
    """An agent announces 5,000 guest connections: the client keeps MAX_ACCEPTED open and has
    the agent close the rest; closing one makes room for the next."""
    agent = StreamAgent()

    async def main():
        client, streams, agent_task = await connect(agent)
        try:
            first = [agent.accept() for _ in range(5000)][0]
            await agent.push(first, b"hello")
            await until(lambda: len(agent.closed_by_host) == 5000 - MAX_ACCEPTED, "the excess is closed")
            held = len(streams)
            events = streams[0].events()
            assert await events.__anext__() == ("stdout", b"hello")
            await events.aclose()
            await until(lambda: len(agent.closed_by_host) == 5001 - MAX_ACCEPTED, "the first is closed")
            agent.accept()
            await until(lambda: len(streams) == held + 1, "a new connection is taken")
            return held
        finally:
            agent_task.cancel()
            client.writer.close()

    assert asyncio.run(main()) == MAX_ACCEPTED
