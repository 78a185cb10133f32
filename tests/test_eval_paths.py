"""The evaluator's two paths give the same output: every differential case (tests/*/cases) runs
with the compiled runners (fastpath.py) and with them switched off (SANDBOX_KERNEL_GENERIC_ONLY,
the generic coroutine handlers only), and stdout, stderr and status must be identical. The Oils
suite does the same in tests/test_oils_spec.py. Which path is right is for test_differential
(real bash) to say; this one finds where they part."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import Limits
from sandbox_kernel.shell.eval import fastpath, interp  # noqa: F401 (interp registers the handlers)
from sandbox_kernel.shell.syntax.parser import Parser
from tests.support.difftest import CASE_DIRS, case_files, run_sandbox, stdin_of

CASES = case_files(*CASE_DIRS)
#: a random script's bounds (a function may call itself, a loop may reset its counter)
FUZZ_LIMITS = Limits(wall_time=1, commands=5000, function_depth=40, stdout_bytes=20000, stderr_bytes=20000)


#: `time`'s figures (real 0m0.004s): measured, so never the same twice
TIME_FIGURE = re.compile(rb"\d+m\d+\.\d+s")


def _run(monkeypatch, text: str, generic: bool) -> tuple[bytes, bytes, int]:
    monkeypatch.setattr(fastpath, "GENERIC_ONLY", generic)
    outcome = run_sandbox(text, stdin_of(text))
    return outcome.stdout, TIME_FIGURE.sub(b"T", outcome.stderr), outcome.status


@pytest.mark.parametrize("case", CASES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CASES])
def test_generic_path_matches_compiled_path(case, monkeypatch):
    text = case.read_text()
    compiled = _run(monkeypatch, text, False)
    generic = _run(monkeypatch, text, True)
    assert generic == compiled, f"{case}\n--- compiled\n{compiled!r}\n--- generic\n{generic!r}"


def test_the_switch_compiles_no_word_and_no_simple_command(monkeypatch):
    node = Parser("x=$((i+1)); echo $x; [[ $x ]]").parse_program()
    assign, echo, test = (item[0] for item in node.items)
    word = echo.words[1]
    assert fastpath.compile_fields(word) is not None
    assert fastpath._compile_cond(test.expr) is not None
    monkeypatch.setattr(fastpath, "GENERIC_ONLY", True)
    assert fastpath.compile_fields(word) is None and fastpath.compile_string(assign.assigns[0].value) is None
    assert fastpath._compile_cond(test.expr) is None


@pytest.mark.parametrize("setup", [
    "",
    # namerefs are followed where a variable is read or written, not by a change of path
    "declare -n r=z; ",
    "f() { local -n r=$1; r=1; }; f z; ",
    "declare -n r=z; g() { local -n q=y; }; r=5 eval g; ",
    # set -x and a DEBUG trap are branches of the runner while they are on, nothing after
    "set -x; set +x; ",
    "trap : DEBUG; trap - DEBUG; ",
    "set -x; ",
    "trap : DEBUG; ",
])
def test_unrelated_state_sends_no_word_to_the_expander(monkeypatch, setup):
    generic = []
    expand_rest = fastpath._expand_rest

    def spy(sh, node, fds, *rest):
        if node.words and node.words[0].fast == "marker":
            generic.append(node)
        return expand_rest(sh, node, fds, *rest)
    monkeypatch.setattr(fastpath, "_expand_rest", spy)
    out, err, status = run_script(setup + "marker() { :; }; for i in 1 2 3; do marker $i; done; echo done")
    assert (out, status) == (b"done\n", 0), err
    assert generic == []
    # (the spy sees the words the compiled forms leave to the expander)
    run_script("marker() { :; }; marker $(echo 1)")
    assert len(generic) == 1


# random scripts of the forms the runners compile (words with side effects, negative
# subscripts, loops, [[ ]], (( )), case, functions with locals, errexit and ERR traps)
WORDS = ["$x", "${y}", "${a[1]}", "${a[-1]}", "${a[-5]}", "${#a[@]}", "${s#?}", "${s%%b*}", '"$x-$y"', "$((x+1))",
         "$((a[-3]))", "${u:-d}", "${x:=7}", "$((i++))", "$((a[x++]))", "${a[i++]}", "lit", "'q w'", '"$@"', "$?",
         '"${a[@]}"', "${s/b/c}", "$(echo c)", "[ab]*", "$((x > 2 ? 1 : 0))", "${a[$x]}", "$((x+=2))"]
words = st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join)
simple = st.builds("{}{} {}{}".format, st.sampled_from(["", "x=5 "]),
                   st.sampled_from(["echo", ":", "false", "f", "local", "let", "declare -i", "return", "shift"]), words,
                   st.sampled_from(["", " 2>&1", " >/dev/null"]))
assignment = st.builds("{}={}".format, st.sampled_from(["x", "y", "i", "a[i++]", "a[-1]", "s"]), st.sampled_from(WORDS))
commands = st.recursive(simple | assignment, lambda inner: st.one_of(
    st.builds("if {}; then {}; else {}; fi".format, inner, inner, inner),
    st.builds("for v in {}; do {}; done".format, words, inner),
    st.builds("for ((i=0; i<2; i++)); do {}; done".format, inner),
    st.builds("case {} in {}|l*) {};; *) {};; esac".format, st.sampled_from(WORDS), st.sampled_from(WORDS),
              inner, inner),
    st.builds("[[ {} {} {} ]]".format, st.sampled_from(WORDS), st.sampled_from(["==", "-eq", "-lt", "<"]),
              st.sampled_from(WORDS)),
    st.builds("(( {} ))".format, st.sampled_from(["x++", "a[-2]", "x < 3", "y = x * 2", "a[i] += 1"])),
    st.builds("{} {} {}".format, inner, st.sampled_from(["&&", "||"]), inner),
    st.builds("( {} )".format, inner), st.builds("{{ {}; }}".format, inner)), max_leaves=6)
scripts = st.builds("{}s=abcb; a=(1 2 3); x=1; f() {{ local x={}; {}; }}; {}; echo \"end $x $y ${{a[*]}} $?\"".format,
                    st.sampled_from(["", "set -e; ", "trap 'echo ERR' ERR; ", "set -u; "]), st.sampled_from(WORDS),
                    commands, st.lists(commands, min_size=1, max_size=4).map("; ".join))


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(src=scripts)
def test_random_scripts_print_the_same_on_both_paths(src):
    outcomes = []
    for generic in (False, True):
        fastpath.GENERIC_ONLY = generic
        try:
            outcomes.append(run_script(src, limits=FUZZ_LIMITS))
        finally:
            fastpath.GENERIC_ONLY = False
    compiled, generic = outcomes
    if b"limit" not in compiled[1] + generic[1]:  # a limit may stop the two at different points
        assert generic == compiled, src
