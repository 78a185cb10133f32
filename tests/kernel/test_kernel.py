"""kernel/kernel.py through jupyter_client: a real kernel subprocess started from the installed
kernelspec (tests/kernel/conftest.py), driven over ZMQ like any front end does (and the cell
history's bound, in process)."""
import json
import subprocess
import sys
import time
import uuid
from pathlib import Path
from queue import Empty

import pytest
from jupyter_client.manager import KernelManager

from tests.support.kernelclient import (collect, execute, interrupt_after_output, run_ok, shell_reply, start_kernel,
                                       stream_text)


# ---------------------------------------------------------------- launching
def test_launches_through_the_standard_provisioner(jupyter_kernels):
    from jupyter_client.provisioning import LocalProvisioner

    km = KernelManager(kernel_name="sandbox")
    assert km.kernel_spec.resource_dir.startswith(jupyter_kernels)
    assert km.kernel_spec.argv[:5] == [sys.executable, "-P", "-m", "sandbox_kernel", "kernel"]
    km.start_kernel()
    try:
        assert isinstance(km.provisioner, LocalProvisioner)
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        assert run_ok(kc, "echo $((6 * 7))") == "42\n"
        kc.stop_channels()
    finally:
        km.shutdown_kernel(now=True)


def test_kernelspec_list_shows_sandbox(jupyter_kernels):
    out = subprocess.run([sys.executable, "-m", "jupyter", "kernelspec", "list", "--json"],
                         capture_output=True, text=True, check=True).stdout
    specs = json.loads(out)["kernelspecs"]
    assert specs["sandbox"]["spec"]["display_name"] == "Sandbox (shell · JS · VM)"
    assert specs["sandbox"]["spec"]["interrupt_mode"] == "message"
    assert specs["sandbox-signal"]["spec"]["interrupt_mode"] == "signal"


def test_kernel_info(kc):
    kc.kernel_info()
    info = kc.get_shell_msg(timeout=10)["content"]
    lang = info["language_info"]
    assert (lang["name"], lang["mimetype"], lang["file_extension"], lang["codemirror_mode"],
            lang["pygments_lexer"]) == ("bash", "text/x-sh", ".sh", "shell", "bash")
    assert "sh (installed)" in info["banner"] and "wall time" in info["banner"]
    assert "debugger" not in info["supported_features"]
    assert info["help_links"] == []  # no file:// links JupyterLab would block


# ---------------------------------------------------------------- execution
def test_state_persists_across_cells(kc):
    run_ok(kc, "x=41\ngreet() { echo \"hi $1\"; }\nalias ll='ls -l'\ncd /tmp && echo data > kept.txt")
    assert run_ok(kc, "echo $((x + 1)); greet you; pwd; cat kept.txt") == "42\nhi you\n/tmp\ndata\n"
    run_ok(kc, "cd /workspace")


def test_history_lists_the_cells_run(kc):
    run_ok(kc, "history -c")
    run_ok(kc, "echo one-$((1 + 1))")
    run_ok(kc, "for f in a b; do\n  echo $f\ndone")
    listed = run_ok(kc, "history")
    lines = [line.split(None, 1)[1] for line in listed.splitlines()]
    # as bash -i lists them, listed
    assert lines == ["echo one-$((1 + 1))", "for f in a b; do   echo $f; done", "history"]


def test_output_streams_while_the_cell_runs(kc):
    msg_id = kc.execute("for i in 1 2 3; do echo $i; sleep 0.2; done")
    order = []
    idle = False
    deadline = time.monotonic() + 20
    while not ("reply" in order and idle) and time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.05)
            if msg["parent_header"].get("msg_id") == msg_id:
                if msg["msg_type"] == "stream":
                    order.append(msg["content"]["text"])
                idle = idle or msg["content"].get("execution_state") == "idle"
        except Empty:
            pass
        try:
            reply = kc.get_shell_msg(timeout=0.01)
            if reply["parent_header"].get("msg_id") == msg_id:
                order.append("reply")
        except Empty:
            pass
    assert order[0] == "1\n", order  # the first line came before the cell ended
    assert order.index("reply") >= 3 and "".join(order[:3]) == "1\n2\n3\n", order


