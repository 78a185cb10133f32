"""The Sandbox terminal's line editing as a bash user's fingers expect it (issue #31): a command of
several lines under PS2, Tab completion, Ctrl-R, word motions and kills, history expansion, a
bracketed paste, lines wider than the terminal. A TerminalSession over a Sandbox, no kernel;
the output goes through a small VT100 screen (tests/kernel/comms/vt.py) to see what the user sees."""
from __future__ import annotations

import asyncio
import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox_kernel.engine import CancelToken, RunResult, Streams
from sandbox_kernel.kernel.comms import terminal
from sandbox_kernel.kernel.protocol.cells import CellRunner
from sandbox_kernel.kernel.comms.lineedit import LineEditor
from sandbox_kernel.kernel.comms.terminal import MAX_COMMAND_LINES, MAX_LINE, TerminalSession
from sandbox_kernel.sandbox import Sandbox
from .vt import Screen

PS1 = "user@sandbox:/workspace$ "
UP, DOWN, LEFT, RIGHT = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"
CTRL_LEFT, CTRL_RIGHT = "\x1b[1;5D", "\x1b[1;5C"


class Term:
    """A terminal session with a screen; ``await term.type(keys)`` types and waits for the
    command it started (if any) to end."""

    def __init__(self, cols: int = 80, sandbox: Sandbox | None = None) -> None:
        self.sandbox = sandbox or Sandbox()
        self.screen = Screen(cols)
        self.raw: list[str] = []
        self.exit_status: int | None = None
        self.session = TerminalSession(self.sandbox, self.receive, cols)

    def receive(self, message: dict) -> None:
        if message["type"] == "output":
            self.raw.append(message["data"])
            self.screen.write(message["data"])
        elif message["type"] == "exit":
            self.exit_status = message["status"]

    async def start(self) -> "Term":
        self.session.start()
        await self.idle()
        return self

    async def idle(self) -> None:
        for _ in range(3000):
            await asyncio.sleep(0.002)
            if self.session.task is None or self.session.reading is not None:
                return
        raise AssertionError("the command did not end")

    async def type(self, *keys: str) -> str:
        """Type each of ``keys`` (one message each), waiting after each; the screen's text."""
        for k in keys:
            self.session.feed(k)
            await self.idle()
        return self.text()

    def text(self) -> str:
        return self.screen.text()

    def last(self, n: int = 1) -> str:
        return "\n".join(self.text().split("\n")[-n:])

    def history(self) -> list[str]:
        return self.session.shell.history()


def run(coroutine_function):
    """Run an async test body with a started Term."""
    async def main():
        term = await Term().start()
        try:
            await coroutine_function(term)
        finally:
            term.session.close()
            await term.sandbox.shutdown()
    asyncio.run(main())


# ----------------------------------------------------------------- 1. PS2
def test_a_for_loop_over_three_lines_runs_once_complete():
    async def body(t: Term):
        assert t.last() == PS1
        await t.type("for i in 1 2; do\r")
        assert t.last() == "> " and t.session.task is None
        await t.type("  echo item $i\r")
        assert t.last() == "> "
        await t.type("done\r")
        assert t.text().endswith("> done\nitem 1\nitem 2\n" + PS1)
        assert t.history()[-1] == "for i in 1 2; do   echo item $i; done"  # one entry, as bash's cmdhist
        await t.type(UP)
        assert t.last() == PS1 + "for i in 1 2; do   echo item $i; done"
    run(body)


def test_what_keeps_a_command_open():
    async def body(t: Term):
        for first, rest, shown in [
            ("if true", "then echo yes; fi", "yes"),
            ('echo "open', 'quote"', "open\nquote"),
            ("echo piped |", "tr a-z A-Z", "PIPED"),
            ("true &&", "echo and", "and"),
            ("echo back\\", "slash", "backslash"),
            ("cat <<EOF", "here\rEOF", "here"),
            ("{ echo brace", "}", "brace"),
            ("case x in", "x) echo case;; esac", "case"),
            ("f() {", "echo func; }; f", "func"),
        ]:
            await t.type(first + "\r")
            assert t.last() == "> ", first
            await t.type(rest + "\r")
            assert t.text().endswith(shown + "\n" + PS1), (first, t.text()[-200:])
        assert t.history()[-3:] == ["{ echo brace; }", "case x in x) echo case;; esac", "f() { echo func; }; f"]
    run(body)


