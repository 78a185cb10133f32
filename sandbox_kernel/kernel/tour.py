"""``python -m sandbox_kernel run-tour``: install the kernelspec into this Python's prefix,
execute the tour notebook with nbclient and write the executed copy (what ``make run`` does)."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_NOTEBOOK = ROOT / "notebooks" / "tour.ipynb"
DEFAULT_OUTPUT = Path("build") / "tour.ipynb"


class Progress:
    """What nbclient reported per cell: sent (index in ``started``) and answered (``replies``:
    index -> execute_reply status)."""

    def __init__(self) -> None:
        self.started: set[int] = set()
        self.replies: dict[int, str] = {}

    async def on_cell_execute(self, cell, cell_index: int) -> None:
        self.started.add(cell_index)

    async def on_cell_executed(self, cell, cell_index: int, execute_reply) -> None:
        self.replies[cell_index] = (execute_reply or {}).get("content", {}).get("status", "ok")

    def hooks(self) -> dict:
        return {"on_cell_execute": self.on_cell_execute, "on_cell_executed": self.on_cell_executed}


def outcome(cell, index: int, progress: Progress) -> tuple[str, bool]:
    """(what happened to the cell, whether that is fine)."""
    expected_error = "raises-exception" in cell.get("metadata", {}).get("tags", [])
    if index not in progress.started:
        return "not run", False
    if index not in progress.replies:
        return "did not finish", False
    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if progress.replies[index] != "ok" or errors:
        name = errors[0].get("ename") if errors else progress.replies[index]
        return (f"error {name} (expected)", True) if expected_error else (f"error {name}", False)
    if expected_error:
        return "ok (an error was expected)", False
    return "ok", True


def first_output(cell) -> str:
    """The first line of its stdout, else of any output."""
    shown = ""
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream" and output.get("name") == "stdout":
            return output.get("text", "").strip().split("\n")[0]
        if kind == "error" and not shown:
            shown = str(output.get("evalue", ""))
        elif kind == "stream" and not shown:
            shown = output.get("text", "").strip().split("\n")[0]
        elif kind in ("display_data", "execute_result") and not shown:
            shown = "[" + ", ".join(sorted(output.get("data", {}))) + "]"
    return shown


def summarize(nb, progress: Progress) -> tuple[list[str], int]:
    """One line per code cell (number, first source line, outcome, first output line) and
    the number of cells that did not end as they should (not run, unfinished, failed)."""
    lines, bad = [], 0
    for number, (index, cell) in enumerate(((i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"), 1):
        source = cell.source.strip().splitlines()
        what, fine = outcome(cell, index, progress)
        bad += not fine
        lines.append(f"  [{number:2}] {(source[0] if source else '')[:38]:38}  {what:24} {first_output(cell)[:60]}")
    return lines, bad


def tour_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox_kernel run-tour", description=__doc__)
    parser.add_argument("--notebook", default=str(DEFAULT_NOTEBOOK), help="notebook to execute")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="where the executed copy goes")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per cell")
    args = parser.parse_args(argv)

    try:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
    except ImportError as e:
        print(f"run-tour needs nbclient and nbformat ({e}): pip install 'sandbox-kernel[test]'",
              file=sys.stderr)
        return 1

    from .install import install

    spec_dir = install(prefix=sys.prefix)
    print(f"kernelspec 'sandbox' installed in {spec_dir}")
    source = Path(args.notebook)
    try:
        nb = nbformat.read(source, as_version=4)
    except (OSError, ValueError) as e:
        print(f"run-tour: cannot read {source}: {e}", file=sys.stderr)
        return 1
    progress = Progress()
    client = NotebookClient(nb, timeout=args.timeout, kernel_name="sandbox",
                            resources={"metadata": {"path": str(source.parent)}}, **progress.hooks())
    started = time.monotonic()
    status = 0
    try:
        client.execute()
    except CellExecutionError as e:
        status = 1
        print("run-tour: a cell failed unexpectedly:\n" + str(e).strip()[-2000:], file=sys.stderr)
    except Exception as e:  # kernel died, timeout...
        status = 1
        print(f"run-tour: {type(e).__name__}: {e}", file=sys.stderr)
    elapsed = time.monotonic() - started
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out)
    code_cells = sum(1 for c in nb.cells if c.cell_type == "code")
    print(f"executed {source.name}: {code_cells} code cells in {elapsed:.1f} s -> {out}")
    lines, bad = summarize(nb, progress)
    print("\n".join(lines))
    if bad:
        status = 1
        print(f"run-tour: {bad} of {code_cells} code cells did not run as expected", file=sys.stderr)
    if status == 0:
        print(f"open it in JupyterLab: make lab  (then {out})")
    return status
