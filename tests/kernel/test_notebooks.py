"""nbclient executes every notebook in notebooks/ with the installed `sandbox` kernelspec."""
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from sandbox_kernel.vm.machine import qemu_available

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def outputs_text(cell):
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            parts.append(str(out.data.get("text/plain", "")))
    return "".join(parts)


def needs_vm(nb) -> None:
    """Notebooks with %%vm cells need QEMU (they run in CI, which has it)."""
    if any(c.cell_type == "code" and c.source.startswith("%%vm") for c in nb.cells):
        reason = qemu_available()
        if reason:
            print(f"skipped: {reason}")
            pytest.skip(reason)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    needs_vm(nb)
    NotebookClient(nb, timeout=120, kernel_name="sandbox").execute()  # raises on unexpected errors
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        expected = "raises-exception" in cell.metadata.get("tags", [])
        assert bool(errors) == expected, (cell.source, errors)
    assert nb.metadata["language_info"]["name"] == "bash"


def test_tour_outputs():
    nb = nbformat.read(NOTEBOOKS[0].parent / "tour.ipynb", as_version=4)
    needs_vm(nb)
    NotebookClient(nb, timeout=120, kernel_name="sandbox").execute()
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