def test_a_here_document_comes_back_whole_and_runs_again():
    async def body(t: Term):
        await t.type("cat <<EOF\r", "hello $USER\r", "EOF\r")
        assert t.history() == ["cat <<EOF\nhello $USER\nEOF\n"]  # its lines kept, as bash keeps them
        await t.type(UP)
        assert t.last(3) == PS1 + "cat <<EOF\nhello $USER\nEOF"
        await t.type("\r")
        assert t.text().endswith("EOF\nhello user\n" + PS1) and t.text().count("hello user") == 2
    run(body)


def test_ps2_is_the_variable_with_its_escapes():
    async def body(t: Term):
        await t.type("PS2='\\u more> '\r", "while false\r")
        assert t.last() == "user more> "
        await t.type("do :; done\r")
        assert t.last() == PS1
    run(body)


def test_ctrl_c_at_ps2_drops_the_command_with_status_130():
    async def body(t: Term):
        await t.type("true\r", "for i in 1; do\r", "echo never\r", "\x03")
        assert t.text().endswith("> echo never\n> ^C\n" + PS1)
        assert "never\nnever" not in t.text()
        await t.type("echo status=$?\r")
        assert "status=130" in t.text()
        assert not any("never" in e for e in t.history())
        await t.type("abc\x03", "echo again=$?\r")  # at PS1 too, as bash
        assert "again=130" in t.text()
    run(body)


def test_a_syntax_error_reports_at_once_and_end_of_input_inside_a_command_says_so():
    async def body(t: Term):
        await t.type("done\r")
        assert "syntax error near unexpected token `done'" in t.text() and t.last() == PS1
        await t.type("if true\r")
        assert t.last() == "> "
        await t.type("\x04")  # Ctrl-D at PS2: bash's end of file
        assert "syntax error: unexpected end of file\n" + PS1 in t.text()
        assert t.exit_status is None
    run(body)


def test_a_command_of_too_many_lines_is_dropped_with_a_message():
    async def body(t: Term):
        await t.type("echo '\r" + "x\r" * (MAX_COMMAND_LINES + 5))
        assert "command too long (1001 lines" in t.text() and "dropped" in t.text()
        assert t.session.lines == [] and len(t.session.editor.text) < 10
        await t.type("echo fine\r")  # the rest of what was typed ran as commands: x: not found
        assert "fine\n" + PS1 in t.text()
        # a big command typed line by line: what its checks parse is bounded too
        await t.type("{ " + "a=" * 30000 + "\r")
        for _ in range(60):
            t.session.feed("echo b\r")
        await t.idle()
        assert t.text().count("command too long") == 2 and t.session.parsed < terminal.MAX_COMMAND_PARSE
    run(body)


# ----------------------------------------------------------------- 2. Tab
def test_tab_completes_from_the_kernels_completer():
    async def body(t: Term):
        await t.type("mkdir -p docs/deep && touch notes-one.txt notes-two.txt docs/readme.md\r")
        await t.type("cat docs/r\t")
        assert t.last() == PS1 + "cat docs/readme.md "  # one match: a space after a file
        await t.type("\x15ls do\t")
        assert t.last() == PS1 + "ls docs/"  # a directory: "/"
        await t.type("\x15cat no\t")
        assert t.last() == PS1 + "cat notes-"  # their common start
        bells = t.screen.bells
        await t.type("\t")  # the next Tab lists them, then the prompt and the line again
        assert t.text().endswith(PS1 + "cat notes-\nnotes-one.txt  notes-two.txt\n" + PS1 + "cat notes-")
        await t.type("t\t")
        assert t.last() == PS1 + "cat notes-two.txt "
        await t.type("\x15echo zzz\t")
        assert t.screen.bells == bells + 1  # nothing matches: the bell
        await t.type("\x15hist\t")
        assert t.last() == PS1 + "history "  # commands, builtins too
        await t.type("\x15echo $HOM\t")
        assert t.last() == PS1 + "echo $HOME "
        await t.type("\x15ls --almost\t")
        assert t.last() == PS1 + "ls --almost-all "  # options from the help text
    run(body)


