"""A compromised guest agent (guest root can replace it) against the host's sync and client:
no QEMU, a fake agent on a socketpair speaks the protocol with hostile answers. Whatever it
lists, the VFS is written only under /workspace, through real directories, within the quota,
and a flood is cut off without the kernel's memory following it."""
from __future__ import annotations

import asyncio
import errno
import socket
import time
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vfs import FSError
from sandbox_kernel.vm import protocol as P
from sandbox_kernel.vm.client import AgentClient, AgentError, AgentGone, Execution
from sandbox_kernel.vm.sync import MAX_NOTES, MAX_REL, WorkspaceSync


def entry(name: str | bytes, type_: int = P.TYPE_FILE, size: int = 5, mode: int = 0o644,
          target: str | bytes | None = None, err: int | None = None) -> bytes:
    items: list = [(P.T_NAME, name), (P.T_TYPE, type_), (P.T_MODE, mode), (P.T_SIZE, size), (P.T_MTIME_NS, 10**18)]
    if target is not None:
        items.append((P.T_TARGET, target))
    if err is not None:
        items.append((P.T_ERRNO, err))
    return P.fields(items)


class FakeAgent:
    """Answers LIST with ``listing`` (a list of ENTRIES payloads), READ with ``content``,
    everything else with OK; records the requests."""

    def __init__(self, listing: list[bytes], content: bytes = b"PWNED") -> None:
        self.listing = listing
        self.content = content
        self.requests: list[tuple[int, dict]] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                _, _, type_, rid, n = P.HEADER.unpack(await reader.readexactly(P.HEADER.size))
                body = await reader.readexactly(n) if n else b""
                self.requests.append((type_, P.field_map(body) if type_ != P.STDIN else {}))
                if type_ == P.LIST:
                    for i, payload in enumerate(self.listing):
                        writer.write(P.frame(P.ENTRIES, rid, payload))
                        if i % 8 == 7:
                            await writer.drain()
                    writer.write(P.frame(P.OK, rid))
                elif type_ == P.READ:
                    writer.write(P.frame(P.DATA, rid, self.content))
                elif type_ == P.EXEC:
                    writer.write(P.frame(P.OK, rid, P.field(P.T_PID, 7)))
                    writer.write(P.frame(P.EXIT, rid, P.fields([(P.T_EXIT_KIND, P.EXITED), (P.T_EXIT_CODE, 0)])))
                else:
                    writer.write(P.frame(P.OK, rid))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass

    def reads(self) -> list[bytes]:
        return [fields[P.T_PATH] for type_, fields in self.requests if type_ == P.READ]


async def connect(agent: FakeAgent) -> tuple[AgentClient, asyncio.Task]:
    a, b = socket.socketpair()
    r1, w1 = await asyncio.open_connection(sock=a)
    r2, w2 = await asyncio.open_connection(sock=b)
    task = asyncio.ensure_future(agent.serve(r2, w2))
    client = AgentClient(r1, w1)
    client.start()
    return client, task


def sync_out_with(agent: FakeAgent, prepare=None, rounds: int = 1):
    """Run sync_out against the fake agent; returns (fs, notes per round, seconds)."""
    async def main():
        sandbox = Sandbox()
        fs = sandbox.fs
        fs.write_bytes("/home/user/.bashrc", b"# original\n")
        sync = WorkspaceSync(fs)
        if prepare:
            prepare(fs, sync, agent)
        client, task = await connect(agent)
        rounds_notes = []
        started = time.monotonic()
        try:
            for _ in range(rounds):
                notes: list[str] = []
                await sync.sync_out(client, notes.append)
                rounds_notes.append(notes)
        finally:
            task.cancel()
            client.writer.close()
        return fs, rounds_notes, time.monotonic() - started
    return asyncio.run(main())


