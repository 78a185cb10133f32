"""The shell package's import structure: the builtins never need the interpreter, and no
module hides an import inside a function or imports another module's private names."""
import ast
import subprocess
import sys
from pathlib import Path

SHELL = Path(__file__).resolve().parents[2] / "sandbox_kernel" / "shell"


def _modules():
    return sorted(SHELL.rglob("*.py"))


def test_builtins_import_without_the_interpreter():
    code = ("import sys, sandbox_kernel.shell.builtins\n"
            "print('sandbox_kernel.shell.eval.interp' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


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
