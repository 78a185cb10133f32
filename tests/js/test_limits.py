"""Memory cap, wall time, interrupt from another thread, deep recursion, hard reset."""

from sandbox_kernel.engine import CancelToken
from sandbox_kernel.limits import Limits

from .jshelp import interrupt_when_printed, run_js


def test_memory_bomb_is_a_clear_error_and_the_context_survives(sandbox):
    run_js(sandbox, "let before = 'kept'")
    r = run_js(sandbox, "let hog = []; while (true) hog.push(new Array(100000).fill(1))",
               limits=Limits(wasm_memory_bytes=48 << 20))
    assert r.status == 1
    assert "out of memory" in r.error.evalue and "48M" in r.error.evalue
    assert run_js(sandbox, "hog = null; before").value == "'kept'"
    assert run_js(sandbox, "new Array(1e5).fill(0).length").value == "100000"


def test_infinite_loop_stops_at_the_wall_time_and_keeps_state(sandbox):
    run_js(sandbox, "let survivor = 'yes'")
    r = run_js(sandbox, "while (true) {}", limits=Limits(wall_time=0.4))
    assert r.status == 124 and r.error.ename == "Timeout"
    assert r.error.evalue == ("JS run exceeded the wall-time limit (0.4 s; limit wall_time; "
                              "raise it with %limits wall_time=0.8)")
    assert run_js(sandbox, "survivor").value == "'yes'"


def test_interrupt_from_another_thread(sandbox):
    run_js(sandbox, "let survivor = 1")
    token = CancelToken()
    r = run_js(sandbox, "let spins = 0; console.log('spinning'); while (true) { spins++ }", cancel=token,
               out=interrupt_when_printed(token))
    assert r.status == 130 and r.error.ename == "Interrupted"
    assert run_js(sandbox, "survivor + (spins > 0 ? 1 : 0)").value == "2"


def test_interrupt_cancels_pending_timers_with_a_notice(sandbox):
    token = CancelToken()
    r = run_js(sandbox, "setTimeout(() => console.log('never'), 5000); setInterval(() => {}, 10);"
                        " console.log('scheduled'); 'x'", cancel=token, out=interrupt_when_printed(token))
    assert r.status == 130
    assert "[js: 2 pending timers cancelled]" in r.err.text
    assert r.out.text == "scheduled\n"
    assert run_js(sandbox, "1").value == "1"


def test_interrupt_while_sleeping_in_await(sandbox):
    token = CancelToken()
    r = run_js(sandbox, "console.log('waiting'); await new Promise(r => setTimeout(r, 60000))", cancel=token,
               out=interrupt_when_printed(token))
    assert r.status == 130


def test_deep_recursion_is_a_range_error(sandbox):
    run_js(sandbox, "let survivor = 3")
    r = run_js(sandbox, "function down(n) { return n ? 1 + down(n - 1) : 0 }; down(1e6)")
    assert r.error.ename == "RangeError"
    assert run_js(sandbox, "down(2000) + survivor").value == "2003"
    r = run_js(sandbox, "function viaMap(n) { return n ? [n].map(x => viaMap(x - 1))[0] : 0 }; viaMap(1e6)")
    assert r.error.ename == "RangeError"
    assert run_js(sandbox, "survivor").value == "3"


def test_hard_stop_resets_the_context_and_says_so(sandbox, monkeypatch):
    from sandbox_kernel.js import runtime

    run_js(sandbox, "let lost = 1")
    # make the soft interrupt ineffective so the epoch trap has to stop the loop
    monkeypatch.setattr(runtime, "HARD_STOP_AFTER", 0.2)
    monkeypatch.setattr(runtime.JsInstance, "_set_interrupt", lambda self, on: None)
    token = CancelToken()
    r = run_js(sandbox, "console.log('looping'); while (true) {}", cancel=token, out=interrupt_when_printed(token))
    assert r.status == 130
    assert "JS state was reset" in r.err.text
    monkeypatch.undo()
    assert run_js(sandbox, "typeof lost").value == "'undefined'"
    assert run_js(sandbox, "1 + 1").value == "2"


def test_a_run_cancelled_before_it_starts_still_stops(sandbox):
    run_js(sandbox, "0")
    token = CancelToken()
    token.set("interrupt")
    r = run_js(sandbox, "while (true) {}", cancel=token)
    assert r.status == 130


def test_a_memory_limit_too_small_to_start_is_explained(sandbox):
    r = run_js(sandbox, "1", limits=Limits(wasm_memory_bytes=4 << 20))
    assert r.status == 1 and r.error.evalue == (
        "out of memory (the JS memory limit wasm_memory_bytes=4M is too small to start the engine; "
        "raise it with %limits wasm_memory_bytes=8M)")
    assert run_js(sandbox, "1 + 1").value == "2"


def test_a_full_vfs_quota_from_js_gets_the_notice(sandbox):
    sandbox.update_limits(sandbox.limits.replace(vfs_bytes=1 << 20), ["vfs_bytes"])
    r = run_js(sandbox, "require('fs').writeFileSync('/tmp/big', 'x'.repeat(2 << 20))")
    assert "ENOSPC" in r.error.evalue
    assert r.err.text == ("[sandbox: no space left: the sandbox's files may take 1M (limit vfs_bytes; "
                          "raise it with %limits vfs_bytes=2M)]\n")
