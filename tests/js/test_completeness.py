"""JsEngine.is_complete: the verdict Jupyter's is_complete_request gets for a %%js cell."""
import pytest

from sandbox_kernel.js.engine import JsEngine

COMPLETE = [
    "", "1 + 1", "let x = 1;\nx", "f(a, [b, {c}])", "if (x) {\n  y()\n}",
    "'a(b' + \"c{d\"", "`plain`", "`a ${b} c`", "`a ${ {x: 1}.x } b`", "`${`${`deep`}`}`",
    "// trailing comment (", "/* block ( */ x", "x = /[(]/.test(s)", "x = /\\/(/g", "s.replace(/[{}]/g, '')",
    "a / b / c", "(a) / 2", "x[0] / y[1]", "i++ / 2", "f() / 2", "return /re(/",
    "typeof /x(/", "let r = a ? /(/ : /)/", "[1, 2].map(x => x / 2)", "'it\\'s'", '"say \\"hi\\""',
    "'line \\\ncontinued'", "`multi\nline`", "x /= 2; y = (1)", "#!/usr/bin/env node\nconsole.log(1)",
    "%%js\nconsole.log('{')", "a = 1.5 / 2", "const o = { 'k(': 1 }", "`\\${not a hole`",
    "if (a) {} /b/.test(c)", "class A { m() { return `}` } }", "x = y // (",
    "let s = '\\\\'; f(s)", "/* a */ /* b */", "await import('fs')",
    "while (x) /[(]/.exec(y)", "if /* c */ (a) /[{]/.test(b)", "x = a\n/b/g",
]
INCOMPLETE = [
    ("function f() {", "  "), ("if (x) {\n  y(", "    "), ("[1, 2,", "  "), ("f(", "  "),
    ("let s = `abc", ""), ("let s = `a ${b", ""), ("`${ {", "  "), ("/* unterminated", ""),
    ("x = '", ""), ('x = "abc', ""), ("({a: [", "  "), ("class A {\n  m() {", "    "),
    ("`${`inner", ""), ("for (let i = 0; i < 3; i++) {", "  "), ("f(a, /[)]/", "  "),
    ("obj = {\n  k: `v ${x}`,", "  "), ("%%js\nif (x) {", "  "), ("'\\", ""), ("for (;;) {", "  "),
    ("if (a) /[)]/.test(", "  "),
]
INVALID = ["}", "f())", "[1, 2)", "{ ( }", "x = 'a\nb'", ")", "`${ ] }`", "let a = [1]]"]


@pytest.mark.parametrize("code", COMPLETE)
def test_complete(code):
    assert JsEngine.is_complete(code) == ("complete", "")


@pytest.mark.parametrize("code,indent", INCOMPLETE)
def test_incomplete(code, indent):
    assert JsEngine.is_complete(code) == ("incomplete", indent)


@pytest.mark.parametrize("code", INVALID)
def test_invalid(code):
    assert JsEngine.is_complete(code)[0] == "invalid"


def test_a_huge_cell_is_judged_quickly():
    import time

    t = time.monotonic()
    assert JsEngine.is_complete("(\n" * 100_000) == ("incomplete", "  " * 100_000)
    assert JsEngine.is_complete("x = `${'a'}` + /b/.source;\n" * 20_000) == ("complete", "")
    assert time.monotonic() - t < 2


def test_nothing_is_evaluated():
    # a static method: no engine, no context, no side effect
    assert JsEngine.is_complete("require('fs').writeFileSync('/x', '1'); while (true) {") == ("incomplete", "  ")


def test_agrees_with_the_engine_on_real_cells(shared_sandbox):
    from .jshelp import run_js

    for code in ["let q = `a ${[1, 2].map(x => `<${x}>`).join('')} b`; q",
                 "const re = /[{(]/g; '({'.replace(re, '') + (6 / 3)",
                 "function g() {\n  return { a: [1, 2], b: '}' }\n}\ng().a.length"]:
        assert JsEngine.is_complete(code) == ("complete", "")
        assert run_js(shared_sandbox, code).status == 0