def test_failing_cell_is_an_error_and_status_carries_over(kc):
    reply, messages = execute(kc, "echo before\nfalse")
    assert reply["status"] == "error"
    assert (reply["ename"], reply["evalue"]) == ("ExitStatus", "1")
    assert [m["msg_type"] for m in messages] == ["stream", "error"]
    assert run_ok(kc, "echo $?") == "1\n"
    reply, messages = execute(kc, "ls /no/such/dir")
    assert reply["ename"] == "ExitStatus" and reply["evalue"] == "2"
    assert "No such file or directory" in stream_text(messages, "stderr")
    assert run_ok(kc, "echo $?") == "2\n"


def test_syntax_error_is_an_error_reply(kc):
    reply, messages = execute(kc, "echo ok\nif then fi")
    assert reply["status"] == "error" and reply["ename"] == "SyntaxError"
    assert [m["msg_type"] for m in messages if m["msg_type"] == "error"] == ["error"]
    assert "line 2" in reply["evalue"] and "`then'" in reply["evalue"]
    # magic lines count: line numbers are the cell's
    reply, _ = execute(kc, "%limits wall_time=30\necho ok\nif then fi")
    assert "line 3" in reply["evalue"]


def test_output_flood_is_truncated_with_one_notice(kc):
    run_ok(kc, "%limits stdout_bytes=64K")
    try:
        started = time.monotonic()
        reply, messages = execute(kc, "for ((i = 0; i < 20000; i++)); do echo \"line number $i\"; done")
        elapsed = time.monotonic() - started
        out = stream_text(messages)
        assert len(out.encode()) == 64 * 1024
        assert out.startswith("line number 0\n")
        err = stream_text(messages, "stderr")
        assert err.count("truncated") == 1
        # coalesced: about one message per stream per 50 ms, not one per line
        assert len(messages) <= 2 * (elapsed / 0.05 + 2)
    finally:
        run_ok(kc, "%limits stdout_bytes=1M")


def test_wall_time_limit(kc):
    run_ok(kc, "%limits wall_time=1")
    try:
        started = time.monotonic()
        reply, messages = execute(kc, "sleep 10")
        assert reply["ename"] == "Timeout"
        assert time.monotonic() - started < 5
        assert "raise it with %limits wall_time=2" in stream_text(messages, "stderr") + reply["evalue"]
    finally:
        run_ok(kc, "%limits wall_time=10m")
    assert run_ok(kc, "echo fine") == "fine\n"


def test_shell_limit_messages_say_once_how_to_raise_the_limit(kc):
    run_ok(kc, "%limits commands=5000")
    try:
        reply, messages = execute(kc, "f() { while :; do :; done; }; g() { ( f | cat ); }; x=$(g); echo after")
        message = "too many commands: 5000 executed (limit commands; raise it with %limits commands=10000)"
        assert (reply["ename"], reply["evalue"]) == ("LimitExceeded", message)
        assert stream_text(messages, "stderr") == f"bash: {message}\n"
    finally:
        run_ok(kc, "%limits commands=10000000")
    # the default function depth is already this kernel's ceiling: the message says who can raise it
    reply, messages = execute(kc, "f() { f; }; f")
    assert reply["evalue"] == ("f: maximum function nesting level exceeded (1000; limit function_depth; that is this "
                               "kernel's ceiling, which the admin sets: python -m sandbox_kernel install "
                               "--max-limit function_depth=...)")