def test_tab_in_the_middle_and_many_matches_ask_first():
    async def body(t: Term):
        await t.type("touch " + " ".join(f"f{n:03}" for n in range(150)) + " unique.txt\r")
        await t.type("cat uni foo" + LEFT * 4 + "\t")
        assert t.last() == PS1 + "cat unique.txt foo" and t.session.editor.cursor == len("cat unique.txt ")
        await t.type("\x01\x0bls f\t", "\t")
        assert t.last() == "Display all 150 possibilities? (y or n)"
        await t.type("n")
        assert t.last() == PS1 + "ls f"
        await t.type("\t", "y")
        assert "f000" in t.text() and "f149" in t.text() and t.last() == PS1 + "ls f"
    run(body)


# ----------------------------------------------------------------- 3. Ctrl-R and the editing keys
def test_ctrl_r_searches_the_history_backwards():
    async def body(t: Term):
        for line in ("echo alpha one", "echo beta", "echo alpha two", "printf 'x\\n'"):
            await t.type(line + "\r")
        await t.type("\x12")
        assert t.last() == "(reverse-i-search)`': "
        await t.type("alp")
        assert t.last() == "(reverse-i-search)`alp': echo alpha two"
        await t.type("\x12")  # the next older match
        assert t.last() == "(reverse-i-search)`alp': echo alpha one"
        await t.type("\x12")  # no older one: it says so, the match stays
        assert t.last() == "(failed reverse-i-search)`alp': echo alpha one"
        await t.type("\x7f\x7f\x7f")  # Backspace goes back through the search
        assert t.last() == "(reverse-i-search)`': " or t.last().startswith("(reverse-i-search)`'")
        await t.type("bet", "\r")  # Enter runs the match
        assert t.text().endswith("echo beta\nbeta\n" + PS1)
        await t.type("echo draft", "\x12", "alpha", "\x07")  # Ctrl-G: back to the line as it was
        assert t.last() == PS1 + "echo draft"
        await t.type("\x15", "\x12", "one", RIGHT)  # a key that edits: the match is the line
        assert t.last() == PS1 + "echo alpha one" and t.session.editor.cursor == len("echo alpha o")
        await t.type("\x0b\r", "\x12", "two", "\x05", " more\r")
        assert "echo alpha o\nalpha o\n" in t.text() and "\nalpha two more\n" in t.text()
        await t.type("\x12", "zzz")
        assert t.last() == "(failed reverse-i-search)`zzz': "
        await t.type("\x03")  # Ctrl-C: the search and the line go
        assert t.last() == PS1 and t.session.search is None
    run(body)


def test_a_lone_escape_ends_the_search_with_the_match_to_edit():
    async def body(t: Term):
        await t.type("echo kept\r", "\x12", "kep", "\x1b")
        assert t.session.search is not None  # ESC alone: it may be the start of Alt-B ...
        await asyncio.sleep(terminal.ESC_TIMEOUT + 0.2)  # ... until nothing follows
        assert t.session.search is None and t.last() == PS1 + "echo kept"
        assert t.session.editor.cursor == len("echo ")
        await t.type("\x0b\r")
        assert t.text().endswith(PS1 + "echo \n\n" + PS1)
    run(body)


