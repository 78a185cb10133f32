""""command not found" for programs people expect on a Linux box says what the sandbox has
instead (issue 15, teaching comforts), and the commands it points to exist."""
from __future__ import annotations

import pytest

from sandbox_kernel.cli import run_script


def run(script: str) -> tuple[str, str, int]:
    out, err, status = run_script(script)
    return out.decode(), err.decode(), status


@pytest.mark.parametrize("command,says", [
    ("ipython", ["ipython: command not found (", "%%python cells run CPython here"]),
    ("python2 -c 'print 1'", ["python2: command not found (", "python3 and %%python"]),
    ("conda install requests", ["conda: command not found (", "cannot be installed", "`pip list`"]),
    ("curl -s https://example.org", ["curl: command not found (", "no network", "%%vm cell"]),
    ("wget https://example.org", ["wget: command not found (", "no network"]),
    ("git clone https://example.org/r", ["git: command not found (git is not installed here"]),
    ("npm install", ["npm: command not found (", "`js FILE` / `node FILE`", "%%js cell", "no npm"]),
    ("nodejs app.js", ["nodejs: command not found (", "`node FILE`"]),
    ("sudo ls", ["sudo: command not found (", "you are `user`"]),
])
def test_not_found_says_what_exists_instead(command, says):
    out, err, status = run(command)
    assert status == 127 and out == ""
    assert err.startswith("bash: ") and err.count("\n") == 1, err
    for text in says:
        assert text in err, (text, err)


def test_what_the_hints_point_to_exists():
    out, err, status = run("command -v js node vm; node -e 'console.log(6 * 7)'")
    assert (out, status) == ("/usr/bin/js\n/usr/bin/node\n/usr/bin/vm\n42\n", 0), err


def test_other_names_and_paths_get_the_plain_message():
    out, err, status = run("frobnicate")
    assert (err, status) == ("bash: line 1: frobnicate: command not found\n", 127)
    out, err, status = run("/usr/bin/ipython")
    assert (err, status) == ("bash: line 1: /usr/bin/ipython: No such file or directory\n", 127)


def test_command_builtin_gives_the_hint_too():
    out, err, status = run("command ipython -V")
    assert status == 127 and "ipython: command not found (" in err and "%%python" in err


def test_a_python3_of_ones_own_wins_over_the_hint():
    out, err, status = run("python3() { echo mine; }; python3")
    assert (out, err, status) == ("mine\n", "", 0)
    out, err, status = run("mkdir -p ~/bin && printf '#!/bin/sh\\necho script\\n' > ~/bin/pip && chmod +x ~/bin/pip\n"
                           "PATH=~/bin:$PATH pip")
    assert (out, err, status) == ("script\n", "", 0)
