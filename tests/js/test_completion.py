"""Tab and Shift-Tab in %%js cells, at the engine: what completes, and that answering runs none
of the cell's code (getters, Proxy traps), changes nothing, and never blocks or loses the context."""
from __future__ import annotations

import asyncio
import re
import time

from hypothesis import given, settings, strategies as st

from sandbox_kernel.engine import CancelToken
from sandbox_kernel.js import engine as js_engine
from sandbox_kernel.js.completion import MAX_CHAIN, MAX_EXPRESSION, completion_target, inspection_target

from .jshelp import _loop_for, run_js, run_js_async


def complete(sb, code, cursor=None):
    engine = sb.engine("js")
    return _loop_for(sb).run_until_complete(engine.complete(code, len(code) if cursor is None else cursor))


def inspect(sb, code, cursor=None):
    engine = sb.engine("js")
    return _loop_for(sb).run_until_complete(engine.inspect(code, len(code) if cursor is None else cursor))


def matches(sb, code, cursor=None):
    return complete(sb, code, cursor)[1]


# ---------------------------------------------------------------- what completes
def test_globals_keywords_and_builtin_members(shared_sandbox):
    sb = shared_sandbox
    assert complete(sb, "Math.fl") == (5, ["floor"])
    assert "Math" in matches(sb, "Mat")
    assert {"const", "continue", "console"} <= set(matches(sb, "con"))
    assert matches(sb, "x = Math.PI + Math.ma") == ["max"]
    assert matches(sb, '"s".toUp') == ["toUpperCase"]
    assert matches(sb, "`t`.padSt") == ["padStart"]
    assert {"fill", "filter"} <= set(matches(sb, "[1, 2].fil"))
    assert matches(sb, "(1.5).toFi") == []  # a parenthesised expression: not followed
    assert matches(sb, "1.5.toFi") == ["toFixed"]
    assert matches(sb, "/x/.tes") == ["test"]
    assert {"log", "error", "table"} <= set(matches(sb, "console."))
    assert {"readFileSync", "readdirSync"} <= set(matches(sb, "fs.read"))
    assert "__sandbox" not in matches(sb, "__")


def test_nothing_inside_strings_comments_calls_or_computed_members(shared_sandbox):
    sb = shared_sandbox
    for code in ['"Math.fl', "// Math.fl", "/* Math.fl", "`Math.fl", "f().", "a[0].", "this.",
                 "let Mat", "function Mat", "Math.floor(1).toF", "x => x.to"]:
        assert matches(sb, code) == [], code
    assert matches(sb, "`${Math.fl") == ["floor"]  # code inside a template literal


def test_user_objects_own_and_inherited_properties(sandbox):
    run_js(sandbox, "class Animal { speak() {} static create() {} }\n"
                    "class Dog extends Animal { bark() {} }\n"
                    "const rex = new Dog(); rex.name = 'Rex'; rex.nested = {deep: {deeper: 1}};\n"
                    "let counter = 3; var arr = [1, 2, 3]")
    names = matches(sandbox, "rex.")
    assert {"name", "nested", "bark", "speak", "constructor", "hasOwnProperty"} <= set(names)
    assert matches(sandbox, "rex.nested.deep.de") == ["deeper"]
    assert matches(sandbox, "rex?.nested?.de") == ["deep"]
    assert matches(sandbox, "Dog.cre") == ["create"]  # a static method, inherited from Animal
    assert matches(sandbox, "count") == ["counter"]
    assert {"push", "length"} <= set(matches(sandbox, "arr."))
    assert complete(sandbox, "\n\nrex.ba + 1", 8) == (6, ["bark"])


def test_a_getter_is_listed_but_never_run(sandbox):
    run_js(sandbox, "var runs = 0;\n"
                    "var obj = { plain: 1, get costly() { runs++; return { inner: 1 }; } };\n"
                    "Object.defineProperty(globalThis, 'lazy', { get() { runs++; return Math; }, configurable: true })")
    assert "costly" in matches(sandbox, "obj.")
    assert matches(sandbox, "obj.costly.") == []
    assert matches(sandbox, "obj.costly.in") == []
    assert "lazy" in matches(sandbox, "la")
    assert matches(sandbox, "lazy.fl") == []
    assert "accessor" in inspect(sandbox, "obj.costly")
    assert "[Getter]" in inspect(sandbox, "obj")
    assert run_js(sandbox, "runs").value == "0"


