"""A hostile frontend's terminals (issue #28, finding 7): one kernel is one memory budget shared by
the notebook and every terminal shell, the number of terminals is capped by the admin, a closed
terminal keeps nothing; and the terminal comm's messages are untrusted input (a property test)."""
import argparse
import asyncio
import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox_kernel import memory, policy
from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.kernel.comms.terminal import MAX_COMMAND_LINES, MAX_TYPEAHEAD, TARGET_NAME, register_terminal_comm
from sandbox_kernel.limits import Limits
from sandbox_kernel.policy import DEFAULT_MAX_TERMINALS, Policy
from sandbox_kernel.sandbox import Sandbox

MiB = 1 << 20
ROOT = Path(__file__).resolve().parents[2]
PROMPT = "\x1b[0m$ "


class FakeComm:
    """The kernel side of one comm, as ipykernel's Comm is to register_terminal_comm."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed = False
        self.msg_callback = None
        self.close_callback = None

    def send(self, data: dict) -> None:
        assert not self.closed, "a message after the comm closed"
        self.sent.append(data)

    def close(self) -> None:
        self.closed = True

    def on_msg(self, callback) -> None:
        self.msg_callback = callback

    def on_close(self, callback) -> None:
        self.close_callback = callback

    # the frontend's side
    def text(self) -> str:
        return "".join(m.get("data", "") for m in self.sent if m.get("type") == "output")

    def type(self, keys: str) -> None:
        if self.msg_callback is not None:
            self.msg_callback({"content": {"data": {"type": "input", "data": keys}}})

    def hang_up(self) -> None:
        if self.close_callback is not None:
            self.close_callback({"content": {"data": {}}})


class FakeCommManager:
    def __init__(self) -> None:
        self.targets: dict = {}

    def register_target(self, name, on_open) -> None:
        self.targets[name] = on_open

    def open(self, data: dict | None = None) -> FakeComm:
        comm = FakeComm()
        self.targets[TARGET_NAME](comm, {"content": {"data": data if data is not None else {}}})
        return comm


async def until(condition, what: str) -> None:
    """Wait for ``condition`` (the event loop runs the terminals meanwhile)."""
    for _ in range(6000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"waited in vain for {what}")


async def run(comm: FakeComm, line: str) -> str:
    """Type ``line`` and wait for the next prompt; the output in between."""
    before = comm.text()
    prompts = before.count(PROMPT)
    comm.type(line + "\r")
    await until(lambda: comm.text().count(PROMPT) > prompts or comm.closed, f"the prompt after {line!r}")
    return comm.text()[len(before):]


def session_of(comm: FakeComm):
    """The TerminalSession behind a comm (its message handler holds it)."""
    handler = comm.msg_callback
    return dict(zip(handler.__code__.co_freevars, (c.cell_contents for c in handler.__closure__)))["session"]


def collected(ref: weakref.ref) -> bool:
    gc.collect()
    return ref() is None


def kernel(policy: Policy | None = None, **limits) -> tuple[Sandbox, FakeCommManager]:
    sandbox = Sandbox(Limits(**limits), policy=policy)
    manager = FakeCommManager()
    register_terminal_comm(manager, lambda: sandbox)
    return sandbox, manager


# ----------------------------------------------------------------- one budget
def test_terminals_and_cells_share_one_shell_memory_budget():
    """20 terminals of ~120 MB each took 2.4 GB: now every shell's variables count in one
    shell_memory_bytes, the notebook's included."""
    async def main():
        sandbox, manager = kernel(shell_memory_bytes=32 * MiB)
        first, second = manager.open(), manager.open()
        await until(lambda: PROMPT in first.text() and PROMPT in second.text(), "two prompts")
        assert "status 0" in await run(first, "printf -v big '%*s' 20000000 x; echo status $?")
        out = await run(second, "printf -v big '%*s' 20000000 x; echo status $?")
        assert "memory limit exceeded" in out and "shell_memory_bytes" in out, out
        # the notebook's shell is in the same budget
        err = bytearray()

        class Sink:
            def write(self, data: bytes) -> None:
                err.extend(data)

        result = await sandbox.run("sh", "printf -v big '%*s' 20000000 x",
                                   Streams(Sink(), Sink(), CancelToken()))
        assert result.status != 0 and b"shell_memory_bytes" in err, err
        # closing the first terminal gives its share back: now the notebook fits
        shell = weakref.ref(session_of(first).shell)
        first.hang_up()
        await until(lambda: collected(shell), "the closed terminal's shell collected")
        err.clear()
        result = await sandbox.run("sh", "printf -v big '%*s' 20000000 x; echo ok",
                                   Streams(Sink(), Sink(), CancelToken()))
        assert result.status == 0, err
        second.hang_up()
        await sandbox.shutdown()
    asyncio.run(main())


