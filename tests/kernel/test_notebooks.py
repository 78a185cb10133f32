"""nbclient executes every notebook in notebooks/ with the installed `sandbox` kernelspec."""
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from sandbox_kernel.vm.machine import qemu_available
from tests.support.prereqs import require

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def outputs_text(cell):
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            parts.append(str(out.data.get("text/plain", "")))
    return "".join(parts)


def uses_vm(path: Path) -> bool:
    nb = nbformat.read(path, as_version=4)
    return any(c.cell_type == "code" and c.source.startswith("%%vm") for c in nb.cells)


#: notebooks with %%vm cells boot the VM: marked like the VM tests (they run in CI, which has QEMU)
PARAMS = [pytest.param(p, id=p.name, marks=[pytest.mark.vm, pytest.mark.slow] if uses_vm(p) else [])
          for p in NOTEBOOKS]
_executed: dict[Path, nbformat.NotebookNode] = {}


@pytest.fixture
def executed(jupyter_kernels):
    """path -> the notebook executed by nbclient, once per test session (the tour boots the VM)."""
    def run(path: Path):
        if path not in _executed:
            if uses_vm(path):
                require(qemu_available())
            nb = nbformat.read(path, as_version=4)
            NotebookClient(nb, timeout=120, kernel_name="sandbox").execute()  # raises on unexpected errors
            _executed[path] = nb
        return _executed[path]
    return run


@pytest.mark.parametrize("path", PARAMS)
def test_notebook_runs(path, executed):
    nb = executed(path)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        expected = "raises-exception" in cell.metadata.get("tags", [])
        assert bool(errors) == expected, (cell.source, errors)
    assert nb.metadata["language_info"]["name"] == "bash"


@pytest.mark.vm
@pytest.mark.slow
def test_tour_outputs(executed):
    nb = executed(NOTEBOOKS[0].parent / "tour.ipynb")
    cells = {c.source.split("\n")[0]: c for c in nb.cells if c.cell_type == "code"}
    hello = outputs_text(cells['echo "Hello from $(whoami)@$(hostname) in $PWD"'])
    assert hello.startswith("Hello from user@sandbox in /workspace")
    totals = outputs_text(cells["# totals per fruit with awk"])
    assert totals == "apple 8\nbanana 12\ncherry 7\ndate 9\n"
    assert outputs_text(cells["greet notebook"]) == "Hello, Notebook!\nstill in /workspace/project with letters=17\n"
    assert "total quantity: 36" in outputs_text(cells["cat > report.sh <<'EOF'"])
    assert outputs_text(cells["for step in 1 2 3; do"]) == "step 1\nstep 2\nstep 3\n"
    chart = cells["{"]
    kinds = [next(iter(sorted(o.data))) for o in chart.outputs if o.output_type == "display_data"]
    assert kinds == ["image/svg+xml", "text/html"]  # Markdown is rendered and sanitised in the kernel
    svg = chart.outputs[0].data["image/svg+xml"]
    assert svg.count("<rect") == 4 and "banana" in svg  # one bar per fruit
    assert "**5** rows" in chart.outputs[1].data["text/plain"]
    assert "<strong>5</strong> rows" in chart.outputs[1].data["text/html"]
    js = cells["%%js"]
    assert [o.output_type for o in js.outputs] == ["stream", "execute_result"]
    assert js.outputs[0].text == "banana, cherry, date\n" and js.outputs[1].data["text/plain"] == "36"
    shown = cells["# back in the shell: the file written by JavaScript"].outputs[0].data
    assert [row["name"] for row in shown["application/json"]] == ["banana", "cherry", "date"]
    vm = cells["%%vm"]
    stdout = "".join(o.text for o in vm.outputs if o.output_type == "stream" and o.name == "stdout")
    assert stdout.startswith("python 3.") and "on Linux x86_64" in stdout
    assert outputs_text(cells["# back in the shell: the file written inside the VM"]) == \
        "apple,8\nbanana,12\ncherry,7\ndate,9\n"
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    assert [o.ename for o in last.outputs if o.output_type == "error"] == ["ExitStatus"]