def test_names_leaving_the_workspace_are_refused():
    agent = FakeAgent([b"".join([
        entry("../home/user/.bashrc"), entry("../tmp/evil"), entry("sub/../../home/user/owned"),
        entry("/etc/abs"), entry("a//b"), entry("./dot"), entry("nul\0byte"), entry("x" * 300),
        entry("ok.txt"),
    ])])
    fs, [notes], _ = sync_out_with(agent)
    assert fs.read_bytes("/home/user/.bashrc") == b"# original\n"
    assert not fs.exists("/tmp/evil") and not fs.exists("/home/user/owned") and not fs.exists("/etc/abs")
    assert fs.read_bytes("/workspace/ok.txt") == b"PWNED"
    assert sorted(fs.listdir("/workspace")) == ["ok.txt"]
    assert any("invalid entry '../home/user/.bashrc'" in n and "'..' component" in n for n in notes), notes
    assert sum("invalid entry" in n for n in notes) == 8, notes
    assert agent.reads() == [b"/workspace/ok.txt"]  # nothing invalid was even read


def test_entries_under_a_symlink_or_a_non_directory_are_refused():
    agent = FakeAgent([b"".join([
        entry("link", P.TYPE_SYMLINK, target="/home/user"), entry("link/.bashrc"),
        entry("plain"), entry("plain/inside"),
        entry("d", P.TYPE_DIR), entry("d", P.TYPE_SYMLINK, target="/home/user"), entry("d/.bashrc"),
        entry("empty-target", P.TYPE_SYMLINK, target=""), entry("long-target", P.TYPE_SYMLINK, target="/" + "t" * 5000),
    ])])
    fs, [notes], _ = sync_out_with(agent)
    assert fs.read_bytes("/home/user/.bashrc") == b"# original\n"
    assert fs.readlink("/workspace/link") == "/home/user"
    assert fs.is_dir("/workspace/d") and fs.listdir("/workspace/d") == [".bashrc"]
    assert not fs.exists("/workspace/empty-target", follow=False)
    assert not fs.exists("/workspace/long-target", follow=False)
    text = "\n".join(notes)
    assert "'link/.bashrc' (its parent is not a directory" in text
    assert "'plain/inside' (its parent is not a directory" in text
    assert "'d' (listed twice)" in text
    assert "without a target" in text and "invalid link target" in text


def test_a_symlink_made_in_the_sandbox_meanwhile_is_not_followed():
    # /workspace/d is a real dir in the guest; the sandbox replaced it by a link to /home/user
    def prepare(fs, sync, agent):
        fs.symlink("/home/user", "/workspace/d")
    agent = FakeAgent([entry("d", P.TYPE_DIR) + entry("d/.bashrc")])
    fs, [notes], _ = sync_out_with(agent, prepare)
    assert fs.read_bytes("/home/user/.bashrc") == b"# original\n"
    assert any("/workspace/d/.bashrc: not copied back: a symbolic link in the sandbox is in the way" in n
               for n in notes), notes


def test_sizes_are_checked_against_the_quota_before_reading():
    def prepare(fs, sync, agent):
        fs.max_bytes = fs.bytes_used + 1000
    agent = FakeAgent([entry("huge.bin", size=1 << 40) + entry("liar.bin", size=10)], content=b"x" * 5000)
    fs, [notes], _ = sync_out_with(agent, prepare)
    assert b"/workspace/huge.bin" not in agent.reads()  # refused on its listed size, never read
    assert not fs.exists("/workspace/huge.bin")
    assert not fs.exists("/workspace/liar.bin")  # listed small, read big: the read stops at the quota
    assert sum("quota of the sandbox filesystem exceeded" in n for n in notes) == 2, notes


def test_impossible_values_are_refused():
    agent = FakeAgent([entry("neg", size=-1 & (2**64 - 1)) + entry("ok", size=2)])
    fs, [notes], _ = sync_out_with(agent)
    assert not fs.exists("/workspace/neg") and fs.exists("/workspace/ok")
    assert any("'neg' (an impossible size)" in n for n in notes), notes


def test_a_flood_of_entries_is_cut_off_without_holding_it():
    one_mib = b"".join(entry(f"f{k:09d}" + "y" * 150) for k in range(4700))
    assert len(one_mib) < P.CHUNK
    agent = FakeAgent([one_mib] * 100)  # ~100 MiB, ~470 000 entries
    tracemalloc.start()
    try:
        fs, [notes], seconds = sync_out_with(agent)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # held memory is the bound (before the cap: 1.4 GB and 199 s); time is for the bench, not a
    # test on a loaded machine
    print(f"peak {peak >> 20} MiB in {seconds:.1f} s")
    assert peak < 150 << 20, f"peak {peak >> 20} MiB"
    assert len(notes) == 1 and "cannot list /workspace in the VM" in notes[0] and "nothing was copied back" in notes[0]
    assert fs.listdir("/workspace") == []