# ---------------------------------------------------------------- interrupts
@pytest.mark.parametrize("code", [
    "echo started; while true; do :; done",
    "echo started; sleep 100",
    "echo started; while true; do echo y; done | cat | grep -c n",
])
def test_interrupt_message_mode(kernel, code):
    km, kc = kernel
    run_ok(kc, "%limits commands=1000000000\nsurvivor=yes")  # let the loops run until interrupted
    try:
        reply, messages, elapsed = interrupt_after_output(km, kc, code)
        assert reply["status"] == "error" and reply["ename"] == "Interrupted", reply
        assert elapsed < 3
        assert run_ok(kc, "echo $survivor") == "yes\n"
    finally:
        run_ok(kc, "%limits commands=10000000")


def test_interrupt_runs_trap_handler(kernel):
    km, kc = kernel
    reply, messages, _ = interrupt_after_output(km, kc, "trap 'echo trapped' INT\necho started; sleep 100")
    assert reply["status"] == "error"
    assert "trapped" in stream_text(messages)
    run_ok(kc, "trap - INT")


def test_interrupt_signal_mode():
    with start_kernel("sandbox-signal") as (km, kc):
        assert km.kernel_spec.interrupt_mode == "signal"
        run_ok(kc, "%limits commands=1000000000")
        # the JS loop runs inside wasm, where Python signal handlers can't run: the kernel's
        # wake-up-fd watcher thread must deliver the interrupt
        for code in ("echo started; while true; do :; done", "echo started; sleep 100",
                     "%%js\nconsole.log('started'); while (true) {}"):
            reply, _, elapsed = interrupt_after_output(km, kc, code)
            assert reply["ename"] == "Interrupted" and elapsed < 3
        assert run_ok(kc, "echo alive") == "alive\n"


def test_restart_gives_a_fresh_sandbox():
    with start_kernel("sandbox") as (km, kc):
        run_ok(kc, "marker=set; echo x > /workspace/file")
        km.restart_kernel(now=True)
        kc.wait_for_ready(timeout=60)
        assert run_ok(kc, "echo \"[${marker-unset}]\"; ls /workspace") == "[unset]\n"


# ---------------------------------------------------------------- stdin
def test_read_uses_input_request(kc):
    msg_id = kc.execute('read -p "name? " name; echo "hi $name"', allow_stdin=True)
    request = kc.get_stdin_msg(timeout=10)
    assert request["msg_type"] == "input_request"
    assert request["content"] == {"prompt": "name? ", "password": False}  # read -p's prompt
    kc.input("Ada")
    messages = collect(kc, msg_id)
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    assert stream_text(messages) == "hi Ada\n"


def test_read_s_asks_for_a_password_and_never_shows_it(kc):
    """`read -s`: the input_request says password (the frontend hides what is typed), and the
    answer is in no output of the cell."""
    msg_id = kc.execute('read -s -p "Password: " pw; echo "got ${#pw} characters"; read -r plain; echo "$plain"',
                        allow_stdin=True)
    request = kc.get_stdin_msg(timeout=10)
    assert request["content"] == {"prompt": "Password: ", "password": True}
    kc.input("hunter2-secret")
    request = kc.get_stdin_msg(timeout=10)
    assert request["content"] == {"prompt": "", "password": False}  # a later plain read shows again
    kc.input("visible")
    messages = collect(kc, msg_id)
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    assert stream_text(messages) == "got 14 characters\nvisible\n"
    assert "hunter2" not in json.dumps([m["content"] for m in messages])


def test_read_without_stdin_is_end_of_file(kc):
    reply, messages = execute(kc, 'read line; echo "status $?"', allow_stdin=False)
    assert stream_text(messages) == "status 1\n"


# ---------------------------------------------------------------- magics
def test_cell_magics(kc):
    assert run_ok(kc, "%%bash\necho via bash") == "via bash\n"
    reply, _ = execute(kc, "%%ruby\nputs 1")
    assert reply["ename"] == "UsageError" and "%%sh, %%bash, %%js, %%python, %%vm" in reply["evalue"]


def page_text(reply) -> str:
    pages = [p for p in reply.get("payload", []) if p.get("source") == "page"]
    assert len(pages) == 1, reply
    return pages[0]["data"]["text/plain"]


