"""%%js cells through Sandbox.run: values, persistence, streaming, async, errors, display."""
import time

from .jshelp import run_js


def test_value_is_node_style_inspect(shared_sandbox):
    sb = shared_sandbox
    assert run_js(sb, "1 + 1").value == "2"
    assert run_js(sb, "'it\\'s'").value == '"it\'s"'
    assert run_js(sb, "'abc'").value == "'abc'"
    assert run_js(sb, "({a: 1, b: [1, 2, {c: {d: {e: 1}}}], s: 'x'})").value == \
        "{ a: 1, b: [ 1, 2, { c: [Object] } ], s: 'x' }"
    assert run_js(sb, "new Map([['k', 1]])").value == "Map(1) { 'k' => 1 }"
    assert run_js(sb, "new Set([1, 2])").value == "Set(2) { 1, 2 }"
    assert run_js(sb, "10n ** 20n").value == "100000000000000000000n"
    assert run_js(sb, "[undefined, null, -0, NaN]").value == "[ undefined, null, -0, NaN ]"
    assert run_js(sb, "function foo() {}; foo").value == "[Function: foo]"
    assert run_js(sb, "class Bar {}; Bar").value == "[class Bar]"
    assert run_js(sb, "const o = {}; o.self = o; o").value == "<ref *1> { self: [Circular *1] }"
    assert run_js(sb, "undefined").value is None
    assert run_js(sb, "let quiet = 1").value is None
    long = run_js(sb, "Array.from({length: 30}, (_, i) => i * 1000)").value
    assert long.startswith("[\n") and "29000" in long


def test_declarations_persist_and_cells_can_be_rerun(shared_sandbox):
    sb = shared_sandbox
    for _ in range(2):  # re-running the same cells must work
        assert run_js(sb, "let counter = 41\nconst K = 'k'\nclass Point { constructor(x) { this.x = x } }\n"
                          "function inc() { return ++counter }").status == 0
        assert run_js(sb, "inc()").value == "42"
        assert run_js(sb, "new Point(3).x + K").value == "'3k'"
    assert run_js(sb, "var v = 1; let [a1, b1] = [1, 2]; const {z1} = {z1: 3}").status == 0
    assert run_js(sb, "v + a1 + b1 + z1").value == "7"
    assert run_js(sb, "let fresh = 1").status == 0
    assert run_js(sb, "let fresh; fresh").value is None  # a re-run `let x;` starts undefined again


def test_failed_initialiser_does_not_poison_the_name(shared_sandbox):
    sb = shared_sandbox
    r = run_js(sb, "let poisoned = (() => { throw new Error('boom') })()")
    assert r.status == 1 and r.error.ename == "Error" and r.error.evalue == "boom"
    assert run_js(sb, "let poisoned = 5; poisoned").value == "5"


def test_console_streams_while_the_cell_runs(sandbox):
    r = run_js(sandbox, "console.log('first'); await new Promise(r => setTimeout(r, 300)); "
                        "console.error('second'); console.info('third')")
    assert r.status == 0
    assert r.out.text == "first\nthird\n"
    assert r.err.text == "second\n"
    first_at = r.out.chunks[0][0]
    assert r.finished - first_at >= 0.25, "console.log output must arrive before the cell ends"


def test_console_helpers(shared_sandbox):
    r = run_js(shared_sandbox, "console.log('%s=%d %o', 'n', 42, [1]); console.assert(1 === 2, 'nope');"
                               "console.table([{a: 1, b: 'x'}, {a: 2}]); console.count(); console.count();"
                               "console.time('t'); console.timeEnd('t'); console.group('G'); console.log('in'); "
                               "console.groupEnd()")
    out = r.out.text
    assert out.startswith("n=42 [ 1, [length]: 1 ]\n") or out.startswith("n=42 [ 1 ]\n")
    assert "Assertion failed: nope" in r.err.text
    assert "│ (index) │ a │  b  │" in out and "│    0    │ 1 │ 'x' │" in out
    assert "default: 1\ndefault: 2\n" in out
    assert "t: " in out and "ms" in out
    assert "G\n  in\n" in out


