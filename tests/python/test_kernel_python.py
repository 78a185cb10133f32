"""%%python and python3 through the real kernel (jupyter_client), one kernel per module."""
import base64
import time

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from sandbox_kernel.client.vfs import VfsClient
from tests.support.kernelclient import (collect, execute, shell_reply, stream_contains, stream_text,
                                        wait_for_message)


def result_text(messages):
    found = [m for m in messages if m["msg_type"] == "execute_result"]
    return found[0]["content"]["data"]["text/plain"] if found else None


def test_globals_persist_and_the_last_value_is_the_result(kernel):
    _, kc = kernel
    reply, _ = execute(kc, "%%python\nn = 40\ndef add(a, b):\n    return a + b", timeout=120)
    assert reply["status"] == "ok"
    reply, messages = execute(kc, "%%python\nadd(n, 2)")
    assert reply["status"] == "ok" and result_text(messages) == "42"
    # a trailing semicolon hides the value, as in IPython; None shows nothing
    reply, messages = execute(kc, "%%python\nadd(n, 2);")
    assert result_text(messages) is None
    reply, messages = execute(kc, "%%python\nprint('x')\nNone")
    assert stream_text(messages) == "x\n" and result_text(messages) is None


def test_a_traceback_is_an_error_reply(kernel):
    _, kc = kernel
    reply, messages = execute(kc, "%%python\ndef f():\n    return 1 / 0\nf()")
    assert reply["status"] == "error" and reply["ename"] == "ZeroDivisionError"
    assert reply["evalue"] == "division by zero"
    errors = [m for m in messages if m["msg_type"] == "error"]
    assert len(errors) == 1
    text = "\n".join(errors[0]["content"]["traceback"])
    assert 'File "<cell' in text and "line 3, in f" in text and "<sandbox>" not in text
    reply, _ = execute(kc, "%%python\ndef (:")
    assert reply["status"] == "error" and reply["ename"] == "SyntaxError"


def test_an_error_stops_nbclient(kernel, jupyter_kernels):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%%python\nx = 1"),
                nbformat.v4.new_code_cell("%%python\nraise ValueError('stop here')"),
                nbformat.v4.new_code_cell("%%python\nprint('never')")]
    client = NotebookClient(nb, kernel_name="sandbox", timeout=300)
    with pytest.raises(CellExecutionError) as failed:
        client.execute()
    assert "stop here" in str(failed.value)
    assert nb.cells[2].outputs == []


def test_output_streams_while_the_cell_runs(kernel):
    _, kc = kernel
    with VfsClient(kc) as vfs:
        msg_id = kc.execute("%%python\nimport os, time\nprint('early')\n"
                            "while not os.path.exists('/workspace/saw-early'):\n    time.sleep(0.01)\n"
                            "print('late')")
        try:
            wait_for_message(kc, msg_id, stream_contains("early"), timeout=60)
        finally:
            vfs.write_text("/workspace/saw-early", "")
        seen = stream_text(collect(kc, msg_id))
    assert seen == "late\n"


def test_input_goes_through_the_notebook(kernel):
    _, kc = kernel
    msg_id = kc.execute("%%python\nname = input('name? ')\nprint('hello', name)", allow_stdin=True)
    request = kc.get_stdin_msg(timeout=30)
    assert request["msg_type"] == "input_request" and request["content"]["prompt"] == "name? "
    kc.input("Ada")
    messages = collect(kc, msg_id)
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    assert stream_text(messages) == "hello Ada\n"


def test_files_are_shared_live_with_the_shell(kernel):
    _, kc = kernel
    reply, _ = execute(kc, "mkdir -p /workspace/shared && cd /workspace/shared && echo 'from shell' > a.txt")
    assert reply["status"] == "ok"
    reply, messages = execute(kc, "%%python\nimport os\nprint(os.getcwd())\nprint(open('a.txt').read(), end='')\n"
                                  "open('b.txt', 'w').write('from python\\n')\nsorted(os.listdir('.'))")
    assert reply["status"] == "ok", stream_text(messages, "stderr")
    assert stream_text(messages) == "/workspace/shared\nfrom shell\n"
    assert result_text(messages) == "['a.txt', 'b.txt']"
    reply, messages = execute(kc, "cat b.txt")
    assert stream_text(messages) == "from python\n"


