"""A cell's history entries are bash's: one entry per command, and a newline inside a quote, a
backquote, $(...) or $((...)) kept, so re-running an entry runs what was written (the lines
joined with "; " changed the quoted text). Compared with interactive GNU bash's `history`."""
import re
import subprocess

import pytest

from tests.support.prereqs import host_tool
from sandbox_kernel.shell.builtins.history import history_entries

SOURCES = [
    'echo "a\nb"',
    "echo 'x\ny' done",
    "echo $'p\nq'",
    "echo `echo a\necho b`",
    "echo $(echo c\necho d)",
    'echo "x $(echo e\necho f) y"',
    "echo $((1 +\n2))",
    "for i in 1 2; do\necho $i\ndone",
    '(echo a\necho b)',
    "x=(1\n2\n3)",
    'if true; then\n  echo "one\n\ntwo"\nfi',
    "echo one\necho two",
]
_ENTRY = re.compile(r"^ +\d+  ", re.M)


def bash_history(source: str) -> list[str]:
    """The entries interactive bash records for ``source`` (then `history`, dropped)."""
    done = subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", "HISTFILE=/dev/null", "LC_ALL=C", "TERM=dumb",
                           "bash", "--norc", "--noprofile", "-i"],
                          input=source + "\nhistory\n", capture_output=True, text=True, timeout=30)
    listing = done.stdout[done.stdout.index("    1  "):]
    entries = [e.rstrip("\n") for e in _ENTRY.split(listing)[1:]]
    assert entries[-1] == "history", done.stdout
    return entries[:-1]


@host_tool("bash")
@pytest.mark.parametrize("source", SOURCES)
def test_history_entries_are_bashs(source):
    assert history_entries(source) == bash_history(source)