def test_magics_are_discoverable(kc):
    listing = run_ok(kc, "%lsmagic")
    for name in ("%%sh", "%%bash", "%%js", "%%python", "%%vm", "%limits", "%save", "%load", "%help", "%lsmagic",
                 "%magic"):
        assert name in listing, name
    reply, _ = execute(kc, "%magic")
    assert reply["status"] == "ok" and "cell magic" in page_text(reply) and "%%js" in page_text(reply)
    # an unknown magic's error names both kinds
    reply, _ = execute(kc, "%nope")
    assert reply["ename"] == "UsageError" and "%limits" in reply["evalue"] and "%%js" in reply["evalue"]
    # %help alone: an overview naming magics and commands
    reply, _ = execute(kc, "%help")
    overview = page_text(reply)
    assert "%%vm" in overview and " grep " in overview and "help NAME" in overview
    # %help vm: the magics first, then the shell command of that name
    reply, _ = execute(kc, "%help vm")
    text = page_text(reply)
    assert text.index("%%vm") < text.index("The shell command vm") and "%vm ARGS" in text
    reply, _ = execute(kc, "%help %%js")
    assert "QuickJS" in page_text(reply)
    reply, _ = execute(kc, "%help no-such-thing")
    assert reply["ename"] == "UsageError"


def test_limits_magic(kc):
    reply, messages = execute(kc, "%limits")
    result = [m for m in messages if m["msg_type"] == "execute_result"]
    table = result[0]["content"]["data"]["text/plain"]
    assert "wall_time" in table and "ceiling" in table
    assert run_ok(kc, "%limits commands=5000") == "commands = 5000\n"
    reply, _ = execute(kc, "%limits nonsense=1")
    assert reply["ename"] == "UsageError" and "unknown limit" in reply["evalue"]
    run_ok(kc, "%limits commands=10000000")


def test_cells_get_notebook_defaults_and_cannot_pass_the_ceilings():
    """Red team, item 4: limits were optional. Kernel cells start with 10 minutes of wall time;
    %limits raises only up to the admin's ceiling and applies VFS quotas or refuses them."""
    with start_kernel("sandbox") as (_, kc):  # a fresh kernel: the defaults, not what other tests set
        table = [m for m in execute(kc, "%limits")[1] if m["msg_type"] == "execute_result"][0]
        assert "wall_time" in table["content"]["data"]["text/plain"].split("\n")[1]
        assert "600 s" in table["content"]["data"]["text/plain"]
        reply, _ = execute(kc, "%limits wall_time=100000 string_bytes=100G wasm_memory_bytes=100G")
        assert reply["status"] == "error" and "above this kernel's ceiling" in reply["evalue"]
        assert "600 s" in [m for m in execute(kc, "%limits")[1] if m["msg_type"] == "execute_result"][0][
            "content"]["data"]["text/plain"]  # nothing changed
        run_ok(kc, "head -c 200000 /dev/zero > /workspace/quota.bin")
        reply, _ = execute(kc, "%limits vfs_bytes=100K")
        assert reply["status"] == "error" and "below what the VFS holds" in reply["evalue"]
        run_ok(kc, "%limits vfs_bytes=1M vfs_inodes=100000")
        reply, messages = execute(kc, "head -c 2000000 /dev/zero > /workspace/more.bin; echo x > /workspace/m2")
        err = stream_text(messages, "stderr")
        assert reply["status"] == "error" and err.count("No space left on device\n") == 2
        # one notice for the cell, at its end: which limit, and how to raise it
        assert err.endswith("\n[sandbox: no space left: the sandbox's files may take 1M (limit vfs_bytes; "
                            "raise it with %limits vfs_bytes=2M)]\n") and err.count("[sandbox:") == 1
        run_ok(kc, "rm -f /workspace/quota.bin /workspace/more.bin /workspace/m2")
        run_ok(kc, "%limits vfs_bytes=256M")