def test_proxies_are_never_trapped_and_the_context_stays(sandbox):
    run_js(sandbox, "var trapped = 0;\n"
                    "const loop = () => { trapped++; while (true) {} };\n"
                    "var p = new Proxy({}, { get: loop, has: loop, ownKeys: loop, getOwnPropertyDescriptor: loop,"
                    " getPrototypeOf: loop });\n"
                    "var behind = Object.create(p); behind.own = 1;\n"
                    "var holder = { p };\n"
                    "var fp = new Proxy(function f(a) {}, { get: loop, getOwnPropertyDescriptor: loop });\n"
                    "0")
    started = time.monotonic()
    assert matches(sandbox, "p.") == []
    assert matches(sandbox, "p.x.") == []
    assert matches(sandbox, "holder.p.") == []
    assert matches(sandbox, "behind.o") == ["own"]   # its own names; the walk stops at the Proxy
    assert matches(sandbox, "behind.x.") == []
    assert "Proxy" in inspect(sandbox, "p")
    assert "Proxy" in inspect(sandbox, "fp")
    assert "[Object]" in inspect(sandbox, "holder")
    assert time.monotonic() - started < 5
    assert run_js(sandbox, "trapped").value == "0"


def test_builtins_a_cell_replaced_are_not_called(sandbox):
    replaced = ("[Object, 'getOwnPropertyDescriptor'], [Object, 'getOwnPropertyNames'], [Object, 'getPrototypeOf'],"
                " [Object, 'hasOwn'], [Reflect, 'apply'], [String.prototype, 'startsWith'],"
                " [String.prototype, 'slice'], [Function.prototype, 'toString'], [Array, 'isArray'],"
                " [JSON, 'stringify'], [WeakSet.prototype, 'has'], [RegExp.prototype, 'exec']")
    run_js(sandbox, "var hits = 0; const hit = function () { hits++; throw new Error('called'); };\n"
                    "var o = { a: { b: 1 }, re: /x/g, get g() { return 1; } };\n"
                    f"for (const [owner, name] of [{replaced}]) owner[name] = hit;\n"
                    "for (const name of ['value', 'get', 'set', 'toJSON', '0', 'length'])"
                    " Object.defineProperty(Object.prototype, name, { get: hit, set: hit, configurable: true });\n"
                    "Array.prototype[Symbol.iterator] = hit;\n"
                    "Object.defineProperty(globalThis, 'globalThis', { get: hit, configurable: true }); 0")
    before = inspect(sandbox, "hits")  # (setting these up hit some of them already)
    assert matches(sandbox, "o.a.")[:1] == ["b"]
    assert "o" in matches(sandbox, "o")
    assert inspect(sandbox, "o").startswith("o: object Object {a: [Object], re: [Object], g: [Getter]")
    assert inspect(sandbox, "o.re") == "o.re: object RegExp /x/g"
    assert inspect(sandbox, "o.a.b") == "o.a.b: number 1"
    assert inspect(sandbox, "hits") == before  # (read this way: with such builtins no cell runs any more)


def test_a_long_answer_is_cut_off_by_the_deadline_and_the_context_lives_on(sandbox, monkeypatch):
    run_js(sandbox, "var big = {}; for (let i = 0; i < 200000; i++) big['k' + i] = i; var kept = 'yes'; 0")
    monkeypatch.setattr(js_engine, "INTROSPECT_DEADLINE", 0.001)
    started = time.monotonic()
    assert matches(sandbox, "big.zz") == []  # interrupted: walking 200000 names takes longer
    assert time.monotonic() - started < js_engine.INTROSPECT_WAIT
    monkeypatch.setattr(js_engine, "INTROSPECT_DEADLINE", 5.0)
    assert len(matches(sandbox, "big.k")) == js_engine.MAX_MATCHES
    assert run_js(sandbox, "kept + ' ' + Object.keys(big).length").value == "'yes 200000'"


def test_completion_changes_nothing_in_the_context(sandbox):
    run_js(sandbox, "var o = {a: 1}; 0")
    before = run_js(sandbox, "Object.getOwnPropertyNames(globalThis).sort().join()").value
    for code in ["Math.fl", "o.", "con", "\"x\".", "[].", "no.such.thing.", "Object.proto"]:
        complete(sandbox, code)
    for code in ["Math.floor", "o", "o.a", "JSON.stringify(", "fs.readFileSync"]:
        inspect(sandbox, code)
    assert run_js(sandbox, "Object.getOwnPropertyNames(globalThis).sort().join()").value == before