def test_reset_drops_the_globals(kernel):
    _, kc = kernel
    execute(kc, "%%python\nkept = 1")
    reply, messages = execute(kc, "%python reset")
    assert reply["status"] == "ok" and "reset" in stream_text(messages)
    reply, _ = execute(kc, "%%python\nkept")
    assert reply["status"] == "error" and reply["ename"] == "NameError"


def test_interrupt_stops_a_busy_loop_and_says_what_was_lost(kernel):
    km, kc = kernel
    execute(kc, "%%python\nkept = 'yes'")
    msg_id = kc.execute("%%python\nprint('looping', flush=True)\nwhile True:\n    pass", stop_on_error=False)
    wait_for_message(kc, msg_id, stream_contains("looping"), timeout=60)
    started = time.monotonic()
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=15)
    elapsed = time.monotonic() - started
    messages = collect(kc, msg_id)
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    assert elapsed < 2, elapsed
    assert "interpreter was restarted" in stream_text(messages, "stderr")
    reply, _ = execute(kc, "%%python\nkept")
    assert reply["status"] == "error" and reply["ename"] == "NameError"
    reply, messages = execute(kc, "%%python\n1 + 1")
    assert result_text(messages) == "2"


def test_interrupting_a_sleep_keeps_the_state(kernel):
    km, kc = kernel
    execute(kc, "%%python\nkept = 'still here'")
    msg_id = kc.execute("%%python\nimport time\nprint('sleeping', flush=True)\ntime.sleep(60)", stop_on_error=False)
    wait_for_message(kc, msg_id, stream_contains("sleeping"), timeout=60)
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=15)
    collect(kc, msg_id)
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    reply, messages = execute(kc, "%%python\nkept")
    assert result_text(messages) == "'still here'"


def test_wall_time_stops_a_loop(kernel):
    _, kc = kernel
    reply, _ = execute(kc, "%limits wall_time=1")
    reply, messages = execute(kc, "%%python\nwhile True:\n    pass", timeout=30)
    execute(kc, "%limits wall_time=600")
    assert reply["status"] == "error" and reply["ename"] == "Timeout" and "wall_time" in reply["evalue"]


def test_memory_limit_is_a_memory_error(kernel):
    _, kc = kernel
    execute(kc, "%limits python_memory_bytes=256M")
    try:
        reply, _ = execute(kc, "%%python\nblocks = []\nwhile True:\n    blocks.append(bytearray(16 << 20))", timeout=60)
        assert reply["status"] == "error" and reply["ename"] == "MemoryError"
        assert "python_memory_bytes" in reply["evalue"]
        reply, messages = execute(kc, "%%python\ndel blocks\nlen('still alive')")
        assert result_text(messages) == "11"
    finally:
        execute(kc, "%limits python_memory_bytes=1G")


def test_dataframe_is_an_html_table_and_figures_are_pngs(kernel):
    _, kc = kernel
    reply, messages = execute(kc, "%%python\nimport pandas as pd\npd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})",
                              timeout=120)
    assert reply["status"] == "ok", stream_text(messages, "stderr")
    data = [m for m in messages if m["msg_type"] == "execute_result"][0]["content"]["data"]
    assert "<table" in data["text/html"] and "<script" not in data["text/html"] and "a  b" in data["text/plain"]
    reply, messages = execute(kc, "%%python\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\n"
                                  "plt.title('inline')", timeout=120)
    assert reply["status"] == "ok", stream_text(messages, "stderr")
    shown = [m for m in messages if m["msg_type"] == "display_data"]
    assert len(shown) == 1
    png = base64.b64decode(shown[0]["content"]["data"]["image/png"])
    assert png.startswith(b"\x89PNG")
    # the figure was shown once and closed: the next cell shows nothing
    reply, messages = execute(kc, "%%python\n1")
    assert not [m for m in messages if m["msg_type"] == "display_data"]


