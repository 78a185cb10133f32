"""History expansion (shell/histexpand.py) is interactive bash's: each session of lines is typed
into GNU bash -i and expanded here against the same history, and what bash shows (the expanded
line, or its error) must be the same. Then the engine's and `history -p`'s use of it."""
import asyncio
import re
import subprocess
from pathlib import Path

import pytest

from tests.support.prereqs import host_tool
from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.shell.builtins.history import MAX_HISTORY_CHARS
from sandbox_kernel.shell.histexpand import HistoryError, Memory, expand, split_words

SESSIONS = [
    [": one two three", "!!", ": !!:1 !:2 !$ !^ !*", "!!:5", "!nothere", "!99", "!-1", "!-99", "!1",
     ": !?two?%", ": !?thr", "!:0 !!:1-2 !!:2* !!:1- !!:-2", "!!:s/zzz/y/", ": x !:1-$ !:0-1"],
    [": a.tar.gz /x/y/z.txt", ": !!:2:h !!:2:t !!:2:r !!:2:e !!:1:r:r", ": !-2:2:h:h:h", ": a.tar.gz", "^tar^TAR^",
     "^nope^x", ": !:1:q !:1:x", "!!:gs/a/A/", "!!:&", "!!:s/A/B/:p", "!!:s|B|C|", ": !!:z", "!!:s/C/&&/",
     "!!:s/CC/\\&/", "!!:s/&/[&]", ": !-3:s/A/x/:s/A/y/"],
    [": start", ": 'single !!' \"double !!\" \\!! \"a!\" b! !=c", ": \"!!:1\" end", ": !#", ": x!#:1",
     ": $! [!a] x", ": ${!p} y", ": a!b", ": \"it's !!\"", ": \"!:0\"x"],
    [": q|w>r&&e;t >>f 2>&1 $(echo a b) \"c d\"", ": !!:* !$", ": !!:3 !!:4 !!:5", "!:-3"],
    ["true first", "false second one", ": !t !f", ": !?one? !?ec?%", "!?nowhere?", ": !tr:1", "!?first"],
]


RAN = re.compile(r"bash: .*: (command not found|No such file or directory|invalid indirect expansion)$")


def ours(lines: list[str]) -> list[list[str]]:
    """What bash would show after each line: the expansion (when it changed the line) or the error."""
    entries: list[str] = []
    memory = Memory()
    shown = []
    for line in lines:
        try:
            text, _ = expand(line, entries, 1, memory)
        except HistoryError as e:
            shown.append([f"bash: {e.message}"])
            continue
        shown.append([text] if text != line else [])
        entries.append(text)
    return shown


def bashs(lines: list[str], where: Path) -> list[list[str]]:
    """(bash runs the lines: in ``where``, where their redirections make files)"""
    done = subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", "HISTFILE=/dev/null", "LC_ALL=C", "TERM=dumb",
                           "PS1=@@PROMPT@@\n", "bash", "--norc", "--noprofile", "-i"],
                          input="\n".join(lines) + "\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=30, cwd=where)
    out = done.stdout
    segments = out.split("@@PROMPT@@\n")[1:len(lines) + 1]
    # each segment: the line as typed (readline echoes it), then what bash said about it (and
    # what running the expansion said: a word designator may leave a command to run)
    return [[s for s in segment.split("\n")[1:] if s and not RAN.match(s)] for segment in segments]


@host_tool("bash")
@pytest.mark.parametrize("lines", SESSIONS, ids=[s[0][:20] for s in SESSIONS])
def test_expansions_are_bashs(lines, tmp_path):
    assert ours(lines) == bashs(lines, tmp_path)


def test_words_as_readline_splits_them():
    assert split_words(": q|w>r&&e;t >>f 2>&1 $(echo a b) \"c d\" <(x y)") == [
        ":", "q", "|", "w", ">", "r", "&&", "e", ";", "t", ">>", "f", "2>&1", "$(echo a b)",
        '"c d"', "<(x y)"]


def test_print_only_and_untouched_lines():
    assert expand("echo !!:p", ["ls -l"]) == ("echo ls -l", True)
    assert expand("echo 'a!b' \\!x x!", []) == ("echo 'a!b' \\!x x!", False)
    assert expand("echo !(a|b)", [], extglob=True) == ("echo !(a|b)", False)
    with pytest.raises(HistoryError, match=r"^!!: event not found$"):
        expand("!!", [])


def run(engine, sandbox, code: str) -> str:
    out = bytearray()

    class Sink:
        def write(self, data: bytes) -> None:
            out.extend(data)

    asyncio.run(sandbox.run("sh", code, Streams(Sink(), Sink(), CancelToken()), engine=engine))
    return out.decode()


def test_the_engine_expands_only_with_set_h_and_history_p_always():
    sandbox = Sandbox()
    engine = sandbox.new_engine("sh")
    engine.add_history("echo one two")
    assert engine.expand_history("!!:2") == ("!!:2", False)  # histexpand is off in a notebook
    engine.set_option("histexpand", True)
    assert engine.expand_history("echo !!:2\nx !e") == ("echo two\nx echo one two", False)
    assert "H" in run(engine, sandbox, "echo $-")
    with pytest.raises(HistoryError, match="!zz: event not found"):
        engine.expand_history("!zz")
    assert run(engine, sandbox, "history -p '!!:1' x '!e:$'") == "one\nx\ntwo\n"
    assert run(engine, sandbox, "history -p '!nope'; echo $?").endswith("history: !nope: history expansion failed\n1\n")


def test_histcontrol_is_bashs_rule_for_cells_and_terminal_lines():
    sandbox = Sandbox()
    engine = sandbox.new_engine("sh")
    for line in ("ls", "ls", " secret", "pwd", "ls"):
        engine.add_history(line)
    assert engine.history() == ["ls", "ls", " secret", "pwd", "ls"]  # bash's default: everything
    for control, expected in (("ignoredups", ["a", " hidden", "b", "a"]), ("ignorespace", ["a", "a", "b", "a"]),
                              ("ignoreboth", ["a", "b", "a"]), ("erasedups", [" hidden", "b", "a"])):
        engine = sandbox.new_engine("sh")
        run(engine, sandbox, f"HISTCONTROL={control}")
        for line in ("a", "a", " hidden", "b", "a"):
            engine.add_history(line)
        assert engine.history() == expected, control


def test_the_history_holds_at_most_4_mib_whatever_histsize_says():
    sandbox = Sandbox()
    engine = sandbox.new_engine("sh")
    run(engine, sandbox, "HISTSIZE=100000")
    for n in range(100):
        engine.add_history(f"echo {n} " + "x" * 60_000)
    assert sum(map(len, engine.history())) <= MAX_HISTORY_CHARS < sum(map(len, engine.history())) + 60_010
    assert engine.history()[-1].startswith("echo 99 ")
    assert run(engine, sandbox, "history 1").startswith("  100  echo 99 ")  # numbered on
