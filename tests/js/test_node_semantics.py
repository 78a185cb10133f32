"""Two node behaviours the REPL rewriting and the pumped event loop used to lose: unhandled
promise rejections end the run, and a top-level `const` stays constant in later cells."""
from sandbox_kernel.js.transform import prepare_cell

from .jshelp import run_js
from .test_commands import run_cmd

NODE_REASON = ("This error originated either by throwing inside of an async function without a catch "
               "block, or by rejecting a promise which was not handled with .catch(). The promise "
               'rejected with the reason "{}".')


# ---------------------------------------------------------------- unhandled rejections
def test_unhandled_error_rejection_ends_the_cell_like_an_uncaught_exception(sandbox):
    r = run_js(sandbox, "console.log('before')\nPromise.reject(new RangeError('nobody listens')); 5")
    assert r.status == 1 and r.value is None
    assert (r.error.ename, r.error.evalue) == ("RangeError", "nobody listens")
    assert r.error.traceback[0] == "RangeError: nobody listens"
    assert any("<cell" in line and ":2:" in line for line in r.error.traceback), r.error.traceback
    assert r.out.text == "before\n"
    r = run_js(sandbox, "async function fails() { throw new TypeError('async') }\nfails(); 1")
    assert (r.status, r.error.ename, r.error.evalue) == (1, "TypeError", "async")
    assert any("fails" in line for line in r.error.traceback), r.error.traceback
    assert run_js(sandbox, "'context survives'").value == "'context survives'"


def test_non_error_reasons_are_wrapped_as_node_does(shared_sandbox):
    for code, shown in [("1", "1"), ("'text'", "text"), ("undefined", "undefined"), ("{a: 1}", "#<Object>"),
                        ("[1, 2]", "[object Array]"), ("new (class Foo {})", "#<Foo>"),
                        ("Object.create(null)", "[object Object]"), ("new Map()", "#<Map>")]:
        r = run_js(shared_sandbox, f"Promise.reject({code}); 0")
        assert r.status == 1, code
        assert r.error.ename == "UnhandledPromiseRejection", code
        assert r.error.evalue == NODE_REASON.format(shown), code


def test_rejections_handled_before_the_loop_drains_are_not_reported(shared_sandbox):
    sb = shared_sandbox
    r = run_js(sb, "const p = Promise.reject(1); await null; p.catch(() => {}); 'handled later'")
    assert (r.status, r.value) == (0, "'handled later'")
    r = run_js(sb, "const q = Promise.reject(2); setTimeout(() => q.catch(() => {}), 20); 'in a timer'")
    assert (r.status, r.value) == (0, "'in a timer'")
    r = run_js(sb, "Promise.all([Promise.reject(3), 1]).catch(e => console.log('caught', e));"
                   "try { await (async () => { throw new Error('awaited') })() } catch (e) { console.log(e.message) }")
    assert r.status == 0 and sorted(r.out.text.splitlines()) == ["awaited", "caught 3"]
    # the derived promise of a `then` without a rejection handler is itself unhandled
    r = run_js(sb, "Promise.reject(new Error('through then')).then(() => {}); 0")
    assert (r.status, r.error.evalue) == (1, "through then")


def test_rejection_after_the_cell_body_is_reported_when_the_loop_drains(sandbox):
    r = run_js(sandbox, "setTimeout(() => Promise.reject(new Error('late')), 20); 'body done'")
    assert (r.status, r.error.ename, r.error.evalue) == (1, "Error", "late")


def test_a_rejection_left_by_a_failed_cell_can_be_handled_later(sandbox):
    r = run_js(sandbox, "globalThis.kept = Promise.reject(new Error('kept')); 0")
    assert r.status == 1 and r.error.evalue == "kept"
    r = run_js(sandbox, "await kept.catch(e => 'recovered ' + e.message)")
    assert (r.status, r.value) == (0, "'recovered kept'")


def test_unhandled_rejection_listeners_take_the_rejection(sandbox):
    r = run_js(sandbox, "process.on('unhandledRejection', (reason, p) => console.log('listener', reason, "
                        "p instanceof Promise));"
                        "Promise.reject(7); 'ok'")
    assert (r.status, r.value, r.out.text) == (0, "'ok'", "listener 7 true\n")
    r = run_js(sandbox, "process.removeAllListeners('unhandledRejection');"
                        "process.on('unhandledRejection', () => { throw new Error('from the listener') }); "
                        "Promise.reject(8); 0")
    assert (r.status, r.error.evalue) == (1, "from the listener")
    run_js(sandbox, "process.removeAllListeners('unhandledRejection')")
    assert run_js(sandbox, "Promise.reject(9); 0").status == 1


def test_node_command_fails_on_an_unhandled_rejection(shared_sandbox):
    out, err, status = run_cmd(shared_sandbox, ["node", "-e", "Promise.reject(new Error('x')); 0"])
    assert status == 1 and err.startswith("Error: x\n    at ") and out == ""
    out, err, status = run_cmd(shared_sandbox, ["node", "-e", "Promise.reject(1); 0"])
    assert status == 1
    assert err == "[UnhandledPromiseRejection: " + NODE_REASON.format(1) + "] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n"
    out, err, status = run_cmd(shared_sandbox, ["node", "-e", "Promise.reject(1).catch(e => console.log('caught', e))"])
    assert (out, err, status) == ("caught 1\n", "", 0)


