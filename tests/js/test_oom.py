"""Running out of the wasm memory limit: every kind of bomb ends in the same clear error, and
the next cell works (on the same context when the heap can be reclaimed, else on a fresh one,
said once on stderr)."""
import pytest

from sandbox_kernel.js import runtime
from sandbox_kernel.limits import Limits, format_size, parse_size

from .jshelp import run_js
from .test_commands import run_cmd

RESET = "JS state was reset after running out of memory"
NEARLY_FULL = "heap is still nearly full"

BOMBS = {
    "promise jobs": "for (let i = 0; i < 1e5; i++) Promise.resolve(i).then(x => x)",
    "promise jobs 1e6": "for (let i = 0; i < 1e6; i++) Promise.resolve(i).then(x => [x])",
    "array of small things": "let a = []; while (true) a.push(i => i, {x: 1})",
    "one huge array": "new Array(1e8).fill(0)",
    "huge string": "'x'.repeat(2e8).length",
    "many strings": "let parts = []; for (let i = 0; ; i++) parts.push('x'.repeat(1000) + i)",
    "object keys": "let o = {}; for (let i = 0; ; i++) o['k' + i] = {i}",
    "map growth": "let m = new Map(); for (let i = 0; ; i++) m.set(i, [i])",
    "json": "let j = [1]; while (true) j = JSON.parse(JSON.stringify([j, j, j]))",
    "recursion holding memory": "function f(n) { const a = new Array(1e4).fill(n); return f(n + 1) + a.length } f(0)",
    "typed arrays": "let t = []; while (true) t.push(new Uint8Array(1 << 20))",
    "functions": "let fns = []; for (let i = 0; ; i++) fns.push(new Function('return ' + i))",
    "awaited async": "await (async () => { const a = []; while (true) a.push({}) })()",
    "unhandled async": "(async () => { const a = []; while (true) a.push({}) })(); 'started'",
    "timer": "let th = []; setInterval(() => th.push(new Array(1e4).fill(1)), 0)",
    "promise chain": "let chain = []; function spin() { chain.push({a: [1, 2]}); "
                     "return Promise.resolve().then(spin) } spin()",
}


def assert_out_of_memory(r, limit="64M"):
    assert r.status == 1
    assert r.error.ename == "InternalError", r.error
    more = format_size(parse_size(limit) * 2)
    assert r.error.evalue == (f"out of memory (the JS memory limit is {limit}: wasm_memory_bytes; "
                              f"raise it with %limits wasm_memory_bytes={more})")


@pytest.mark.parametrize("code", BOMBS.values(), ids=BOMBS.keys())
def test_every_bomb_is_a_clear_error_and_the_next_cell_works(sandbox, code):
    run_js(sandbox, "let kept = 'yes'")
    r = run_js(sandbox, code)
    assert_out_of_memory(r)
    reset = RESET in r.err.text
    after = run_js(sandbox, "typeof kept + ' ' + [1, 2, 3].map(x => x * 2).join()")
    assert after.status == 0, after.error
    assert after.value == ("'undefined 2,4,6'" if reset else "'string 2,4,6'")
    assert RESET not in after.err.text  # said once
    assert run_js(sandbox, "Promise.resolve(5).then(x => x + 1)").value == "6"


def test_queued_promise_jobs_that_fill_the_heap_give_a_fresh_context(sandbox):
    run_js(sandbox, "let kept = 'yes'")
    r = run_js(sandbox, BOMBS["promise jobs"])
    assert_out_of_memory(r)
    assert r.err.text.count(RESET) == 1 and "globals are gone" in r.err.text
    for _ in range(3):
        again = run_js(sandbox, "typeof kept")
        assert again.value == "'undefined'" and again.err.text == ""
    assert run_js(sandbox, "new Array(1e6).fill(1).length").value == "1000000"


