"""shell/complete.py's context helpers: command position, the current command, escaping a word
(completion through the engine and the kernel: tests/kernel/test_kernel.py,
tests/kernel/comms/test_terminal_editing.py)."""
from sandbox_kernel.shell.complete import at_command_position, current_command, escape_word


def test_completion_context_helpers():
    assert at_command_position("")
    assert at_command_position("echo hi | ")
    assert at_command_position("x=1; ")
    assert at_command_position("if ")
    assert at_command_position("FOO=bar ")
    assert not at_command_position("echo ")
    assert not at_command_position("sudo ls ")
    assert current_command("ls -l | sort ") == "sort"
    assert current_command("LC_ALL=C sort ") == "sort"
    assert escape_word("my file (1).txt") == r"my\ file\ \(1\).txt"