def test_notes_are_capped():
    agent = FakeAgent([b"".join(entry(f"../bad{i}") for i in range(1000))])
    fs, [notes], _ = sync_out_with(agent)
    assert len(notes) == MAX_NOTES + 1
    assert notes[-1] == f"vm: sync: ... and {1000 - MAX_NOTES} more notes like these"


def test_a_failed_listing_deletes_nothing_and_an_unlistable_dir_keeps_its_contents():
    listings = iter([
        [entry("d", P.TYPE_DIR) + entry("d/f") + entry("top")],
        [entry("d", P.TYPE_DIR, err=errno.EACCES) + entry("top")],  # a root cell made d private
    ])

    class Changing(FakeAgent):
        async def serve(self, reader, writer):
            self.listing = next(listings)
            await super().serve(reader, writer)

    agent = Changing([])

    async def main():
        sandbox = Sandbox()
        sync = WorkspaceSync(sandbox.fs)
        notes: list[str] = []
        for _ in range(2):
            client, task = await connect(agent)
            await sync.sync_out(client, notes.append)
            task.cancel()
            client.writer.close()
        return sandbox.fs, notes
    fs, notes = asyncio.run(main())
    assert fs.read_bytes("/workspace/d/f") == b"PWNED" and fs.exists("/workspace/top")
    assert any("/workspace/d: cannot be listed in the VM (Permission denied)" in n for n in notes), notes


def test_replies_larger_than_asked_are_malformed():
    agent = FakeAgent([], content=b"z" * 100)

    async def main():
        client, task = await connect(agent)
        try:
            with pytest.raises(P.MalformedReply):
                await client.read_chunk("/workspace/f", 0, 10)
        finally:
            task.cancel()
            client.writer.close()
    asyncio.run(main())


def test_deep_vfs_paths_are_reported_not_dropped():
    """Paths over 4096 bytes cannot go to the guest: each is named in a note (capped)."""
    async def main():
        sandbox = Sandbox()
        fs = sandbox.fs
        fs.mkdir("/workspace/a")
        try:
            for _ in range(2100):  # rename builds what mkdir -p refuses
                fs.mkdir("/workspace/t")
                fs.rename("/workspace/a", "/workspace/t/a")
                fs.rename("/workspace/t", "/workspace/a")
        except FSError as e:
            if e.errno == errno.ENAMETOOLONG:
                pytest.skip("the VFS keeps every path within 4096 bytes")
            raise
        sync = WorkspaceSync(fs)
        client, task = await connect(FakeAgent([]))
        notes: list[str] = []
        try:
            await sync.sync_in(client, notes.append)
            again: list[str] = []
            await sync.sync_in(client, again.append)
        finally:
            task.cancel()
            client.writer.close()
        return notes, again
    notes, again = asyncio.run(main())
    assert 1 < len(notes) <= MAX_NOTES + 1
    assert all(n.startswith("vm: sync to VM: /workspace/a/a/a") for n in notes[:-1]), notes[:2]
    assert "not copied: path longer than 4096 bytes" in notes[0] and "bytes)" in notes[0]
    assert again == []  # told once, not before every command


def test_guest_paths_too_long_for_the_vfs_are_named_once():
    """A guest tree deeper than the VFS's 4096-byte paths (a file at 5,116 bytes): the agent
    lists the first directory past the limit (ERRNO ENAMETOOLONG, not descended) and the
    files beside it; each is named in a note, once, and nothing else is lost."""
    component = "d" * 200
    chain = [component]
    while len("/".join(chain)) + 201 <= MAX_REL:
        chain.append(component)
    listing = [entry("/".join(chain[:i + 1]), P.TYPE_DIR) for i in range(len(chain))]
    deep_dir = "/".join(chain + [component])        # past the limit: listed, not descended
    deep_file = "/".join(chain + ["f" * 250])
    listing += [entry(deep_dir, P.TYPE_DIR, err=errno.ENAMETOOLONG), entry(deep_file), entry("ok.txt")]
    agent = FakeAgent([b"".join(listing)])
    fs, (notes, again), _ = sync_out_with(agent, rounds=2)
    assert fs.read_bytes("/workspace/ok.txt") == b"PWNED"
    assert fs.is_dir("/workspace/" + "/".join(chain))
    assert len(notes) == 2, notes
    assert all("path longer than 4096 bytes" in n and "not copied back (it stays in the VM)" in n for n in notes)
    assert "it and what is under it were" in notes[0] and f"({len(deep_dir) + 11} bytes)" in notes[0]
    assert "it was not copied back" in notes[1] and f"({len(deep_file) + 11} bytes)" in notes[1]
    assert again == []  # told once, not after every command


