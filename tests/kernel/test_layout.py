"""kernel/'s import structure (docs/architecture.md): storage -> comms -> kernel.py and protocol ->
kernel.py, one way; the sub-packages never import kernel/'s own modules (kernel, app, launch,
install, tour); client/ (a frontend's side) is imported by no module of the package."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sandbox_kernel"
ROOT_MODULES = ("kernel", "app", "launch", "install", "tour")
#: sub-package -> the parts of kernel/ it must not import
FORBIDDEN = {
    "protocol": ("comms", "storage", *ROOT_MODULES),
    "comms": ("protocol", *ROOT_MODULES),
    "storage": ("protocol", "comms", *ROOT_MODULES),
}


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (at any depth, relative imports resolved), dotted."""
    package = list(path.relative_to(PACKAGE.parent).parent.parts)  # a module's package, or __init__'s own
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_kernel_parts_import_one_way():
    wrong = []
    for part, forbidden in FORBIDDEN.items():
        for path in sorted((PACKAGE / "kernel" / part).rglob("*.py")):
            for name in sorted(_imports(path)):
                for other in forbidden:
                    if _under(name, f"sandbox_kernel.kernel.{other}"):
                        wrong.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert wrong == []


def test_nothing_in_the_package_imports_the_client():
    wrong = [f"{path.relative_to(PACKAGE)} imports {name}"
             for path in sorted(PACKAGE.rglob("*.py")) if "client" not in path.relative_to(PACKAGE).parts
             for name in sorted(_imports(path)) if _under(name, "sandbox_kernel.client")]
    assert wrong == []


def test_the_import_reader_sees_relative_imports():
    """The checks above would pass on a reader that found nothing."""
    comm = _imports(PACKAGE / "kernel" / "comms" / "vfs.py")
    assert "sandbox_kernel.kernel.storage.store" in comm and "sandbox_kernel.vfs.tar" in comm
    assert "sandbox_kernel.kernel.comms.vfs" in _imports(PACKAGE / "client" / "vfs.py")
    assert "sandbox_kernel.kernel.protocol.cells" in _imports(PACKAGE / "kernel" / "kernel.py")
