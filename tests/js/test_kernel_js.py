"""%%js through the real kernel (jupyter_client): what only the kernel path can show."""
import time

from sandbox_kernel.client.vfs import VfsClient
from tests.support.kernelclient import collect, execute, shell_reply, stream_contains, stream_text, wait_for_message


def test_persistence_value_and_streaming(kernel):
    _, kc = kernel
    reply, _ = execute(kc, "%%js\nlet n = 40")
    assert reply["status"] == "ok"
    reply, messages = execute(kc, "%%js\nn + 2")
    results = [m for m in messages if m["msg_type"] == "execute_result"]
    assert results and results[0]["content"]["data"]["text/plain"] == "42"
    # streamed while the cell runs: the cell goes on only once the client has seen 'early'
    with VfsClient(kc) as vfs:
        msg_id = kc.execute("%%js\nconsole.log('early');\n"
                            "while (!fs.existsSync('/workspace/saw-early')) "
                            "await new Promise(r => setTimeout(r, 10));\n"
                            "console.log('late')")
        try:
            wait_for_message(kc, msg_id, stream_contains("early"), timeout=20)
        finally:
            vfs.write_text("/workspace/saw-early", "")
        seen = stream_text(collect(kc, msg_id))
    assert seen == "late\n"


def test_error_reply_and_display(kernel):
    _, kc = kernel
    reply, messages = execute(kc, "%%js\nfunction f() {\n  nope()\n}\nf()")
    assert reply["status"] == "error" and reply["ename"] == "ReferenceError"
    errors = [m for m in messages if m["msg_type"] == "error"]
    assert len(errors) == 1 and any(":3:" in line for line in errors[0]["content"]["traceback"])
    reply, messages = execute(kc, "%%js\ndisplay.html('<b>b</b>')")
    shown = [m for m in messages if m["msg_type"] == "display_data"]
    assert reply["status"] == "ok" and shown and shown[0]["content"]["data"]["text/html"] == "<b>b</b>"


def test_interrupt_stops_a_busy_loop_and_keeps_state(kernel):
    km, kc = kernel
    execute(kc, "%%js\nlet kept = 'yes'")
    msg_id = kc.execute("%%js\nconsole.log('looping'); while (true) {}", stop_on_error=False)
    wait_for_message(kc, msg_id, stream_contains("looping"))  # the loop runs: the interrupt cannot come too early
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, timeout=15)
    assert reply["content"]["status"] == "error"
    reply, messages = execute(kc, "%%js\nkept")
    assert [m for m in messages if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"] == "'yes'"


def test_js_in_a_shell_pipeline(kernel):
    _, kc = kernel
    reply, messages = execute(kc, "printf '%s\\n' 3 1 2 | js -e \"require('fs').readFileSync(0, "
                                  "'utf8').trim().split('\\n').forEach(x => console.log(x * 10))\" | sort -n")
    assert reply["status"] == "ok", stream_text(messages, "stderr")
    assert stream_text(messages) == "10\n20\n30\n"


def test_files_written_by_js_reach_watchers_while_the_cell_runs(kernel):
    _, kc = kernel
    with VfsClient(kc) as vfs:
        changes: list[dict] = []
        vfs.watch(changes.extend)
        # the cell writes two files (node fs and WASI), then waits until the client has seen
        # them and says so: without the events it would wait until its wall time
        msg_id = kc.execute("%%js\nfs.writeFileSync('/workspace/by-js.txt', 'node');\n"
                            "const std = await import('qjs:std'); const f = std.open('/workspace/by-wasi.txt', 'w');"
                            " f.puts('wasi'); f.close();\n"
                            "while (!fs.existsSync('/workspace/seen')) await new Promise(r => setTimeout(r, 10));\n"
                            "'released'")
        deadline = time.monotonic() + 20
        wanted = {"/workspace/by-js.txt", "/workspace/by-wasi.txt"}
        while not wanted <= {c["path"] for c in changes} and time.monotonic() < deadline:
            vfs.poll_events(0.1)
        seen = {c["path"] for c in changes}
        vfs.write_text("/workspace/seen", "")  # ends the cell either way
        reply = shell_reply(kc, msg_id)
    assert wanted <= seen, changes
    assert reply["content"]["status"] == "ok"


def _complete(kc, code, cursor=None):
    return shell_reply(kc, kc.complete(code, len(code) if cursor is None else cursor))["content"]


def _inspect(kc, code, cursor=None):
    return shell_reply(kc, kc.inspect(code, len(code) if cursor is None else cursor))["content"]


def test_completion_and_inspection_of_js_cells(kernel):
    _, kc = kernel
    reply, _ = execute(kc, "%%js\nvar gets = 0;\n"
                           "class Base { inherited() {} }\nclass Thing extends Base { method(a, b) {} }\n"
                           "var thing = new Thing(); thing.own = 1;\n"
                           "Object.defineProperty(thing, 'counted', { get() { gets++; return { x: 1 }; },"
                           " enumerable: true });\n"
                           "const spin = () => { while (true) {} };\n"
                           "var trap = new Proxy({}, { get: spin, ownKeys: spin, getOwnPropertyDescriptor: spin,"
                           " getPrototypeOf: spin });\n"
                           "var loopy = { get forever() { spin(); } };\n0")
    assert reply["status"] == "ok"
    reply = _complete(kc, "%%js\nMath.fl")
    assert reply["matches"] == ["floor"] and (reply["cursor_start"], reply["cursor_end"]) == (10, 12)
    assert "Math" in _complete(kc, "%%js\nMa")["matches"] and "thing" in _complete(kc, "%%js\nthi")["matches"]
    assert {"own", "counted", "method", "inherited", "hasOwnProperty"} <= set(_complete(kc, "%%js\nthing.")["matches"])
    code = "%%js\nconst n = thing.me + 1"
    reply = _complete(kc, code, code.index(" + 1"))
    assert reply["matches"] == ["method"] and reply["cursor_start"] == code.index("me + 1")
    started = time.monotonic()
    assert _complete(kc, "%%js\nthing.counted.")["matches"] == []
    assert _complete(kc, "%%js\ntrap.")["matches"] == []
    assert _complete(kc, "%%js\nloopy.forever.")["matches"] == []
    assert "forever" in _complete(kc, "%%js\nloopy.")["matches"]
    assert time.monotonic() - started < 10
    reply = _inspect(kc, "%%js\nMath.floor")
    assert reply["found"] and reply["data"]["text/plain"].startswith("Math.floor: function floor(1 arg)")
    reply = _inspect(kc, "%%js\nthing.method(1, ")
    assert reply["data"]["text/plain"] == "thing.method: function method(2 args)\nmethod(a, b) {}"
    assert "Proxy" in _inspect(kc, "%%js\ntrap")["data"]["text/plain"]
    assert _inspect(kc, "%%js\nno_such_name")["found"] is False
    assert _complete(kc, "%%j")["matches"] == ["%%js"]
    reply, messages = execute(kc, "%%js\ngets")  # no getter ran, no trap: the context is as it was
    assert [m for m in messages if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"] == "0"