def test_display_of_common_types(kernel):
    _, kc = kernel
    reply, messages = execute(kc, "%%python\nfrom IPython.display import HTML, Markdown\n"
                                  "display(HTML('<b>bold</b><script>alert(1)</script>'), Markdown('*md*'))\n"
                                  "display({'k': 1})")
    assert reply["status"] == "ok", stream_text(messages, "stderr")
    shown = [m["content"]["data"] for m in messages if m["msg_type"] == "display_data"]
    assert "<b>bold</b>" in shown[0]["text/html"] and "script" not in shown[0]["text/html"]
    assert "md" in shown[1].get("text/markdown", shown[1].get("text/html", ""))
    assert shown[2]["text/plain"] == "{'k': 1}"


def test_completion_and_inspection(kernel):
    _, kc = kernel
    execute(kc, "%%python\nimport json\nmy_value = [1, 2]\ndef my_function(alpha, beta=2):\n    'Adds.'\n")
    code = "%%python\nmy_"
    reply = kc.complete(code, len(code), reply=True, timeout=30)["content"]
    assert {"my_value", "my_function"} <= set(reply["matches"])
    code = "%%python\njson.du"
    reply = kc.complete(code, len(code), reply=True, timeout=30)["content"]
    assert "dumps" in reply["matches"] and reply["cursor_start"] == len(code) - 2
    code = "%%python\nmy_function(1, "
    reply = kc.inspect(code, len(code), reply=True, timeout=30)["content"]
    assert reply["found"] and "alpha, beta=2" in reply["data"]["text/plain"] and "Adds." in reply["data"]["text/plain"]


def test_python3_command_in_the_shell(kernel):
    _, kc = kernel
    script = ("cd /workspace && printf 'import sys\\nprint(sys.argv[1:], sys.stdin.read().upper(), end=\"\")\\n'"
              " > up.py && echo hi | python3 up.py a b")
    reply, messages = execute(kc, script, timeout=120)
    assert reply["status"] == "ok", stream_text(messages, "stderr")
    assert stream_text(messages) == "['a', 'b'] HI\n"
    reply, messages = execute(kc, "python3 -c 'import sys; sys.exit(3)'; echo status=$?")
    assert stream_text(messages) == "status=3\n"
    reply, messages = execute(kc, "echo '{\"b\": 1, \"a\": [2]}' | python3 -m json.tool --sort-keys | head -2")
    assert stream_text(messages) == '{\n    "a": [\n'
    reply, messages = execute(kc, "printf '#!/usr/bin/env python3\\nprint(6 * 7)\\n' > /workspace/s && "
                                  "chmod +x /workspace/s && /workspace/s && echo 'print(1 / 0)' | python3; echo $?")
    assert stream_text(messages) == "42\n1\n" and "ZeroDivisionError" in stream_text(messages, "stderr")
    reply, messages = execute(kc, "python3 /workspace/missing.py; echo $?")
    assert stream_text(messages) == "2\n" and "can't open file" in stream_text(messages, "stderr")


def test_pip_says_what_is_there(kernel):
    _, kc = kernel
    reply, messages = execute(kc, "pip install numpy requests; echo $?")
    out, err = stream_text(messages), stream_text(messages, "stderr")
    assert "Requirement already satisfied: numpy" in out and out.endswith("1\n")
    assert "cannot install requests" in err and "pip list" in err
    reply, messages = execute(kc, "pip list | grep -c -E '^(pandas|matplotlib|scipy) '")
    assert stream_text(messages) == "3\n"


def test_python_js_and_the_panel_see_each_others_files(kernel):
    _, kc = kernel
    with VfsClient(kc) as vfs:
        changes: list[dict] = []
        vfs.watch(changes.extend)
        reply, messages = execute(kc, "%%python\nopen('/workspace/from-py.json', 'w').write('{\"n\": 41}')")
        assert reply["status"] == "ok", stream_text(messages, "stderr")
        deadline = time.monotonic() + 20
        while "/workspace/from-py.json" not in {c["path"] for c in changes} and time.monotonic() < deadline:
            vfs.poll_events(0.1)
        assert "/workspace/from-py.json" in {c["path"] for c in changes}
    reply, messages = execute(kc, "%%js\nconst v = JSON.parse(require('fs').readFileSync("
                                  "'/workspace/from-py.json', 'utf8')).n + 1;\n"
                                  "require('fs').writeFileSync('/workspace/from-js.txt', String(v));\nv")
    assert result_text(messages) == "42"
    reply, messages = execute(kc, "%%python\nopen('/workspace/from-js.txt').read()")
    assert result_text(messages) == "'42'"