def test_agent_error_messages_are_bounded():
    class Chatty(FakeAgent):
        async def serve(self, reader, writer):
            _, _, type_, rid, n = P.HEADER.unpack(await reader.readexactly(P.HEADER.size))
            await reader.readexactly(n)
            writer.write(P.frame(P.ERROR, rid, P.fields([(P.T_ERRNO, errno.EIO), (P.T_MESSAGE, "m" * 500_000)])))
            await writer.drain()

    async def main():
        client, task = await connect(Chatty([]))
        try:
            with pytest.raises(AgentError) as e:
                await client.stat("/workspace")
            return e.value
        finally:
            task.cancel()
            client.writer.close()
    err = asyncio.run(main())
    assert len(err.strerror) <= 1000


class FakeMachine:
    """What VmEngine needs of a Machine, over a fake agent's client."""

    def __init__(self, client: AgentClient) -> None:
        self.client = client
        self.alive = True
        self.proc = None

    def kill(self) -> None:
        self.alive = False

    async def _wait_exit(self, seconds: float) -> None:
        pass


def run_vm_cell_against(agent: FakeAgent, code: str = "true"):
    """A %%vm cell through the real engine, its VM replaced by a fake agent."""
    async def main():
        from sandbox_kernel.engine import CancelToken, Streams

        sandbox = Sandbox()
        engine = sandbox.engine("vm")
        client, task = await connect(agent)
        machine = engine.machine = FakeMachine(client)
        out, err = bytearray(), bytearray()

        class Sink:
            def __init__(self, buf):
                self.buf = buf

            def write(self, data):
                self.buf.extend(data)
        try:
            result = await sandbox.run("vm", code, Streams(Sink(out), Sink(err), CancelToken()))
        finally:
            task.cancel()
            client.writer.close()
        return result, err.decode("utf-8", "surrogateescape"), machine, engine
    return asyncio.run(main())


def test_a_malformed_reply_ends_the_vm_not_the_kernel():
    class BadExit(FakeAgent):  # EXIT whose payload does not parse
        async def serve(self, reader, writer):
            while True:
                _, _, type_, rid, n = P.HEADER.unpack(await reader.readexactly(P.HEADER.size))
                await reader.readexactly(n)
                if type_ == P.EXEC:
                    writer.write(P.frame(P.EXIT, rid, b"\x00\x12\x00\x00\x00\x03abc"))
                elif type_ == P.LIST:
                    writer.write(P.frame(P.OK, rid))
                else:
                    writer.write(P.frame(P.OK, rid))
                await writer.drain()
    result, err, machine, engine = run_vm_cell_against(BadExit([]))
    assert result.status == 1 and result.error.ename == "VMError" and "malformed reply" in result.error.evalue
    assert not machine.alive and "malformed reply" in err
    # a malformed listing after the command: the same, and nothing is copied back
    result, err, machine, engine = run_vm_cell_against(FakeAgent([b"\x00\x14\x00\x00\x10\x00" + b"x" * 10]))
    assert result.status == 0
    assert not machine.alive and "malformed reply" in err and "nothing more was copied back" in err
    assert engine.sandbox.fs.listdir("/workspace") == []


def test_guest_names_that_are_not_utf8_are_reported_not_fatal():
    def prepare(fs, sync, agent):
        fs.max_bytes = fs.bytes_used + 10
    agent = FakeAgent([entry(b"caf\xe9.txt", size=100)])
    fs, [notes], _ = sync_out_with(agent, prepare)
    assert notes == ["vm: sync: /workspace/caf\udce9.txt: not copied back: quota of the sandbox filesystem exceeded"]
    result, err, _, _ = run_vm_cell_against(FakeAgent([entry(b"caf\xe9.txt", size=1 << 40)]))
    assert result.status == 0 and "/workspace/caf\udce9.txt: not copied back" in err


