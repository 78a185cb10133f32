"""`jupyter console` with the sandbox kernel in a real terminal (tmux): a cell magic's cell stays
open until a blank line (as IPython's), shell and JS cells span lines, Ctrl-C interrupts a running command."""
import os
import sys

import pytest

from tests.support.prereqs import require
from tests.support.tmuxterm import TmuxTerminal, tmux_missing


def console_missing() -> str | None:
    try:
        __import__("jupyter_console")
    except ImportError:
        return "the Python package jupyter_console is not installed (pip install -e '.[test]')"
    return tmux_missing()


@pytest.fixture
def console(jupyter_kernels):
    require(console_missing())
    env = {"JUPYTER_PATH": os.environ["JUPYTER_PATH"], "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
           "TERM": "xterm-256color", "HOME": os.environ.get("HOME", "/root"), "PATH": os.environ["PATH"]}
    term = TmuxTerminal([sys.executable, "-m", "jupyter", "console", "--kernel", "sandbox"], env)
    try:
        term.wait_for("In [1]:", 90)
        yield term
    finally:
        term.close()


def prompts(screen: str, number: int) -> bool:
    return f"In [{number}]:" in screen


@pytest.mark.timeout(180)
def test_console_cells_over_lines_and_ctrl_c(console):
    # a cell magic line alone continues (the kernel answers incomplete), the JS line runs it
    console.type_line("%%js")
    console.wait_for("...:")
    assert not prompts(console.screen(), 2)
    console.type_line("console.log(6 * 7)")
    console.wait_for(lambda s: s.count("...:") >= 2)
    assert not prompts(console.screen(), 2), "a complete JS line ended the cell magic's cell"
    console.type_line("")  # a blank line ends it, as in IPython
    screen = console.wait_for(lambda s: prompts(s, 2))
    assert "\n42\n" in screen

    # a shell compound command over three lines
    console.type_line("if true; then")
    console.wait_for(lambda s: s.count("...:") >= 3)
    console.type_line("echo yes-$((20 + 22))")
    console.type_line("fi")
    assert "yes-42" in console.wait_for(lambda s: prompts(s, 3))

    # %%vm alone also asks for more; Ctrl-C abandons the input without starting a VM
    console.type_line("%%vm")
    console.wait_for(lambda s: s.count("...:") >= 5)
    console.send("C-c")
    console.type_line("echo after-vm")
    assert "after-vm" in console.wait_for(lambda s: prompts(s, 4))

    # Ctrl-C interrupts a running command; the console prompts again
    console.type_line("echo started; sleep 100")
    console.wait_for(lambda s: "started" in s.splitlines())  # the output, not the typed line
    console.send("C-c")
    screen = console.wait_for(lambda s: prompts(s, 5), timeout=15)
    assert "interrupted" in screen
    console.type_line("echo still-alive")
    assert "still-alive" in console.wait_for(lambda s: prompts(s, 6))


@pytest.mark.timeout(120)
def test_console_js_open_braces_continue(console):
    console.type_line("%%js")
    console.wait_for("...:")
    console.type_line("for (let i = 0; i < 3; i++) {")
    screen = console.wait_for(lambda s: s.count("...:") >= 2 or prompts(s, 2))
    assert not prompts(screen, 2), "the open brace ran as a cell"
    console.type_line('console.log("n" + i)')
    console.type_line("}")
    console.type_line("")
    screen = console.wait_for(lambda s: prompts(s, 2))
    assert "n0\nn1\nn2" in screen