def test_completion_works_before_any_cell_and_not_while_one_runs(sandbox):
    assert matches(sandbox, "Math.fl") == ["floor"]  # makes the context
    loop = _loop_for(sandbox)
    cancel = CancelToken()
    engine = sandbox.engine("js")

    async def during_a_cell():
        cell = asyncio.ensure_future(run_js_async(sandbox, "var spin = true; while (spin) {}", cancel=cancel))
        while not engine._jobs:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        started = time.monotonic()
        answer = await engine.complete("Math.fl", 7), await engine.inspect("Math.floor", 5)
        waited = time.monotonic() - started
        cancel.set("interrupt")
        await cell
        return answer, waited

    (found, described), waited = loop.run_until_complete(during_a_cell())
    assert found[1] == [] and described is None and waited < 0.5
    assert matches(sandbox, "Math.fl") == ["floor"]


def test_inspection(sandbox):
    run_js(sandbox, "function add(a, b) {\n  return a + b;\n}\n"
                    "class Point { constructor(x, y) { this.x = x; this.y = y; } }\n"
                    "var pt = new Point(1, 2); var text = 'x'.repeat(5000); var big = 10n;\n"
                    "var m = new Map([[1, 2]]); var list = Array.from({length: 50}, (_, i) => i); 0")
    assert inspect(sandbox, "Math.floor") == "Math.floor: function floor(1 arg)\nfunction floor() {"
    assert inspect(sandbox, "add(1, ", 7) == "add: function add(2 args)\nfunction add(a, b) {"
    assert inspect(sandbox, "Math.floor(x)", 7).startswith("Math.floor: function floor")
    assert inspect(sandbox, "Point").startswith("Point: class Point(2 args)\nclass Point {")
    assert inspect(sandbox, "pt") == "pt: object Point {x: 1, y: 2}"
    assert inspect(sandbox, "pt.x") == "pt.x: number 1"
    assert inspect(sandbox, "big") == "big: bigint 10n"
    assert inspect(sandbox, "m") == "m: object Map(1)"
    assert inspect(sandbox, "list").startswith("list: object Array(50) [0, 1, 2,")
    described = inspect(sandbox, "text")
    assert described.startswith('text: string "xxx') and "(length 5000)" in described and len(described) < 300
    assert inspect(sandbox, "'abc'.toUpperCase").startswith("'abc'.toUpperCase: function toUpperCase")
    assert inspect(sandbox, "'abc'.length") is None  # the literal is not evaluated
    assert inspect(sandbox, "no_such_name") is None
    assert inspect(sandbox, "if") is None


# ---------------------------------------------------------------- the parser part, on anything
_pieces = st.sampled_from(["Math", ".", "?.", "fl", " ", "\n", "(", ")", "[", "]", "{", "}", "'", '"', "`",
                           "${", "//", "/*", "*/", "/", "1", "1.", "n", "\\", "$", "#", "this", "let", "a", "é"])


@settings(max_examples=400, deadline=None)
@given(code=st.one_of(st.text(max_size=80), st.lists(_pieces, max_size=40).map("".join)),
       cursor=st.integers(-5, 100))
def test_the_parser_takes_any_text_and_cursor(code, cursor):
    for parse in (completion_target, inspection_target):
        target = parse(code, cursor)
        if target is None:
            continue
        assert target.base in ("global", "string", "number", "bigint", "array", "regexp")
        assert len(target.chain) <= MAX_CHAIN and len(target.expression) <= MAX_EXPRESSION
        assert 0 <= target.start <= len(code)
        assert all(re.fullmatch(r"(?:[^\W\d]|\$)[\w$]*", part) for part in target.chain)
        if parse is completion_target:
            position = max(0, min(cursor, len(code)))
            assert code[target.start:position] == target.name


def test_the_parser_is_bounded_on_long_chains():
    assert completion_target("a." * 10_000 + "b", 20_001) is None
    target = completion_target("a." * 20 + "b", 41)
    assert target is not None and len(target.chain) == 20 and target.name == "b"