def test_top_level_await_timers_and_microtasks(shared_sandbox):
    sb = shared_sandbox
    r = run_js(sb, "const order = []; queueMicrotask(() => order.push('micro'));"
                   "setTimeout(() => order.push('t20'), 20); setTimeout(() => order.push('t0'), 0);"
                   "Promise.resolve().then(() => order.push('then')); order.push('sync');"
                   "await new Promise(r => setTimeout(r, 60)); order")
    assert r.value == "[ 'sync', 'micro', 'then', 't0', 't20' ]"
    r = run_js(sb, "let ticks = 0; const h = setInterval(() => { if (++ticks === 3) clearInterval(h) }, 5); 'started'")
    assert r.value == "'started'"
    assert run_js(sb, "ticks").value == "3"  # the cell ran until its interval was cleared
    r = run_js(sb, "setTimeout(() => console.log('after the value'), 30); 'value'")
    assert r.value == "'value'" and r.out.text == "after the value\n"
    assert run_js(sb, "await (async () => { await null; return 7 })()").value == "7"
    r = run_js(sb, "const t = setTimeout(() => console.log('never'), 60000); t.unref(); clearTimeout(+t); typeof t.ref")
    assert r.value == "'function'" and r.out.text == ""
    t0 = time.monotonic()
    r = run_js(sb, "setTimeout(() => {}, 60000).unref(); setInterval(() => {}, 5).unref(); 'not kept alive'")
    assert r.value == "'not kept alive'" and time.monotonic() - t0 < 5
    assert run_js(sb, "new Promise(r => setTimeout(() => r('resolved'), 10))").value == "'resolved'"  # awaited
    r = run_js(sb, "Promise.reject(new Error('rejected value'))")
    assert r.status == 1 and r.error.evalue == "rejected value"


def test_overdue_timers_run_in_due_time_order(shared_sandbox):
    """A loop that is late (here a cell busy for 80 ms) runs the timers that are due by due time,
    then creation order, with promise jobs between callbacks, as node does (quickjs-libc ran
    them in creation order: t20 before t0)."""
    r = run_js(shared_sandbox, "const seen = [];"
                               "setTimeout(() => seen.push('t20'), 20); setTimeout(() => seen.push('t10'), 10);"
                               "setTimeout(() => { seen.push('t0'); Promise.resolve().then(() => seen.push('job')) },"
                               " 0);"
                               "setTimeout(() => seen.push('t10b'), 10);"
                               "const h = setInterval(() => { seen.push('i5'); clearInterval(h) }, 5);"
                               "const end = Date.now() + 80; while (Date.now() < end) {}"
                               "await new Promise(r => setTimeout(r, 30)); seen.join(' ')")
    assert r.value == "'t0 job i5 t10 t10b t20'"
    # clearing and refreshing keep the order: a refreshed timer goes after the others due then
    r = run_js(shared_sandbox, "const got = []; const a = setTimeout(() => got.push('a'), 5);"
                               "const b = setTimeout(() => got.push('b'), 5); clearTimeout(b);"
                               "setTimeout(() => got.push('c'), 5); a.refresh();"
                               "const stop = Date.now() + 40; while (Date.now() < stop) {}"
                               "await new Promise(r => setTimeout(r, 20)); got.join(' ')")
    assert r.value == "'c a'"
    # a cell that replaces performance cannot stop the timers
    assert run_js(shared_sandbox, "globalThis.performance = null; "
                                  "await new Promise(r => setTimeout(() => r('ok'), 5))").value == "'ok'"


