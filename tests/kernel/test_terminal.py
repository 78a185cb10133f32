"""The sandbox.terminal comm: the line discipline alone, then through a real kernel."""
import os
import time

import pytest

from kernelclient import TerminalComm as Terminal
from kernelclient import run_ok, start_kernel
from sandbox_kernel.kernel.terminal import LineEditor


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