def test_admin_limits_from_the_kernelspec(jupyter_kernels, tmp_path):
    """install --limit/--max-limit are written into kernel.json and hold for every cell."""
    from sandbox_kernel.kernel.install import install

    install("sandbox-limited", prefix=str(Path(jupyter_kernels).parents[1]),
            policy_argv=["--limit", "wall_time=2", "--max-limit", "wall_time=5"])
    with start_kernel("sandbox-limited") as (_, kc2):
        reply, _ = execute(kc2, "sleep 3")
        assert reply["ename"] == "Timeout" and "(2 s;" in reply["evalue"]
        reply, _ = execute(kc2, "%limits wall_time=10")
        assert reply["status"] == "error" and "ceiling of 5 s" in reply["evalue"]
        assert run_ok(kc2, "%limits wall_time=4\nsleep 3; echo done") == "wall_time = 4 s\ndone\n"


def test_save_and_load_snapshot(kc):
    run_ok(kc, "mkdir -p snapdir && echo one > snapdir/f.txt")
    assert "saved" in run_ok(kc, "%save /tmp/snap.tar")
    run_ok(kc, "rm -r snapdir; echo other > new.txt")
    assert "restored" in run_ok(kc, "%load /tmp/snap.tar")
    assert run_ok(kc, "cat snapdir/f.txt; ls new.txt 2>&1 || true") .startswith("one\n")
    reply, _ = execute(kc, "%load /tmp/missing.tar")
    assert reply["status"] == "error" and "missing.tar" in reply["evalue"]


# ---------------------------------------------------------------- rich display
def test_display_command(kc):
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
    reply, messages = execute(kc, f"echo '{svg}' > pic.svg\ndisplay pic.svg")
    data = [m["content"]["data"] for m in messages if m["msg_type"] == "display_data"]
    assert data[0]["image/svg+xml"].replace(" />", "/>") == svg  # re-serialised by the sanitiser
    reply, messages = execute(kc, "display --id p --markdown 'one'\ndisplay --id p --update --markdown 'two'")
    kinds = [(m["msg_type"], m["content"]["transient"]["display_id"], m["content"]["data"]["text/html"])
             for m in messages if "display" in m["msg_type"]]
    assert kinds == \
        [("display_data", "sandbox-p", "<p>one</p>\n"), ("update_display_data", "sandbox-p", "<p>two</p>\n")]
    reply, messages = execute(kc, "display nothing-here.png")
    assert reply["status"] == "error"
    assert "display: nothing-here.png: No such file or directory" in stream_text(messages, "stderr")


# ---------------------------------------------------------------- completion, inspection
def complete(kc, code, cursor=None):
    msg_id = kc.complete(code, len(code) if cursor is None else cursor)
    return shell_reply(kc, msg_id)["content"]


def test_completion(kc):
    run_ok(kc, "mkdir -p /workspace/comp/sub && touch '/workspace/comp/my file.txt'\n"
               "my_function_for_completion() { :; }\nCOMPLETE_ME_VAR=1")
    assert complete(kc, "my_function_for")["matches"] == ["my_function_for_completion"]
    assert "$COMPLETE_ME_VAR" in complete(kc, "echo $COMPLETE")["matches"]
    assert complete(kc, "echo ${COMPLETE_ME")["matches"] == ["${COMPLETE_ME_VAR}"]
    reply = complete(kc, "cat comp/")
    assert sorted(reply["matches"]) == ["comp/my\\ file.txt", "comp/sub/"]
    assert reply["cursor_start"] == 4
    assert complete(kc, "cd comp/")["matches"] == ["comp/sub/"]
    run_ok(kc, "touch ~/tilde-completion.txt")
    assert complete(kc, "cat ~/tilde-com")["matches"] == ["~/tilde-completion.txt"]
    assert "--all" in complete(kc, "ls --al")["matches"]
    assert "-n" in complete(kc, "grep -")["matches"]
    matches = complete(kc, "echo hi | wc -l | ca")["matches"]
    assert "cat" in matches and "case" in matches and all(m.startswith("ca") for m in matches)
    assert complete(kc, "echo ca")["matches"] == []  # an argument, not a command: paths only