# ---------------------------------------------------------------- the client's frame parser
ANSWER_TYPES = [P.READY, P.PONG, P.STDOUT, P.STDERR, P.EXIT, P.DATA, P.ENTRIES, P.OK, P.ERROR, P.STDIN_ACK,
                P.ACCEPT, P.STDIN_WANTED]
FRAME_IDS = [0, 1, 2, 3, 4, 5, P.GUEST_ID_BIT | 1, P.GUEST_ID_BIT | 2, 0xFFFFFFFF]
_fields = st.lists(st.builds(P.field, st.integers(0, 40), st.one_of(st.integers(0, 2**64 - 1), st.binary(max_size=40))),
                   max_size=6).map(b"".join)
_frames = st.builds(lambda t, i, p: P.HEADER.pack(P.MAGIC, P.VERSION, t, i, len(p)) + p,
                    st.one_of(st.sampled_from(ANSWER_TYPES), st.integers(0, 255)), st.sampled_from(FRAME_IDS),
                    st.one_of(_fields, st.binary(max_size=300)))
_huge = st.builds(lambda t, i: P.HEADER.pack(P.MAGIC, P.VERSION, t, i, 0xFFFFFFF0), st.sampled_from(ANSWER_TYPES),
                  st.sampled_from(FRAME_IDS))


@st.composite
def agent_streams(draw) -> bytes:
    """What a hostile agent sends: frames of every answer type for the ids in use, with
    mutated bytes, cuts, and headers that claim a 4 GiB payload."""
    parts = draw(st.lists(st.one_of(_frames, _frames, _frames, _huge), max_size=14))
    data = bytearray(b"".join(parts))
    for at, value in draw(st.lists(st.tuples(st.integers(0, 1 << 16), st.integers(0, 255)), max_size=4)):
        if data:
            data[at % len(data)] = value
    if data and draw(st.booleans()):
        del data[draw(st.integers(0, len(data) - 1)):]
    return bytes(data)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(agent_streams())
def test_hostile_frames_end_in_documented_errors_within_bounds(stream: bytes):
    """Whatever the agent sends, every request of the client ends (answered, AgentError,
    ProtocolError or AgentGone once the agent hangs up), nothing else escapes, and the client
    never allocates a claimed length past the frame cap."""
    async def main():
        a, b = socket.socketpair()
        r1, w1 = await asyncio.open_connection(sock=a)
        r2, w2 = await asyncio.open_connection(sock=b)
        client = AgentClient(r1, w1)
        consumers: list[asyncio.Task] = []

        async def drain(execution) -> None:
            try:
                async for _ in execution.events():
                    pass
            except (AgentGone, AgentError, P.ProtocolError):
                pass

        client.on_accept = lambda stream: consumers.append(asyncio.ensure_future(drain(stream)))
        client.start()

        async def agent() -> None:  # takes the five requests, answers with the stream, hangs up
            for _ in range(5):
                header = await r2.readexactly(P.HEADER.size)
                await r2.readexactly(P.HEADER.unpack(header)[4])
            w2.write(stream)
            await w2.drain()
            w2.close()

        async def guarded(op) -> None:
            try:
                result = await op
                if isinstance(result, Execution):
                    await drain(result)
            except (AgentGone, AgentError, P.ProtocolError):
                pass

        async def execute() -> None:
            await drain(await client.exec(["true"]))

        ops = [client.hello(timeout=None), client.read_chunk("/f", 0, 100), client.list("/", recursive=True),
               execute(), client.connect(80)]
        tasks = [asyncio.ensure_future(guarded(op)) for op in ops]
        agent_task = asyncio.ensure_future(agent())
        try:
            await asyncio.wait_for(asyncio.gather(*tasks, agent_task), 20)
            await asyncio.wait_for(asyncio.gather(*consumers), 20)
            assert client.closed
        finally:
            for task in [*tasks, agent_task, *consumers]:
                task.cancel()
            w1.close()

    tracemalloc.start()
    try:
        asyncio.run(main())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * P.MAX_PAYLOAD + 4 * len(stream)
