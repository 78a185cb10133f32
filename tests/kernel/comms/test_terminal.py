"""The sandbox.terminal comm: the line discipline alone, then through a real kernel."""
import asyncio
import os
import time
import types

import pytest

from sandbox_kernel.kernel.comms.terminal import MAX_PENDING_OUTPUT, OUTPUT_CHUNK, LineEditor, VmTerminalSession
from sandbox_kernel.vm.terminal import MAX_PENDING_INPUT, VmTerminal
from tests.support.kernelclient import TerminalComm as Terminal
from tests.support.kernelclient import run_ok, start_kernel


# ----------------------------------------------------------------- LineEditor
def test_line_editor_keys():
    e = LineEditor("$ ")
    assert e.insert("echo abc") == "echo abc"  # at the end: plain echo, no redraw
    for key in ("\x1b[D", "\x1b[D", "\x7f"):
        e.key(key)
    e.insert("X")
    assert (e.text, e.cursor) == ("echo Xbc", 6)
    e.key("\x01")
    assert e.cursor == 0 and e.key("\x1b[D") == ""  # nothing to the left
    e.key("\x1b[3~")
    assert e.text == "cho Xbc"
    e.key("\x05")
    assert e.cursor == 7
    e.key("\x1b[D")
    e.key("\x0b")
    assert e.text == "cho Xb"
    e.key("\x15")
    assert (e.text, e.cursor) == ("", 0)
    assert LineEditor("pw: ", echo=False).insert("secret") == ""


# ----------------------------------------------------------------- through a kernel
@pytest.fixture
def term(kernel):
    t = Terminal(kernel[1])
    t.wait_for("user@sandbox:/workspace$ ")
    yield t
    t.close()


def test_commands_edit_and_history(term):
    assert "hi there\n" in term.run("echo hi there\r")
    # cursor keys and backspace edit the line: "echo abc" -> "echo Xbc"
    assert "\nXbc\n" in term.run("echo abc\x1b[D\x1b[D\x7fX\r")
    # Up twice brings back the first command
    assert "hi there\n" in term.run("\x1b[A\x1b[A\r")
    assert "~/d" in term.run("mkdir -p ~/d && cd ~/d\r")  # the prompt shows the new cwd


def test_a_loop_over_three_lines_tab_completion_and_ctrl_r(term):
    """What a bash user types (issue #31): a `for` over three lines runs once complete (PS2
    between), Tab completes a file name, Ctrl-R finds the loop again and Enter runs it."""
    term.send("for n in 1 2 3; do\r")
    term.wait_for(lambda t: t.endswith("\n> "))
    term.send("echo n=$n\r")
    term.wait_for(lambda t: t.endswith("\n> ") and t.count("> ") == 2)
    assert "n=1" not in term.text().replace("echo n=$n", "")  # nothing ran yet
    assert "n=1\nn=2\nn=3\n" in term.run("done\r")
    term.run("touch tab-completed-file.txt\r")
    term.send("ls tab-compl\t")
    term.wait_for(lambda t: t.endswith("$ ls tab-completed-file.txt "))
    assert "\ntab-completed-file.txt\n" in term.run("\r")
    term.send("\x12n=$")
    term.wait_for(lambda t: t.endswith("(reverse-i-search)`n=$': for n in 1 2 3; do echo n=$n; done"))
    term.send("\r")
    term.wait_for(lambda t: t.count("n=1\nn=2\nn=3\n") == 2 and t.endswith("$ "))


def test_shares_files_not_variables_with_the_notebook(kernel, term):
    term.run("echo from-terminal > /workspace/t.txt; only_here=1\r")
    assert run_ok(kernel[1], 'cat /workspace/t.txt; echo "${only_here-unset}"') == "from-terminal\nunset\n"


def test_ctrl_c_interrupts_and_read_takes_typed_lines(term):
    term.send("echo started; sleep 100\r")
    term.wait_for("started\n")
    started = time.monotonic()
    out = term.run("\x03", timeout=10)
    assert time.monotonic() - started < 5 and "^C" in out
    # read gets the next line typed; -s does not echo it
    term.send('read -p "name? " n; read -s -p "pw? " p; echo; echo "[$n] ${#p}"\r')
    # (the prompts at the start of a line: the typed command holds them too)
    term.wait_for(lambda t: t.endswith("\nname? "))
    term.send("Ada\r")
    term.wait_for(lambda t: t.endswith("\npw? "))
    before = term.prompts()
    term.send("hunter2\r")
    text = term.wait_for(lambda t: t.count("user@sandbox:") > before)
    assert "[Ada] 7" in text and "hunter2" not in text


def test_a_background_job_gives_the_prompt_back_at_once(term):
    """As in bash: the prompt returns when the foreground ends; the job is listed, killed, and
    its end said before the next prompt."""
    assert "started\n" in term.run("sleep 30 & echo started\r")  # the prompt came back: the job runs
    assert "[1]+  Running                 sleep 30 &\n" in term.run("jobs\r")
    assert "[1]+  Terminated              sleep 30\n" in term.run("kill %1; wait\r")


