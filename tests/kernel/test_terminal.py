"""The sandbox.terminal comm: the line discipline alone, then through a real kernel."""
import re
import time
import uuid

import pytest

from kernelclient import run_ok
from sandbox_kernel.kernel.terminal import LineEditor

ANSI = re.compile(r"\x1b\[[0-9;?]*[@-~]")


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
class Terminal:
    """A sandbox.terminal comm opened by hand on the test's kernel client."""

    def __init__(self, kc, cols=80, rows=24):
        self.kc = kc
        self.comm_id = uuid.uuid4().hex
        self.screen = ""
        self.exit_status = None
        kc.shell_channel.send(kc.session.msg("comm_open", {"comm_id": self.comm_id, "target_name": "sandbox.terminal",
                                                           "data": {"cols": cols, "rows": rows}}))

    def send(self, keys: str) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_msg", {"comm_id": self.comm_id,
                                                                    "data": {"type": "input", "data": keys}}))

    def resize(self, cols, rows) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_msg", {"comm_id": self.comm_id, "data": {
            "type": "resize", "cols": cols, "rows": rows}}))

    def text(self) -> str:
        """The lines as a terminal shows them: a carriage return starts the line over (the
        editor redraws prompt and line after every edit)."""
        lines = ANSI.sub("", self.screen).split("\n")
        return "\n".join(line.rstrip("\r").rsplit("\r", 1)[-1] for line in lines)

    def wait_for(self, condition, timeout=30) -> str:
        check = (lambda t: condition in t) if isinstance(condition, str) else condition
        deadline = time.monotonic() + timeout
        while not check(self.text()):
            if time.monotonic() > deadline:
                raise AssertionError(f"not in the terminal within {timeout} s:\n{self.text()[-2000:]}")
            try:
                msg = self.kc.get_iopub_msg(timeout=0.2)
            except Exception:
                continue
            if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == self.comm_id:
                data = msg["content"]["data"]
                if data.get("type") == "output":
                    self.screen += data["data"]
                elif data.get("type") == "exit":
                    self.exit_status = data["status"]
        return self.text()

    def prompts(self) -> int:
        return self.text().count("user@sandbox:")

    def run(self, keys: str, timeout=30) -> str:
        """Type ``keys`` (ending in Enter), wait for the next prompt; the text since this command."""
        before, start = self.prompts(), len(self.text())
        self.send(keys)
        return self.wait_for(lambda t: t.count("user@sandbox:") > before, timeout)[start:]

    def close(self) -> None:
        self.kc.shell_channel.send(self.kc.session.msg("comm_close", {"comm_id": self.comm_id, "data": {}}))


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
