""""command not found" for programs people expect on a Linux box says what the sandbox has
instead (issue 15, teaching comforts), and the commands it points to exist."""
from __future__ import annotations

import pytest

from sandbox_kernel.cli import run_script


def run(script: str) -> tuple[str, str, int]:
    out, err, status = run_script(script)
    return out.decode(), err.decode(), status


@pytest.mark.parametrize("command,says", [
    ("python3 -c 'print(1)'", ["python3: command not found (", "%%vm cell", "`vm python3 ...`"]),
    ("python script.py", ["python: command not found (", "%%vm cell"]),
    ("pip install requests", ["pip: command not found (", "pip is not installed", "%%vm cells have python3"]),
    ("pip3 list", ["pip3: command not found (", "%%vm cells have python3"]),
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
    out, err, status = run("/usr/bin/python3")
    assert (err, status) == ("bash: line 1: /usr/bin/python3: No such file or directory\n", 127)


def test_command_builtin_gives_the_hint_too():
    out, err, status = run("command python3 -V")
    assert status == 127 and "python3: command not found (" in err and "%%vm" in err


def test_a_python3_of_ones_own_wins_over_the_hint():
    out, err, status = run("python3() { echo mine; }; python3")
    assert (out, err, status) == ("mine\n", "", 0)
    out, err, status = run("mkdir -p ~/bin && printf '#!/bin/sh\\necho script\\n' > ~/bin/pip && chmod +x ~/bin/pip\n"
                           "PATH=~/bin:$PATH pip")
    assert (out, err, status) == ("script\n", "", 0)
