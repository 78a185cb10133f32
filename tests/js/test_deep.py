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


DEEP_STRINGIFY = {
    "no replacer": "JSON.stringify(deep)",
    "replacer function": "JSON.stringify(deep, (k, v) => v)",
    "property list": "JSON.stringify(deepObject, ['a'])",
    "display.json": "display.json(deep)",
    "display.mime arguments": "display.mime({'application/json': deep})",
}


@pytest.mark.parametrize("code", DEEP_STRINGIFY.values(), ids=DEEP_STRINGIFY.keys())
def test_deep_json_stringify_is_a_range_error(deep_sandbox, code):
    # Red team: a 200,000-deep value ran to the wall time (QuickJS's cycle check is quadratic
    # in the depth: ~100 s here, in native code) and reset the JS state. Now a RangeError at
    # 10,000 levels, long before the wall time given here.
    r = run_js(deep_sandbox, "let deep = [], deepObject = {}; "
                             "for (let i = 0; i < 2e5; i++) { deep = [deep]; deepObject = {a: deepObject} }; "
                             f"let caught; try {{ {code} }} catch (e) {{ caught = e }}; "
                             "[caught.name, caught.message].join(': ')", limits=Limits(wall_time=60))
    assert r.status == 0, (r.error, r.err.text)
    assert r.value == "'RangeError: Maximum call stack size exceeded'", r.value
    assert "reset" not in r.err.text
    assert run_js(deep_sandbox, "keep").value == "'kept'"


def test_json_stringify_keeps_its_meaning(sandbox):
    r = run_js(sandbox, "let o = []; for (let i = 0; i < 9999; i++) o = [o]; JSON.stringify(o).length")
    assert r.value == "20000"  # 10,000 levels: as deep as the bound allows
    same = run_js(sandbox, "[JSON.stringify({a: [1, {b: 2}], c: undefined, d: () => 1, e: new Date(0)}),"
                           " JSON.stringify([1, 2], null, 1), JSON.stringify({a: 1, b: 2}, ['a']),"
                           " JSON.stringify({toJSON() { return 5 }}), JSON.stringify({a: 1}, (k, v) => k ? v + 1 : v),"
                           " String(JSON.stringify(undefined)), JSON.stringify.name, "
                           "JSON.stringify.length].join(' | ')")
    assert same.value == ("'{\"a\":[1,{\"b\":2}],\"e\":\"1970-01-01T00:00:00.000Z\"} | [\\n 1,\\n 2\\n] | {\"a\":1} | "
                          "5 | {\"a\":2} | undefined | stringify | 3'")
    # a property list: the list's order (integer keys too), nested objects, not arrays, boxed
    # values unwrapped, toJSON first, '__proto__' a plain key, shared values are not cycles
    listed = run_js(sandbox, "let s = {x: 1, y: 2}; "
                             "[JSON.stringify({b: 1, a: 2, c: {a: 1, b: [{a: 3, z: 4}]}}, ['a', 'b']),"
                             " JSON.stringify({1: 'x', b: 2}, ['b', 1, 'b']), JSON.stringify({__proto__: [], a: 1}, "
                             "['__proto__', 'a']), JSON.stringify([new Number(3), new String('s')], ['x']),"
                             " JSON.stringify({a: {toJSON() { return {a: 5, b: 6} }}}, [new String('a')]),"
                             " JSON.stringify({b: s, c: {b: s}}, ['b', 'c', 'x'])].join(' | ')")
    assert listed.value == ("'{\"a\":2,\"b\":1} | {\"b\":2,\"1\":\"x\"} | {\"__proto__\":[],\"a\":1} | [3,\"s\"] | "
                            "{\"a\":{\"a\":5}} | {\"b\":{\"x\":1},\"c\":{\"b\":{\"x\":1}}}'"), listed.value
    cycles = run_js(sandbox, "let a = {}; a.b = {c: a}; [undefined, ['b', 'c'], (k, v) => v].map(r => { "
                             "try { return JSON.stringify(a, r) } catch (e) { return e.name } }).join(' ')")
    assert cycles.value == "'TypeError TypeError TypeError'"


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
