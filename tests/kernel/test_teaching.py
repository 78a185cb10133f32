"""A shell lesson as written, through jupyter_client: ls in columns at the notebook, clear as
clear_output, man pages, and nano/edit/vi opening files in the frontend's editor."""
import os
import shlex
import subprocess
import time

import pytest

from sandbox_kernel.client.vfs import VfsClient
from tests.support.kernelclient import collect, execute, run_ok, shell_reply, stream_text

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


#: a lesson's folder with every kind -F marks: directories /, executables *, symlinks @
CLASSIFIED = {"dirs": ["data", "results", "my dir"], "exec": ["run.sh", "count"],
              "links": {"latest": "results", "dangling": "gone"},
              "files": [f"notes{i:02d}.txt" for i in range(20)] + ["a b.txt"]}


@pytest.fixture
def classified(tmp_path):
    """The same folder on the host."""
    for name in CLASSIFIED["dirs"]:
        (tmp_path / name).mkdir()
    for name in CLASSIFIED["exec"] + CLASSIFIED["files"]:
        (tmp_path / name).write_text("")
    for name in CLASSIFIED["exec"]:
        (tmp_path / name).chmod(0o755)
    for name, target in CLASSIFIED["links"].items():
        (tmp_path / name).symlink_to(target)
    return tmp_path


def host_ls(folder, width: int) -> str:
    """GNU ls -F on a terminal of ``width`` columns (-C, shell-escape quoting) in ``folder``."""
    return subprocess.run(["ls", "-F", "-C", "--quoting-style=shell-escape", "-w", str(width)], cwd=folder,
                          check=True, capture_output=True, text=True,
                          env={"LC_ALL": "C", "PATH": os.environ["PATH"]}).stdout


def test_ls_F_writes_columns_to_the_notebook_like_gnu_ls_on_a_terminal(kc, classified):
    quoted = " ".join(shlex.quote(n) for n in CLASSIFIED["dirs"])
    files = " ".join(shlex.quote(n) for n in CLASSIFIED["exec"] + CLASSIFIED["files"])
    links = "; ".join(f"ln -s {t} {n}" for n, t in CLASSIFIED["links"].items())
    run_ok(kc, f"mkdir -p /tmp/classified && cd /tmp/classified && mkdir {quoted} && touch {files}\n"
               f"chmod +x {' '.join(CLASSIFIED['exec'])}; {links}")
    try:
        out = run_ok(kc, "ls -F")
        assert 1 < len(out.splitlines()) < 10  # columns, not one name per line
        assert out == host_ls(classified, 80)
        narrow = run_ok(kc, "COLUMNS=50 ls -F")
        assert len(narrow.splitlines()) > len(out.splitlines()) and narrow == host_ls(classified, 50)
        # piped: one per line, still classified
        assert run_ok(kc, "ls -F | head -4") == "a b.txt\ncount*\ndangling@\ndata/\n"
    finally:
        run_ok(kc, "cd /workspace")


def test_command_not_found_hints_in_the_notebook(kc):
    reply, messages = execute(kc, "ipython")
    assert (reply["status"], reply["ename"], reply["evalue"]) == ("error", "ExitStatus", "127")
    err = stream_text(messages, "stderr")
    assert "ipython: command not found (python3 and %%python cells run CPython here" in err, err
    reply, messages = execute(kc, "conda install numpy")
    assert "packages cannot be installed here; python3 has numpy" in stream_text(messages, "stderr")


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


# ---------------------------------------------------------------- nano / edit / vi / vim
def test_editors_without_a_panel_say_so_at_once(kc):
    for name in ("nano", "edit", "vi", "vim"):
        started = time.monotonic()
        reply, messages = execute(kc, f"{name} notes.txt")
        assert time.monotonic() - started < 5 and reply["status"] == "error"
        err = stream_text(messages, "stderr")
        assert err.startswith(f"{name}: no editor here:") and "Sandbox files panel" in err, err
        assert "cat > notes.txt <<'EOF'" in err
    assert run_ok(kc, "nano notes.txt; echo $?; ls notes.txt 2>&1 >/dev/null | wc -l") == "1\n1\n"


@pytest.fixture
def host(kc):
    """What the JupyterLab panel does: a `sandbox.vfs` comm that offers an editor."""
    with VfsClient(kc, timeout=30, editor=True) as editor:
        yield editor


def test_nano_waits_for_the_editor_and_sees_what_was_saved(kc, host):
    msg_id = kc.execute("cd /workspace && nano notes.txt; echo status=$?; cat notes.txt")
    event = host.next_edit()
    assert (event["event"], event["path"]) == ("edit", "/workspace/notes.txt")
    host.edited(event["edit"], "opened")
    host.write_text("/workspace/notes.txt", "written in the editor\n")
    host.edited(event["edit"], "closed")
    messages = collect(kc, msg_id)
    assert stream_text(messages) == "status=0\nwritten in the editor\n"


def test_nano_reports_what_the_editor_could_not_open(kc, host):
    msg_id = kc.execute("printf '\\377\\376' > blob.bin; vim blob.bin; echo status=$?")
    host.edited(host.next_edit()["edit"], "failed", "not UTF-8 text")
    messages = collect(kc, msg_id)
    assert stream_text(messages) == "status=1\n"
    assert stream_text(messages, "stderr") == "vim: blob.bin: not UTF-8 text\n"


def test_interrupt_ends_a_waiting_nano(kernel, host):
    km, kc = kernel
    msg_id = kc.execute("nano waiting.txt")
    host.edited(host.next_edit()["edit"], "opened")
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=10)["content"]
    assert reply["status"] == "error" and reply["ename"] == "Interrupted"
    collect(kc, msg_id)
    assert run_ok(kc, "echo still-here") == "still-here\n"