def test_word_motions_kills_and_yank():
    e = LineEditor("$ ")
    e.insert("cp src/one.txt  dest/dir")
    e.key("\x17")  # Ctrl-W: back to whitespace
    assert (e.text, e.killed) == ("cp src/one.txt  ", "dest/dir")
    e.key("\x17")  # again: gathered into one kill
    assert (e.text, e.killed) == ("cp ", "src/one.txt  dest/dir")
    e.key("\x19")  # Ctrl-Y
    assert e.text == "cp src/one.txt  dest/dir"
    e.key("\x1bb")  # Alt-B: words of letters and digits
    assert e.text[e.cursor:] == "dir"
    e.key(CTRL_LEFT)
    assert e.text[e.cursor:] == "dest/dir"
    e.key("\x1bb")
    e.key("\x1bb")
    assert e.text[e.cursor:] == "one.txt  dest/dir"
    e.key(CTRL_RIGHT)
    assert e.text[e.cursor:] == ".txt  dest/dir"
    e.key("\x1bf")
    assert e.text[e.cursor:] == "  dest/dir"
    e.key("\x1bd")  # Alt-D: to the end of the next word
    assert (e.text, e.killed) == ("cp src/one.txt/dir", "  dest")
    e.key("\x1b\x7f")  # Alt-Backspace: back to the start of a word; a kill after a kill: gathered
    assert (e.text, e.killed) == ("cp src/one./dir", "txt  dest")
    e.key(LEFT)
    e.key("\x1b\x7f")
    assert (e.text, e.killed) == ("cp src/./dir", "one")
    e.key("\x05")
    e.key("\x14")  # Ctrl-T at the end: the two characters before it
    assert e.text == "cp src/./dri"
    e.key("\x01")
    e.key("\x1bu")  # Alt-U: the word upper case, the cursor after it
    assert (e.text, e.cursor) == ("CP src/./dri", 2)
    e.key("\x1bc")
    assert e.text == "CP Src/./dri"


def test_ctrl_d_deletes_under_the_cursor_and_exits_on_an_empty_line():
    async def body(t: Term):
        await t.type("echo abc", LEFT, LEFT, "\x04")
        assert t.last() == PS1 + "echo ac"
        await t.type("\x05\x15", "\x04")
        assert t.exit_status == 0
    run(body)


def test_ctrl_l_clears_and_draws_the_line_again():
    async def body(t: Term):
        await t.type("echo before\r", "echo typed", LEFT, "\x0c")
        assert t.text() == PS1 + "echo typed" and t.screen.cursor() == (0, len(PS1) + 9)
    run(body)


def test_alt_dot_inserts_the_last_word_of_earlier_commands():
    async def body(t: Term):
        await t.type("mkdir -p first\r", "touch second\r", "ls \x1b.")
        assert t.last() == PS1 + "ls second"
        await t.type("\x1b.")
        assert t.last() == PS1 + "ls first"
    run(body)


# ----------------------------------------------------------------- 4. history expansion, shared history
def test_bang_bang_and_friends_expand_as_in_bash():
    async def body(t: Term):
        await t.type("echo one two\r", "!!\r")
        assert t.text().endswith(PS1 + "!!\necho one two\none two\n" + PS1)
        await t.type("echo !$ !^\r")
        assert "echo two one\ntwo one\n" in t.text()
        await t.type("!ech:0\r", "!1\r")
        assert t.text().endswith(PS1 + "!1\necho one two\none two\n" + PS1)
        await t.type("!nope\r")
        assert t.text().endswith("bash: !nope: event not found\n" + PS1)
        await t.type("^two^three^\r")
        assert t.text().endswith("echo one three\none three\n" + PS1)
        await t.type("echo 'no !! here'\r")
        assert "no !! here\n" in t.text()
        assert t.history()[-2:] == ["echo one three", "echo 'no !! here'"]  # recorded expanded
        await t.type("history 2\r")
        assert "echo 'no !! here'\n" in t.text() and t.text().rstrip().endswith("history 2\n" + PS1.rstrip())
        await t.type("set +H\r", "echo !!\r")
        assert t.text().endswith("!!\n" + PS1)
    run(body)