def test_globals_that_fill_the_heap_are_kept_so_they_can_be_dropped(sandbox):
    run_js(sandbox, "let kept = 'yes'")
    r = run_js(sandbox, BOMBS["map growth"])
    assert_out_of_memory(r)
    assert NEARLY_FULL in r.err.text and RESET not in r.err.text
    assert run_js(sandbox, "m.size > 1000 && kept").value == "'yes'"
    freed = run_js(sandbox, "m = null; kept")
    assert freed.value == "'yes'" and freed.err.text == ""
    big = run_js(sandbox, "new Array(1e6).fill(1).length")  # 8 MB: the heap is back
    assert big.value == "1000000" and big.err.text == ""


def test_a_bomb_whose_memory_dies_with_it_keeps_everything_quietly(sandbox):
    run_js(sandbox, "let kept = 'yes'")
    r = run_js(sandbox, BOMBS["recursion holding memory"])
    assert_out_of_memory(r)
    assert r.err.text == ""
    assert run_js(sandbox, "new Array(1e6).fill(1).length + kept").value == "'1000000yes'"


def test_a_second_bomb_on_a_nearly_full_heap_gives_a_fresh_context(sandbox):
    run_js(sandbox, "let kept = 'yes'")
    assert NEARLY_FULL in run_js(sandbox, BOMBS["map growth"]).err.text
    r = run_js(sandbox, "let m2 = new Map(); for (let i = 0; ; i++) m2.set(i, [i])")
    assert_out_of_memory(r)
    assert RESET in r.err.text
    assert run_js(sandbox, "typeof m + typeof kept").value == "'undefinedundefined'"


def test_an_interval_that_fills_the_heap_is_cancelled(sandbox):
    r = run_js(sandbox, BOMBS["timer"])
    assert_out_of_memory(r)
    assert "[js: 1 pending timer cancelled]" in r.err.text
    # a live interval would keep this run going until the wall time: it ends because none is left
    assert run_js(sandbox, "th = null; 'quiet'").value == "'quiet'"


def test_a_real_throw_null_stays_one_after_an_out_of_memory(sandbox):
    # QuickJS throws null when it cannot allocate its error; a cell may catch that itself
    r = run_js(sandbox, "let hold = []; let seen; try { for (;;) hold.push({}) } catch (e) { seen = e } "
                        "hold = null; String(seen)")
    assert r.value == "'null'"
    assert run_js(sandbox, "throw null").error.evalue == "null"  # a real `throw null` stays one


def test_a_smaller_limit_is_named(sandbox):
    r = run_js(sandbox, BOMBS["promise jobs"], limits=Limits(wasm_memory_bytes=24 << 20))
    assert_out_of_memory(r, "24M")
    assert run_js(sandbox, "1 + 1", limits=Limits(wasm_memory_bytes=24 << 20)).value == "2"


def test_a_context_that_cannot_run_code_after_the_bomb_is_replaced(sandbox, monkeypatch):
    run_js(sandbox, "let kept = 'yes'")
    monkeypatch.setattr(runtime.JsInstance, "_runs_code", lambda self: False)
    r = run_js(sandbox, BOMBS["map growth"])
    monkeypatch.undo()
    assert_out_of_memory(r)
    assert RESET in r.err.text
    assert run_js(sandbox, "typeof kept").value == "'undefined'"


def test_js_command_bomb(sandbox):
    out, err, status = run_cmd(sandbox, ["js", "-e", BOMBS["promise jobs"]])
    assert status == 1 and out == ""
    assert "InternalError: out of memory" in err
    assert err.endswith("\n(the JS memory limit is 64M: wasm_memory_bytes; "
                        "raise it with %limits wasm_memory_bytes=128M)\n")
    assert "Uncaught" not in err


def test_a_cell_too_big_to_pass_in_is_out_of_memory_and_keeps_the_context(sandbox):
    small = Limits(wasm_memory_bytes=16 << 20)
    run_js(sandbox, "let kept = 'yes'", limits=small)
    r = run_js(sandbox, "'" + "x" * (18 << 20) + "'.length", limits=small)
    assert_out_of_memory(r, "16M")
    assert run_js(sandbox, "kept", limits=small).value == "'yes'"