# ----------------------------------------------------------------- the cap
def test_the_number_of_terminals_is_capped_with_a_clear_refusal():
    async def main():
        assert DEFAULT_MAX_TERMINALS == 8
        sandbox, manager = kernel(Policy(max_terminals=3))
        comms = [manager.open() for _ in range(3)]
        refused = manager.open()
        assert refused.closed and refused.sent[-1] == {"type": "exit", "status": 1}
        assert "3 terminals are open, the most this kernel allows (3; the admin sets it with install " \
               "--max-terminals)" in refused.text()
        # closed or ended terminals make room again
        comms[0].hang_up()
        await until(lambda: PROMPT in comms[1].text(), "a prompt")
        await run(comms[1], "exit")
        assert comms[1].closed and comms[1].sent[-1] == {"type": "exit", "status": 0}
        again = [manager.open(), manager.open()]
        assert not any(c.closed for c in again)
        assert manager.open().closed  # full again
        for c in again + comms[2:]:
            c.hang_up()
        await sandbox.shutdown()
    asyncio.run(main())


def test_no_terminals_when_the_admin_says_none():
    sandbox, manager = kernel(Policy(max_terminals=0))
    comm = manager.open()
    assert comm.closed and "the most this kernel allows (0;" in comm.text()


# ----------------------------------------------------------------- a closed terminal keeps nothing
def test_a_closed_terminal_frees_its_shell_and_its_memory():
    """8 closed terminals kept 945 MiB: closing lets go of the shell (weakref) and the memory."""
    async def main():
        sandbox, manager = kernel(shell_memory_bytes=256 * MiB)
        comms = [manager.open() for _ in range(2)]
        await until(lambda: all(PROMPT in c.text() for c in comms), "the prompts")
        memory.give_back()
        before = memory.resident_bytes()
        shells = []
        for c in comms:
            await run(c, "printf -v big '%*s' 50000000 x")
            shells.append(weakref.ref(session_of(c).shell))
        assert memory.resident_bytes() - before > 90 * MiB
        # one closes while a command runs, the other at its prompt
        comms[0].type("sleep 100\r")
        for c in comms:
            c.hang_up()
            assert c.msg_callback is None and c.close_callback is None
        await until(lambda: all(collected(s) for s in shells), "the shells collected")
        memory.give_back()
        assert memory.resident_bytes() - before < 30 * MiB
        await sandbox.shutdown()
    asyncio.run(main())


# ----------------------------------------------------------------- hostile messages
def message_values():
    scalar = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                       st.floats(allow_nan=True), st.text(max_size=40),
                       st.sampled_from(["input", "resize", "output", "exit", "\x03", "\x04", "\r", "exit\r"]))
    return st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                        max_leaves=12)


#: what the line editor acts on: PS2 openers, Tab, Ctrl-R, kills and yank, history expansion, paste
EDITING_KEYS = st.lists(st.sampled_from([
    "\t", "\t\t", "\x12", "\x13", "\x07", "\x17", "\x19", "\x0b", "\x15", "\x14", "\x16", "\x1b.", "\x1bb",
    "\x1bf", "\x1bd", "\x1b\x7f", "\x1b[1;5D", "\x1b[1;5C", "\x1b[A", "\x1b[B", "\x1b", "\x1b[200~", "\x1b[201~",
    "for i in 1; do\r", "if true\r", "cat <<E\r", "echo '\r", "ls |\r", "!!\r", "!-2:$\r", "^a^b\r", "/\t", "y", "n",
    "\x0c", "\r"]), max_size=30).map("".join)
