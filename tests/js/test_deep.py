"""Deep recursion anywhere (QuickJS's C code, the parser, JSON, proxies, host calls that run JS)
stops with a catchable RangeError and keeps the context: never a trap (which resets it)."""
import sys

import pytest

from sandbox_kernel.limits import Limits

from .jshelp import run_js

# Each of these used to overflow the native (wasm) stack before QuickJS's own check: a
# STACK_OVERFLOW trap and "JS state was reset".
DEEP = {
    "JSON.parse array": "JSON.parse('['.repeat(1e6) + ']'.repeat(1e6))",
    "JSON.parse object": "JSON.parse('{\"a\":'.repeat(1e6) + '1' + '}'.repeat(1e6))",
    "JSON.parse reviver": "JSON.parse('['.repeat(1e6) + ']'.repeat(1e6), (k, v) => v)",
    "brackets": "eval('['.repeat(1e5) + ']'.repeat(1e5))",
    "parentheses": "eval('('.repeat(1e5) + '1' + ')'.repeat(1e5))",
    "calls": "eval('Math.abs('.repeat(1e5) + '1' + ')'.repeat(1e5))",
    "unary": "eval('!'.repeat(1e6) + '1')",
    "typeof": "eval('typeof '.repeat(1e6) + '1')",
    "await": "eval('(async () => {' + 'await '.repeat(1e6) + '1})')",
    "templates": "eval('`${'.repeat(1e5) + '1' + '}`'.repeat(1e5))",
    "ternaries": "eval('1?'.repeat(1e6) + '1' + ':1'.repeat(1e6))",
    "assignments": "eval('a='.repeat(1e6) + '1')",
    "yield": "eval('(function*(){' + 'yield '.repeat(1e6) + '1})')",
    "object literals": "eval('({a:'.repeat(1e5) + '1' + '})'.repeat(1e5))",
    "functions": "eval('(function(){'.repeat(1e5) + '})'.repeat(1e5))",
    "classes": "eval('(class extends '.repeat(1e5) + 'Object' + '{})'.repeat(1e5))",
    "blocks": "eval('{'.repeat(1e6) + '}'.repeat(1e6))",
    "try blocks": "eval('try{'.repeat(1e5) + '}finally{}'.repeat(1e5))",
    "new Function": "new Function('return ' + '('.repeat(1e5) + '1' + ')'.repeat(1e5))",
    "proxy has": "const h = {}; let p = {}; for (let i = 0; i < 3e5; i++) p = new Proxy(p, h); 'x' in p",
    "proxy setPrototypeOf": "const h = {}; let p = {}; for (let i = 0; i < 3e5; i++) p = new Proxy(p, h); "
                            "Object.setPrototypeOf(p, null)",
    "proxy get": "const h = {}; let p = {x: 1}; for (let i = 0; i < 3e5; i++) p = new Proxy(p, h); p.x",
    "require itself": "fs.writeFileSync('/tmp/self.js', 'delete require.cache[__filename]; "
                      "module.exports = require(__filename)');"
                      " require('/tmp/self.js')",
}


@pytest.fixture(scope="module")
def deep_sandbox(shared_sandbox):
    run_js(shared_sandbox, "globalThis.keep = 'kept'")
    return shared_sandbox


@pytest.mark.parametrize("code", DEEP.values(), ids=DEEP.keys())
def test_deep_recursion_is_a_catchable_range_error(deep_sandbox, code):
    r = run_js(deep_sandbox, f"let caught; try {{ {code} }} catch (e) {{ caught = e }}; "
                             f"[caught.name, caught.message].join(': ')")
    assert r.status == 0, (r.error, r.err.text)
    assert r.value == "'RangeError: Maximum call stack size exceeded'", r.value
    assert r.err.text == ""
    assert run_js(deep_sandbox, "keep").value == "'kept'"


def test_deep_json_stringify_is_interruptible(sandbox):
    # QuickJS's cycle check makes it quadratic in the depth (~25 s at 1e5): the wall time
    # has to stop it softly, or the epoch trap resets the context
    run_js(sandbox, "globalThis.keep = 'kept'")
    r = run_js(sandbox, "let o = []; for (let i = 0; i < 2e5; i++) o = [o]; JSON.stringify(o).length",
               limits=Limits(wall_time=1))
    assert r.status == 124 and "reset" not in r.err.text
    assert run_js(sandbox, "keep").value == "'kept'"
    same = run_js(sandbox, "[JSON.stringify({a: [1, {b: 2}], c: undefined, d: () => 1, e: new Date(0)}),"
                           " JSON.stringify([1, 2], null, 1), JSON.stringify({a: 1, b: 2}, ['a']),"
                           " JSON.stringify({toJSON() { return 5 }}), JSON.stringify({a: 1}, (k, v) => k ? v + 1 : v),"
                           " String(JSON.stringify(undefined)), JSON.stringify.name, "
                           "JSON.stringify.length].join(' | ')")
    assert same.value == ("'{\"a\":[1,{\"b\":2}],\"e\":\"1970-01-01T00:00:00.000Z\"} | [\\n 1,\\n 2\\n] | {\"a\":1} | "
                          "5 | {\"a\":2} | undefined | stringify | 3'")


def test_plain_recursion_is_still_deep(sandbox):
    r = run_js(sandbox, "function down(n) { return n ? 1 + down(n - 1) : 0 }; down(7000)")
    assert r.value == "7000"


def test_js_run_from_host_calls_nests_to_a_bound(sandbox):
    # formatting a required file's SyntaxError reads e.name; this getter requires another bad
    # file from there, so each level nests host frames inside host frames
    r = run_js(sandbox, """
        for (let i = 0; i < 40; i++) fs.writeFileSync(`/tmp/bad${i}.js`, 'this is ( not js');
        let depth = 0, deepest;
        const seen = new WeakSet();
        Object.defineProperty(SyntaxError.prototype, 'name', { configurable: true, get() {
          if (!seen.has(this)) {
            seen.add(this);
            const d = ++depth;
            try { require(`/tmp/bad${d}.js`) } catch (e) { if (e instanceof RangeError) deepest = e.message }
          }
          return 'SyntaxError';
        } });
        try { require('/tmp/bad0.js') } catch {}
        delete SyntaxError.prototype.name;
        deepest + ' at ' + depth""")
    assert r.status == 0, (r.error, r.err.text)
    assert r.value == "'Maximum call stack size exceeded (require nested 16 deep inside host calls) at 16'"
    assert run_js(sandbox, "1 + 1").value == "2"


def test_arguments_too_deep_for_the_host(sandbox):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default (the shell engine raises it for the process)
    try:
        r = run_js(sandbox, "try { display.mime({'application/json': JSON.parse('['.repeat(5000) "
                            "+ ']'.repeat(5000))}) }"
                            " catch (e) { e.name + ': ' + e.message }")
    finally:
        sys.setrecursionlimit(limit)
    assert r.value == "'RangeError: Maximum call stack size exceeded (in the host: decoding the arguments)'"
