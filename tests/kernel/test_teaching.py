"""A shell lesson as written, through jupyter_client: ls in columns at the notebook, clear as
clear_output, man pages, and what nano/edit/vi say without the JupyterLab panel."""

from kernelclient import execute, run_ok, stream_text

NAMES = " ".join(f"file{i:02d}.txt" for i in range(30))


def test_ls_writes_columns_to_the_notebook_and_lines_to_pipes(kc):
    run_ok(kc, f"mkdir -p /tmp/lesson && cd /tmp/lesson && touch {NAMES} 'a b'")
    out = run_ok(kc, "ls")
    lines = out.splitlines()
    # GNU ls on an 80-column terminal: 31 names in 6 columns, the quoted one lined up
    assert len(lines) == 6 and lines[0].startswith("'a b'\t") and lines[1].startswith(" file00.txt ")
    assert max(len(line.expandtabs()) for line in lines) <= 80
    assert run_ok(kc, "ls -F | head -2") == "a b\nfile00.txt\n"
    assert run_ok(kc, "x=$(ls); echo \"$x\" | wc -l") == "31\n"
    assert run_ok(kc, "ls > /tmp/listing; wc -l < /tmp/listing") == "31\n"
    narrow = run_ok(kc, "COLUMNS=40 ls").splitlines()
    assert len(narrow) == 11 and max(len(line.expandtabs()) for line in narrow) <= 40
    in_function = run_ok(kc, "f() { ls; }; f")
    assert in_function == out
    run_ok(kc, "cd /workspace")


def test_clear_clears_the_cell_output(kc):
    reply, messages = execute(kc, "echo before; clear; echo after")
    kinds = [(m["msg_type"], m["content"].get("text")) for m in messages]
    assert kinds == [("stream", "before\n"), ("clear_output", None), ("stream", "after\n")], kinds
    assert messages[1]["content"]["wait"] is False and reply["status"] == "ok"
    # into a pipe or a file clear writes the terminal's sequence, as ncurses clear does
    assert run_ok(kc, "clear | od -An -c | tr -s ' '") == " 033 [ H 033 [ 2 J 033 [ 3 J\n"
    assert run_ok(kc, "clear -x > /tmp/cls; wc -c < /tmp/cls") == "7\n"


def test_man_in_the_notebook(kc):
    out = run_ok(kc, "man grep")
    assert out.startswith("GREP(1) ") and "Search for PATTERNS in each FILE." in out
    reply, messages = execute(kc, "man")
    assert reply["status"] == "error"
    assert stream_text(messages, "stderr") == "What manual page do you want?\nFor example, try 'man man'.\n"
