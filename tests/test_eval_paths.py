"""The evaluator's two paths give the same output: every differential case (tests/*/cases) runs
with the compiled runners (fastpath.py) and with them switched off (SANDBOX_KERNEL_GENERIC_ONLY,
the generic coroutine handlers only), and stdout, stderr and status must be identical. The Oils
suite does the same in tests/test_oils_spec.py. Which path is right is for test_differential
(real bash) to say; this one finds where they part."""
from __future__ import annotations

import pytest

from difftest import CASE_DIRS, case_files, run_sandbox, stdin_of
from sandbox_kernel.cli import run_script
from sandbox_kernel.shell.eval import fastpath
from sandbox_kernel.shell.eval.interp import Shell
from sandbox_kernel.shell.syntax.parser import Parser

CASES = case_files(*CASE_DIRS)


def _run(monkeypatch, text: str, generic: bool) -> tuple[bytes, bytes, int]:
    monkeypatch.setattr(fastpath, "GENERIC_ONLY", generic)
    outcome = run_sandbox(text, stdin_of(text))
    return outcome.stdout, outcome.stderr, outcome.status


@pytest.mark.parametrize("case", CASES, ids=[f"{p.parent.parent.name}/{p.name}" for p in CASES])
def test_generic_path_matches_compiled_path(case, monkeypatch):
    text = case.read_text()
    compiled = _run(monkeypatch, text, False)
    generic = _run(monkeypatch, text, True)
    assert generic == compiled, f"{case}\n--- compiled\n{compiled!r}\n--- generic\n{generic!r}"


def test_the_switch_compiles_no_runner(monkeypatch):
    node = Parser("for i in 1 2; do x=$((i+1)); done").parse_program()
    loop = node.items[0][0]
    assert fastpath.compile_node(loop) is not fastpath.NO_RUNNER
    monkeypatch.setattr(fastpath, "GENERIC_ONLY", True)
    assert fastpath.compile_node(loop) is fastpath.NO_RUNNER


@pytest.mark.parametrize("setup,generic_after", [
    ("", False),
    # a nameref that lives on sends every command to the generic path (they follow it there)
    ("declare -n r=z; ", True),
    # one a function's scope held ends with it; one hidden by a VAR=x binding still counts
    ("f() { local -n r=$1; r=1; }; f z; ", False),
    ("declare -n r=z; g() { local -n q=y; }; r=5 eval g; ", True),
    # set -x and a DEBUG trap force it only while they are on
    ("set -x; set +x; ", False),
    ("trap : DEBUG; trap - DEBUG; ", False),
])
def test_what_sends_commands_to_the_generic_path(monkeypatch, setup, generic_after):
    generic = []
    run_simple = Shell.run_simple

    def spy(sh, node, fds):
        if node.words and node.words[0].fast == "marker":
            generic.append(node)
        return run_simple(sh, node, fds)
    monkeypatch.setattr(Shell, "run_simple", spy)
    out, err, status = run_script(setup + "marker() { :; }; for i in 1 2 3; do marker $i; done; echo done")
    assert (out, status) == (b"done\n", 0), err
    assert bool(generic) == generic_after