def test_resize_sets_columns_and_ctrl_d_exits(term):
    term.resize(132, 40)
    assert "132x40" in term.run("echo ${COLUMNS}x${LINES}\r")
    term.send("\x04")
    term.wait_for(lambda t: term.exit_status is not None)
    assert term.exit_status == 0


def test_exit_status_and_output_limit(kernel):
    t = Terminal(kernel[1])
    try:
        t.wait_for("$ ")
        out = t.run("yes | head -c 3000000\r", timeout=60)
        assert len(out) < 1_200_000 and "stdout" in out  # the notebook's per-command output limit
        t.send("exit 3\r")
        t.wait_for(lambda _: t.exit_status is not None)
        assert t.exit_status == 3
    finally:
        t.close()


def test_vm_terminal_without_qemu_says_why(jupyter_kernels, tmp_path):
    """No QEMU on the kernel's PATH: the VM terminal explains and exits 1 (the VM tests cover
    the shell itself, tests/vm/test_terminal_vm.py)."""
    env = {**os.environ, "PATH": str(tmp_path)}
    with start_kernel("sandbox", env=env) as (_, kc):
        t = Terminal(kc, shell="vm")
        try:
            text = t.wait_for(lambda _: t.exit_status is not None)
            assert "sandbox VM terminal: qemu-system-x86_64 is not installed" in text and t.exit_status == 1
            t.send("ignored\r")  # keys after the end go nowhere, and break nothing
            assert run_ok(kc, "echo alive") == "alive\n"
        finally:
            t.close()


def test_unknown_shell_is_refused(kernel):
    t = Terminal(kernel[1], shell="csh")
    text = t.wait_for(lambda _: t.exit_status is not None)
    assert "unknown shell 'csh' (sh, vm)" in text and t.exit_status == 2


# ----------------------------------------------------------------- the VM terminal's bounds
class FakeShell:
    """An engine.Terminal that records keys and ends when told."""

    def __init__(self) -> None:
        self.keys = b""
        self.sizes: list[tuple[int, int]] = []
        self.ended = asyncio.get_running_loop().create_future()

    def write(self, data: bytes) -> None:
        self.keys += data

    async def resize(self, rows: int, cols: int) -> None:
        self.sizes.append((rows, cols))

    async def wait(self) -> int:
        return await self.ended

    async def close(self) -> None:
        if not self.ended.done():
            self.ended.set_result(129)


class FakeVmEngine:
    def __init__(self) -> None:
        self.opened = asyncio.Event()
        self.release = asyncio.Event()
        self.shell: FakeShell | None = None
        self.on_output = None

    async def open_terminal(self, rows, cols, on_output, progress):
        progress("vm: starting the microVM (TCG, full boot)...")
        self.opened.set()
        await self.release.wait()
        self.shell, self.on_output = FakeShell(), on_output
        return self.shell


def test_vm_session_typeahead_resize_and_output_flood():
    async def main():
        engine = FakeVmEngine()
        sandbox = types.SimpleNamespace(engine=lambda name: engine)
        sent: list[dict] = []
        session = VmTerminalSession(sandbox, sent.append)  # type: ignore[arg-type]
        session.start()
        await engine.opened.wait()
        session.feed("echo typed-early\r")  # while the VM starts
        session.resize(100, 30)
        engine.release.set()
        while engine.shell is None or not engine.shell.sizes:
            await asyncio.sleep(0.01)
        assert engine.shell.keys == b"echo typed-early\r" and engine.shell.sizes == [(30, 100)]
        # a flood: at most OUTPUT_CHUNK per message, beyond MAX_PENDING_OUTPUT dropped with a notice
        for _ in range(5):  # a quarter of the bound each: the fifth does not fit
            engine.on_output(b"y\n" * (MAX_PENDING_OUTPUT // 8))
        while session.pending or session.dropped:
            await asyncio.sleep(0.01)
        outputs = [m["data"] for m in sent if m.get("type") == "output"]
        assert max(len(o) for o in outputs) <= OUTPUT_CHUNK + 200
        assert sum(o.count("y") for o in outputs) == MAX_PENDING_OUTPUT // 2
        assert f"[sandbox: {MAX_PENDING_OUTPUT // 4} characters of output dropped" in outputs[-1]
        session.close()  # the tab closed: the shell is closed, nothing more goes out
        assert await asyncio.wait_for(engine.shell.wait(), 5) == 129
        await asyncio.sleep(0.05)
        assert not [m for m in sent if m.get("type") == "exit"]
    asyncio.run(main())


def test_vm_terminal_drops_keys_a_guest_does_not_read():
    async def main():
        terminal = VmTerminal(None, None, lambda data: None, lambda line: None)
        terminal.write(b"k" * MAX_PENDING_INPUT)
        terminal.write(b"dropped")
        assert terminal.pending_input == MAX_PENDING_INPUT
        assert await terminal.next_input() == b"k" * MAX_PENDING_INPUT and terminal.pending_input == 0
        terminal.write(b"taken")
        assert await terminal.next_input() == b"taken"
    asyncio.run(main())