requests = st.one_of(
    st.fixed_dictionaries({"type": st.just("input"), "data": st.one_of(
        st.text(max_size=200), st.sampled_from(["\x1b[", "\x1b[99999999999D", "\x1bO", "\x04", "\x03", "\r\r\r"]),
        EDITING_KEYS, st.integers(1, 4).map(lambda n: "x" * (n * MAX_TYPEAHEAD)),
        st.integers(1, 4).map(lambda n: "\x1b[200~" + "y\n" * (n * MAX_TYPEAHEAD // 2)))}),
    st.fixed_dictionaries({"type": st.just("resize"), "cols": message_values(), "rows": message_values()}),
    st.dictionaries(st.text(max_size=10), message_values(), max_size=5),
    message_values(),
)
messages = st.one_of(st.fixed_dictionaries({"content": st.fixed_dictionaries({"data": requests})}),
                     st.fixed_dictionaries({"content": message_values()}), message_values())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(open_data=message_values(), stream=st.lists(messages, max_size=12))
def test_hostile_terminal_messages_never_raise_and_stay_bounded(open_data, stream):
    """Random and mutated comm messages (wrong types, huge strings, unknown keys, bad sizes):
    no exception out of the handlers, every reply a well-formed message, bounded state."""
    async def main():
        sandbox, manager = kernel(wall_time=5)
        comm = FakeComm()
        manager.targets[TARGET_NAME](comm, {"content": {"data": open_data}})
        for message in stream:
            if comm.msg_callback is not None:
                comm.msg_callback(message)
            await asyncio.sleep(0)
        for m in comm.sent:
            assert isinstance(m, dict) and (m.get("type") in ("output", "exit") or m.get("event") == "open")
        session = session_of(comm) if comm.msg_callback is not None else None
        if session is not None:
            assert 1 <= session.cols <= 10_000 and 1 <= session.rows <= 10_000
            assert len(session.editor.text) <= 64 * 1024 and len(session.pending) < 16
            assert sum(map(len, session.typeahead)) <= MAX_TYPEAHEAD + 64 * 1024
            assert len(session.lines) <= MAX_COMMAND_LINES and sum(map(len, session.lines)) <= 64 * 1024
            assert session.search is None or len(session.search.query) <= 64 * 1024
        comm.hang_up()
        await sandbox.shutdown()
    asyncio.run(main())


# ----------------------------------------------------------------- the net: who is stopped
class _Files:
    bytes_used = 0


def test_the_memory_net_stops_the_run_that_grew_not_the_one_that_checks():
    """The net blamed a cell for what a terminal allocated: now the kernel's growth is checked
    once against one budget (64 MiB here) and the run credited with most of it is stopped."""
    limits = Limits(memory_bytes=32 * MiB, shell_memory_bytes=16 * MiB, wasm_memory_bytes=16 * MiB)
    files = _Files()
    budget = memory.MemoryBudget()
    memory.give_back()
    cell, terminal = CancelToken(), CancelToken()
    cell.memory = memory.RunMemory(limits, files, budget, cell)
    terminal.memory = memory.RunMemory(limits, files, budget, terminal)
    budget.next_trim = float("inf")  # what is held stays counted

    def check(token: CancelToken) -> None:
        token.memory.next_check = 0
        token.check_memory()

    held = [b"\x01" * (50 * MiB)]  # the terminal's command: within the budget so far
    check(terminal)
    held.append(b"\x02" * (20 * MiB))  # the cell's share tips the kernel over
    check(cell)
    assert terminal.reason == "memory" and cell.reason is None
    assert terminal.memory.grown >= 64 * MiB
    assert terminal.memory.message().startswith("memory limit exceeded (the sandbox grew by ")
    check(cell)  # while the terminal's run ends, nobody else is stopped
    assert cell.reason is None
    del held[0]
    terminal.memory.end()  # it gave its memory back: the cell goes on
    check(cell)
    assert cell.reason is None and budget.runs == [cell.memory]
    # the other way round: a cell that grows is stopped, not the terminal that checks
    terminal = CancelToken()
    terminal.memory = memory.RunMemory(limits, files, budget, terminal)
    held.append(b"\x03" * (30 * MiB))  # the cell holds 50 MiB: within the budget
    check(cell)
    assert cell.reason is None
    held.append(b"\x04" * (20 * MiB))  # the terminal's 20 tip it over
    check(terminal)
    assert cell.reason == "memory" and terminal.reason is None
    held.clear()
    cell.memory.end()
    terminal.memory.end()
    assert budget.runs == []


def test_keys_typed_while_a_command_runs_are_bounded():
    """The typeahead queue between the frontend and a busy shell, filled from the frontend."""
    async def main():
        sandbox, manager = kernel()
        comm = manager.open()
        await until(lambda: PROMPT in comm.text(), "the prompt")
        comm.type("sleep 60\r")
        session = session_of(comm)
        await until(lambda: session.task is not None, "the command running")
        for _ in range(4000):  # 400 KB of lines, far past the bound
            comm.type("y" * 99 + "\r")
        assert MAX_TYPEAHEAD <= sum(map(len, session.typeahead)) <= MAX_TYPEAHEAD + 100
        comm.type("\x03")  # Ctrl-C drops them with the command
        await until(lambda: session.task is None, "the command interrupted")
        assert not session.typeahead
        comm.hang_up()
        await sandbox.shutdown()
    asyncio.run(main())


def test_a_cell_is_not_stopped_for_what_a_terminal_allocates():
    """Through the sandbox: a terminal's awk holds ~29 MiB no command counts (the net's case) and
    waits for input; then a cell's awk takes ~17 MiB more, tipping the kernel over its 40 MiB.
    The old net, measuring from the cell's start, stopped the cell; now the terminal's command,
    credited with more of the growth, is stopped and the cell ends well. The net reads the
    process's resident memory, so this runs in a fresh process (earlier tests' heap would move it)."""
    code = ("import importlib.util as u; spec = u.spec_from_file_location('budget', %r); "
            "module = u.module_from_spec(spec); spec.loader.exec_module(module); module.cell_and_terminal()"
            % __file__)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def cell_and_terminal() -> None:
    async def main():
        sandbox, manager = kernel(memory_bytes=24 * MiB, shell_memory_bytes=8 * MiB, wasm_memory_bytes=8 * MiB,
                                  wall_time=120)
        holder, other = manager.open(), manager.open()
        await until(lambda: PROMPT in holder.text() and PROMPT in other.text(), "the prompts")
        out, err = bytearray(), bytearray()

        class Sink:
            def __init__(self, buf: bytearray) -> None:
                self.buf = buf

            def write(self, data: bytes) -> None:
                self.buf.extend(data)

        memory.give_back()
        cell = asyncio.ensure_future(sandbox.run(
            "sh", "touch looping; while [ ! -e go ]; do :; done; "
                  "awk 'function f(a, i) { while (i < 120000) a[i++] = i } BEGIN { f(); print \"cell-\" \"done\" }'",
            Streams(Sink(out), Sink(err), CancelToken())))
        await until(lambda: sandbox.fs.exists("/workspace/looping"), "the cell looping")
        holder.type("awk 'function f(a, i) { while (i < 200000) a[i++] = i; print \"he\" \"ld\"; fflush(); "
                    "getline x < \"-\" } BEGIN { f() }'\r")
        await until(lambda: "\nheld" in holder.text(), "the terminal's awk holding its array")
        await run(other, "touch go")
        result = await cell
        assert (result.status, bytes(out), bytes(err)) == (0, b"cell-done\n", b""), err
        await until(lambda: "memory limit exceeded" in holder.text(), "the terminal's command stopped")
        assert "bash: memory limit exceeded (the sandbox grew by" in holder.text()
        for comm in (holder, other):
            comm.hang_up()
        await sandbox.shutdown()
    asyncio.run(main())


# ----------------------------------------------------------------- the admin's option
def parse(*argv: str) -> Policy:
    parser = argparse.ArgumentParser()
    policy.add_arguments(parser)
    return policy.from_arguments(parser.parse_args(list(argv)))


def test_max_terminals_is_the_admins_and_checked():
    assert parse().max_terminals == DEFAULT_MAX_TERMINALS and parse("--max-terminals", "0").max_terminals == 0
    assert parse("--max-terminals", "32").max_terminals == 32
    for bad in ("-1", "257"):
        with pytest.raises(ValueError, match=r"--max-terminals must be 0\.\.256"):
            parse("--max-terminals", bad)
    parser = argparse.ArgumentParser()
    policy.add_arguments(parser)
    assert policy.to_argv(parser.parse_args(["--max-terminals", "3"])) == ["--max-terminals", "3"]