def test_the_terminal_starts_with_the_notebooks_history_and_keeps_its_own():
    async def main():
        sandbox = Sandbox()
        notebook = sandbox.engine("sh")
        notebook.add_history("echo from-a-cell")
        t = await Term(sandbox=sandbox).start()
        await t.type(UP)
        assert t.last() == PS1 + "echo from-a-cell"
        await t.type("\x15!!\r")
        assert "from-a-cell\n" in t.text()
        await t.type("echo terminal-only\r")
        assert notebook.history() == ["echo from-a-cell"]  # the notebook's `history` is its cells'
        t.session.close()
        await sandbox.shutdown()
    asyncio.run(main())


def test_cells_expand_history_after_set_h_with_the_same_rule():
    async def main():
        sandbox = Sandbox()
        cells = CellRunner(sandbox, logging.getLogger("test"))

        async def cell(code: str) -> tuple[str, str, RunResult]:
            out, err = bytearray(), bytearray()

            class Sink:
                def __init__(self, buf: bytearray) -> None:
                    self.buf = buf

                def write(self, data: bytes) -> None:
                    self.buf.extend(data)

            outcome = await cells.run(code, Streams(Sink(out), Sink(err), CancelToken()))
            return out.decode(), err.decode(), outcome.result

        await cell("echo one two")
        assert (await cell("echo !!"))[0] == "!!\n"  # a notebook has no history expansion ...
        await cell("set -H")  # ... until asked
        out, err, result = await cell("echo !?one?:$")  # RunResult is a plain class: no ==
        assert (out, err, result.status, result.error, result.value) == ("two\n", "echo two\n", 0, None, None)
        out, err, result = await cell("!nope")
        assert (out, err, result.status, result.error.ename) == ("", "bash: !nope: event not found\n", 1,
                                                                 "HistoryExpansion")
        assert (await cell("history 1"))[0].endswith("history 1\n")
        await sandbox.shutdown()
    asyncio.run(main())


# ----------------------------------------------------------------- paste, wide lines, typeahead
def test_a_bracketed_paste_goes_in_whole_and_enter_runs_it():
    async def body(t: Term):
        assert "\x1b[?2004h" in t.raw[-1]
        await t.type("\x1b[200~for x in a b\r  do echo got-$x\rdone\r\x1b[201~")
        assert t.session.task is None and "got-a" not in t.text()  # nothing runs yet
        assert t.text().endswith(PS1 + "for x in a b\n  do echo got-$x\ndone")
        await t.type("\r")
        assert t.text().endswith("done\ngot-a\ngot-b\n" + PS1)
        assert t.history()[-1] == "for x in a b;   do echo got-$x; done"  # as bash joins them
        await t.type(UP, "\r")  # recalled and run again
        assert t.text().count("got-b") == 2
    run(body)