def test_uncaught_errors_have_name_message_and_cell_stack(sandbox):
    r = run_js(sandbox, "function inner() {\n  missingFunction()\n}\ninner()")
    assert r.status == 1
    assert r.error.ename == "ReferenceError"
    assert r.error.evalue == "missingFunction is not defined"
    assert r.error.traceback[0] == "ReferenceError: missingFunction is not defined"
    assert any("inner" in line and ":2:" in line for line in r.error.traceback), r.error.traceback
    r = run_js(sandbox, "await Promise.reject(new RangeError('async failure'))")
    assert (r.error.ename, r.error.evalue) == ("RangeError", "async failure")
    r = run_js(sandbox, "require('fs').readFileSync('/nope')")
    assert r.error.evalue == "ENOENT: no such file or directory, open '/nope'"
    assert not any("<prelude>" in line for line in r.error.traceback), r.error.traceback
    r = run_js(sandbox, "throw 42")
    assert r.status == 1 and r.error.evalue == "42"
    r = run_js(sandbox, "setTimeout(() => { throw new Error('in a timer') }, 1)")
    assert r.status == 1 and r.error.evalue == "in a timer"
    assert run_js(sandbox, "'still alive'").value == "'still alive'"


def test_syntax_error_points_at_line_and_column(sandbox):
    r = run_js(sandbox, "let ok = 1\nlet bad = (1 +;\n")
    assert r.status == 1 and r.error.ename == "SyntaxError"
    assert any(":2:" in line for line in r.error.traceback), r.error.traceback


def test_display_functions(shared_sandbox):
    r = run_js(shared_sandbox, "display.html('<b>hi</b>'); display.markdown('# T'); display.svg('<svg/>');"
                               "display.png(new Uint8Array([137, 80, 78, 71])); display.json({a: [1]});"
                               "display({x: 1}); display.html('v2', {id: 'd1', update: true})")
    assert r.status == 0, r.error
    bundles = [d[0] for d in r.displays]
    assert bundles[0]["text/html"] == "<b>hi</b>"
    assert bundles[1]["text/markdown"] == "# T"
    assert bundles[2]["image/svg+xml"] == "<svg/>"
    assert bundles[3]["image/png"] == "iVBORw=="
    assert bundles[4]["application/json"] == {"a": [1]}
    assert bundles[5]["text/plain"] == "{ x: 1 }"
    assert r.displays[6][2:] == ("d1", True)


def test_display_without_a_frontend_is_ignored(sandbox):
    from .jshelp import run_js as run
    r = run(sandbox, "display.html('<i>x</i>'); 'ok'", display=False)
    assert r.value == "'ok'"


def test_process_object(sandbox):
    sandbox.fs.mkdir("/workspace/sub", exist_ok=True)
    r = run_js(sandbox, "[process.argv.length, typeof process.env, process.cwd(), process.platform]")
    assert r.value == "[ 1, 'object', '/workspace', 'linux' ]"
    r = run_js(sandbox, "process.exit(3); console.log('not reached')")
    assert r.status == 3 and r.error.ename == "ExitStatus" and r.out.text == ""
    assert run_js(sandbox, "process.exitCode = undefined; 'context kept'").value == "'context kept'"


def test_stdin_from_the_frontend(sandbox):
    r = run_js(sandbox, "const rl = require('readline').createInterface({input: process.stdin});"
                        "const got = []; for await (const line of rl) got.push(line); got",
               stdin_lines=["one", "two"])
    assert r.value == "[ 'one', 'two' ]"


def test_magic_reset_and_info(sandbox):
    run_js(sandbox, "let kept = 1")
    eng = sandbox.engine("js")
    assert "QuickJS" in eng.magic("")
    assert eng.magic("reset") == "JS state was reset"
    assert run_js(sandbox, "typeof kept").value == "'undefined'"


def test_second_cell_is_fast(shared_sandbox):
    run_js(shared_sandbox, "0")
    t = time.perf_counter()
    for _ in range(20):
        assert run_js(shared_sandbox, "1+1").value == "2"
    per_cell = (time.perf_counter() - t) / 20
    assert per_cell < 0.02, f"1+1 took {per_cell * 1000:.1f} ms"
