"""run-tour's summary: cells that did not run, did not finish or failed are reported as such
(they used to be shown as "ok"), and make the run fail."""
from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from sandbox_kernel.kernel import install as install_module
from sandbox_kernel.kernel.tour import Progress, summarize, tour_main


def notebook(*sources: str, expected_error: int | None = None):
    nb = new_notebook(cells=[new_code_cell(s) for s in sources])
    if expected_error is not None:
        nb.cells[expected_error].metadata["tags"] = ["raises-exception"]
    return nb


def test_summary_tells_what_happened_to_each_cell():
    nb = notebook("echo a", "exit 3", "echo c", "sleep 999", "grep x y", expected_error=4)
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout", text="a\n")]
    nb.cells[1].outputs = [nbformat.v4.new_output("error", ename="ExitStatus", evalue="exit status 3", traceback=[])]
    nb.cells[4].outputs = [nbformat.v4.new_output("error", ename="ExitStatus", evalue="exit status 1", traceback=[])]
    progress = Progress()
    progress.started = {0, 1, 3, 4}
    progress.replies = {0: "ok", 1: "error", 4: "error"}
    lines, bad = summarize(nb, progress)
    outcomes = ["  ok ", "  error ExitStatus ", "  not run ", "  did not finish ", "  error ExitStatus (expected) "]
    assert all(outcome in line for outcome, line in zip(outcomes, lines)), lines
    assert lines[0].endswith(" a") and "exit status 3" in lines[1]
    assert bad == 3
    # an error that was expected but did not happen is not fine either
    progress.replies[4] = "ok"
    nb.cells[4].outputs = []
    lines, bad = summarize(nb, progress)
    assert "ok (an error was expected)" in lines[4] and bad == 4


def test_run_tour_reports_the_cells_after_a_failure(jupyter_kernels, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(install_module, "install", lambda **kw: "(test: kernelspec from JUPYTER_PATH)")
    source = tmp_path / "nb.ipynb"
    nbformat.write(notebook("echo first", "exit 3", "echo never"), source)
    status = tour_main(["--notebook", str(source), "--output", str(tmp_path / "out.ipynb"), "--timeout", "60"])
    captured = capsys.readouterr()
    assert status == 1
    lines = [line for line in captured.out.splitlines() if line.startswith("  [")]
    assert len(lines) == 3
    assert " ok " in lines[0] and "error ExitStatus" in lines[1] and "not run" in lines[2]
    assert "2 of 3 code cells did not run as expected" in captured.err
