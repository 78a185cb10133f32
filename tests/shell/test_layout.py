"""The shell package's import structure: the builtins never need the evaluator, and no
module hides an import inside a function or imports another module's private names."""
import ast
import subprocess
import sys
from pathlib import Path

SHELL = Path(__file__).resolve().parents[2] / "sandbox_kernel" / "shell"


def _modules():
    return sorted(SHELL.rglob("*.py"))


def test_builtins_import_without_the_evaluator():
    # what a builtin uses of the shell is shell/api.py's ShellAPI; the helpers both use live
    # beside them (quoting, pattern, state), so importing the builtins loads no shell/eval module
    code = ("import sys, sandbox_kernel.shell.builtins\n"
            "print([m for m in sys.modules if m.startswith('sandbox_kernel.shell.eval')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_builtins_import_nothing_of_the_evaluator():
    found = []
    for path in sorted((SHELL / "builtins").glob("*.py")):
        for node in ast.parse(path.read_text()).body:  # (module level: TYPE_CHECKING blocks are not)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("eval"):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_no_imports_inside_functions():
    found = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        found.append(f"{path.relative_to(SHELL)}:{inner.lineno}")
    assert found == []


def test_no_private_names_imported():
    found = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name != "__future__" or \
                            (alias.asname or "").startswith("_"):
                        found.append(f"{path.relative_to(SHELL)}:{node.lineno} {alias.name}")
    assert found == []


def test_syntax_knows_no_evaluator():
    # the tree is the parser's: a node's ``cache`` slot is opaque to syntax/ (the evaluator keeps
    # its compiled runner there), and nothing in syntax/ imports the rooms that run it
    found = []
    for path in sorted((SHELL / "syntax").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("eval", "builtins", "api"):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_every_command_node_has_the_cache_slot():
    # fastpath.start reads node.cache for every command it runs
    from sandbox_kernel.shell.eval import fastpath
    from sandbox_kernel.shell.syntax import ast as syntax
    kinds = [k for k in vars(syntax).values() if isinstance(k, type) and issubclass(k, syntax.Syntax)
             and "line" in k.__slots__]
    missing = [k.__name__ for k in kinds if "cache" not in k.__slots__]
    assert kinds and missing == []
    assert set(fastpath.HANDLERS) <= set(kinds)