def test_inspection(kc):
    msg_id = kc.inspect("ls -l", 1)
    reply = shell_reply(kc, msg_id)["content"]
    assert reply["found"] and "Usage: ls" in reply["data"]["text/plain"]
    run_ok(kc, "INSPECT_ME='two words'")
    msg_id = kc.inspect("echo $INSPECT_ME", 8)
    reply = shell_reply(kc, msg_id)["content"]
    assert reply["found"] and "two words" in reply["data"]["text/plain"]
    msg_id = kc.inspect("no_such_thing_here", 3)
    assert shell_reply(kc, msg_id)["content"]["found"] is False


@pytest.mark.parametrize("code,status", [
    ("echo hi", "complete"),
    ("if true; then", "incomplete"),
    ("echo 'open", "incomplete"),
    ("cat <<EOF\nx", "incomplete"),
    ("echo a |", "incomplete"),
    ("echo a \\", "incomplete"),
    ("fi", "invalid"),
    ("%%nope\nx", "invalid"),
    ("%%js", "incomplete"),  # jupyter console: the JS lines follow
    ("%%vm\n", "incomplete"),
    ("%%js\nconst xs = [1, 2, 3]", "incomplete"),  # a cell magic's cell ends at a blank line
    ("%%js\nconst xs = [1, 2, 3]\n", "complete"),
    ("%%js\nconst xs = [1, 2, 3]\n  ", "complete"),
    ("%%js\nfor (const x of xs) {\n", "incomplete"),  # still open: the blank line does not end it
    ("%%vm\necho a\n", "complete"),
    ("%limits", "complete"),
    ("", "complete"),
])
def test_is_complete(kc, code, status):
    msg_id = kc.is_complete(code)
    assert shell_reply(kc, msg_id)["content"]["status"] == status


def test_history(kc):
    run_ok(kc, "echo history-marker-1")
    msg_id = kc.history(hist_access_type="tail", n=1, output=False, raw=True)
    hist = shell_reply(kc, msg_id)["content"]["history"]
    assert hist[-1][2] == "echo history-marker-1"
    msg_id = kc.history(hist_access_type="search", pattern="*history-marker*", output=False, raw=True)
    assert [h[2] for h in shell_reply(kc, msg_id)["content"]["history"]] == ["echo history-marker-1"]


def test_cell_history_is_bounded(monkeypatch):
    """A long-running kernel kept every cell's code and output forever (~360 B a cell)."""
    import asyncio

    from sandbox_kernel.kernel import kernel as kernel_module

    monkeypatch.setattr(kernel_module, "HISTORY_CELLS", 5)
    monkeypatch.setattr(kernel_module, "HISTORY_TEXT", 10)
    k = kernel_module.SandboxKernel()

    async def cells():
        for i in range(8):
            await k.do_execute(f"echo {i} #" + "x" * 50, silent=True)
            k.execution_count += 1
    asyncio.run(cells())
    assert [(n, text) for n, text, _ in k.cell_history] == [(n, f"echo {n} #xx") for n in range(3, 8)]


def test_vfs_comm_is_served(kc):
    comm_id = uuid.uuid4().hex
    kc.shell_channel.send(kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "sandbox.vfs", "data": {}}))
    kc.shell_channel.send(kc.session.msg("comm_msg", {"comm_id": comm_id,
                                                      "data": {"id": 1, "op": "list", "path": "/"}}))
    replies = []
    deadline = time.monotonic() + 10
    while len(replies) < 2 and time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.5)
        except Empty:
            continue
        if msg["msg_type"] == "comm_msg" and msg["content"]["comm_id"] == comm_id:
            replies.append(msg["content"]["data"])
    assert replies[0]["event"] == "open"
    names = [e["name"] for e in replies[1]["result"]["entries"]]
    assert "workspace" in names and "etc" in names