def test_a_line_wider_than_the_terminal_is_edited_in_place():
    async def main():
        t = await Term(cols=30).start()
        line = "echo " + " ".join(f"w{n}" for n in range(20))  # four rows with the prompt
        await t.type(line)
        assert t.text() == "\n".join((PS1 + line)[k:k + 30] for k in range(0, 99, 30))
        await t.type("\x01", CTRL_RIGHT, CTRL_RIGHT, "X")  # on the first row, after the prompt
        edited = line.replace("w0", "w0X")
        assert t.text() == "\n".join((PS1 + edited)[k:k + 30] for k in range(0, 100, 30))
        assert t.screen.cursor() == (1, 3)
        await t.type("\x05", "Y")
        end = len(PS1 + edited + "Y")
        assert t.screen.cursor() == (end // 30, end % 30) == (3, 11)
        await t.type("\r")  # the output starts below the line's last row
        assert t.text().endswith("\n" + "\n".join((edited[5:] + "Y")[k:k + 30] for k in range(0, 80, 30)) + "\n" + PS1)
        t.session.close()
        await t.sandbox.shutdown()
    asyncio.run(main())


def test_lines_typed_while_a_command_runs_go_in_next_even_across_ps2():
    async def body(t: Term):
        t.session.feed("sleep 0.3\r")
        t.session.feed("for v in p q\rdo echo v=$v\rdone\recho after\r")
        await t.idle()
        for _ in range(3):
            await t.idle()
        assert "v=p\nv=q\n" in t.text() and "\nafter\n" in t.text()
    run(body)


def test_output_without_a_final_newline_stays_before_the_prompt_and_the_read():
    async def body(t: Term):
        await t.type("printf 'no newline'\r", "echo ab", "\x7f")
        assert t.last() == "no newline" + PS1 + "echo a"
        await t.type("\x01\x0bprintf 'Name: '; read n; echo \"[$n]\"\r", "Adx", "\x7f", "a", LEFT, "\x7f", "A\r")
        assert "\nName: AAa\n[AAa]\n" + PS1 in t.text()
    run(body)


def test_keys_typed_while_a_command_runs_are_edited_at_the_next_prompt():
    async def body(t: Term):
        await t.type("touch ahead-file.txt\r")
        t.session.feed("sleep 0.2\r")
        t.session.feed("cat ahead-f\t")  # typed while sleep runs: the Tab completes at the prompt
        await t.idle()
        await t.idle()
        assert t.last() == PS1 + "cat ahead-file.txt "
        t.session.feed("\x15sleep 0.2; read -r v; echo \"[$v]\"\r")
        t.session.feed("start ")  # typed before the read began: the read's line starts with it
        for _ in range(100):
            await asyncio.sleep(0.01)
            if t.session.reading is not None:
                break
        await t.type("end\r")
        assert "[start end]\n" + PS1 in t.text()
    run(body)


def test_a_read_takes_a_tab_literally():
    async def body(t: Term):
        await t.type("read -r v; printf '[%s]' \"$v\"\r")
        await t.type("a\tb\r")
        assert "[a\tb]" in "".join(t.raw) or "[a       b]" in t.text()
    run(body)


# ----------------------------------------------------------------- any keys at all
KEYS = st.sampled_from(["\r", "\n", "\t", "\x03", "\x04", "\x07", "\x08", "\x0b", "\x0c", "\x12", "\x13", "\x14",
                        "\x15", "\x16", "\x17", "\x19", "\x1b", "\x1b.", "\x1bb", "\x1bf", "\x1bd", "\x1b\x7f",
                        "\x7f", UP, DOWN, LEFT, RIGHT, CTRL_LEFT, CTRL_RIGHT, "\x1b[3~", "\x1b[H", "\x1b[F",
                        "\x1b[200~", "\x1b[201~", "\x1b[", "\x1bO", "for i in 1; do", "done", "'", "!!", "!-3:2",
                        "^a^b^", "echo ", "ls ", "y", "n", "\u4e00", "\u0301", "\x9b", "\ud800"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(st.lists(st.one_of(KEYS, st.text(max_size=8)), max_size=8).map("".join), max_size=20),
       cols=st.integers(1, 120))
def test_random_keys_never_raise_and_the_state_stays_bounded(messages, cols):
    async def main():
        sandbox = Sandbox()
        sandbox.limits.wall_time = 2
        sent: list[dict] = []
        session = TerminalSession(sandbox, sent.append, cols)
        session.start()
        for data in messages:
            session.feed(data)
            await asyncio.sleep(0)
        for message in sent:
            assert message["type"] in ("output", "exit")
            if message["type"] == "output":
                assert isinstance(message["data"], str)
                message["data"].encode("utf-8")  # sendable: no lone surrogate
        assert len(session.editor.text) <= MAX_LINE and len(session.pending) < 16
        assert len(session.lines) <= MAX_COMMAND_LINES and session.editor.cursor <= len(session.editor.text)
        session.close()
        await sandbox.shutdown()
    asyncio.run(main())