# ---------------------------------------------------------------- top-level const
def test_top_level_const_cannot_be_reassigned_from_a_later_cell(sandbox):
    assert run_js(sandbox, "const answer = 42").status == 0
    for code in ("answer = 1", "answer += 1", "answer++", "(() => { answer = 2 })()"):
        r = run_js(sandbox, code)
        assert r.status == 1, code
        assert (r.error.ename, r.error.evalue) == ("TypeError", "Assignment to constant variable."), code
        assert not any("<prelude>" in line for line in r.error.traceback), r.error.traceback
    assert run_js(sandbox, "answer").value == "42"


def test_const_cell_can_be_rerun_and_redeclared(sandbox):
    for value in ("1", "2"):  # re-running the declaration keeps working
        assert run_js(sandbox, f"const K = {value}; K").value == value
        assert run_js(sandbox, "K = 3").error.ename == "TypeError"
    assert run_js(sandbox, "let K = 4").status == 0  # declared again as a variable
    assert run_js(sandbox, "K = 5; K").value == "5"
    assert run_js(sandbox, "const K = 6").status == 0
    assert run_js(sandbox, "K = 7").error.evalue == "Assignment to constant variable."
    # a failed initialiser still does not poison the name
    assert run_js(sandbox, "const bad = (() => { throw new Error('boom') })()").error.evalue == "boom"
    assert run_js(sandbox, "const bad = 8; bad").value == "8"


def test_destructured_consts_and_same_cell_reassignment(sandbox):
    assert run_js(sandbox, "const {a, b: [c], ...rest} = {a: 1, b: [2], d: 3}, e = 4; a + c + rest.d + e").value == "10"
    for name in ("a", "c", "rest", "e"):
        assert run_js(sandbox, f"{name} = 0").error.ename == "TypeError", name
    r = run_js(sandbox, "const same = 1\nsame = 2")
    assert r.error.evalue == "Assignment to constant variable."
    assert any(":2:" in line for line in r.error.traceback), r.error.traceback


def test_node_command_const_is_constant(shared_sandbox):
    out, err, status = run_cmd(shared_sandbox, ["node", "-e", "const x = 1; x = 2"])
    assert status == 1 and err.startswith("TypeError: Assignment to constant variable.\n    at <eval> ([eval]:1:")


def test_prepare_cell_lists_top_level_declarations():
    cell = prepare_cell("const a = 1, b = f(x, y), {c, d: [e], ...g} = o\nlet h, i\nvar j = 1\n"
                        "class K {}\nimport l, {m as n} from 'mod'\nfunction f() { const inner = 1 }\n"
                        "for (const loop of []) {}\nconst re = /,/g, t = `${a, b}`")
    assert cell.consts == ["a", "b", "c", "e", "g", "re", "t"]
    assert cell.declared == ["h", "i", "j", "K", "l", "n"]
    assert cell.source.count("\n") == 7


# ---------------------------------------------------------------- combinators with late timers
LATE_TIMERS = """\
const rej = (ms, why) => new Promise((_, r) => setTimeout(() => r(new Error(why)), ms));
const res = (ms, v) => new Promise(r => setTimeout(() => r(v), ms));
const order = [];
for (const ms of [20, 0, 10]) setTimeout(() => order.push(ms), ms);
const p1 = Promise.race([rej(20, 'r20'), rej(0, 'r0'), rej(10, 'r10')]);
const p2 = Promise.all([res(5, 'a'), rej(20, 'a20'), rej(10, 'a10')]);
const p3 = Promise.allSettled([rej(20, 's20'), res(0, 's0'), rej(10, 's10')]);
const p4 = Promise.any([rej(0, 'y0'), res(20, 'y20'), res(10, 'y10')]);
const t = Date.now(); while (Date.now() - t < 60) {}
p1.catch(e => console.log('race', e.message));
p2.catch(e => console.log('all', e.message));
p3.then(v => console.log('allSettled', JSON.stringify(v.map(x => x.status + ':' + (x.value || x.reason.message)))));
p4.then(v => console.log('any', v));
setTimeout(() => console.log('order', order.join()), 50);
"""
# what node 20 prints: timers all overdue after the busy loop still fire in deadline order,
# so each combinator settles with the earliest timer's reason (issue #33)
LATE_TIMERS_OUT = ("race r0\nall a10\nany y10\n"
                   'allSettled ["rejected:s20","fulfilled:s0","rejected:s10"]\norder 0,10,20\n')


def test_promise_combinators_settle_by_deadline_when_timers_are_late(sandbox):
    r = run_js(sandbox, LATE_TIMERS + "await new Promise(r => setTimeout(r, 80)); 'done'")
    assert (r.status, r.out.text) == (0, LATE_TIMERS_OUT)
    sandbox.fs.write_bytes("/workspace/late.js", LATE_TIMERS.encode())
    assert run_cmd(sandbox, ["js", "late.js"]) == (LATE_TIMERS_OUT, "", 0)
