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


def summarize(nb) -> list[str]:
    """One line per code cell: number, first source line, outcome, first output line."""
    lines = []
    for index, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        source = cell.source.strip().splitlines()
        first = source[0] if source else ""
        outcome = "ok"
        shown = ""
        for output in cell.get("outputs", []):
            kind = output.get("output_type")
            if kind == "error":
                expected = "raises-exception" in cell.get("metadata", {}).get("tags", [])
                outcome = f"error {output.get('ename')}" + (" (expected)" if expected else "")
                shown = shown or str(output.get("evalue", ""))
            elif kind == "stream" and not shown:
                shown = output.get("text", "").strip().split("\n")[0]
            elif kind in ("display_data", "execute_result") and not shown:
                shown = "[" + ", ".join(sorted(output.get("data", {}))) + "]"
        lines.append(f"  [{index + 1:2}] {first[:38]:38}  {outcome:24} {shown[:60]}")
    return lines


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
    client = NotebookClient(nb, timeout=args.timeout, kernel_name="sandbox",
                            resources={"metadata": {"path": str(source.parent)}})
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
    print("\n".join(summarize(nb)))
    if status == 0:
        print(f"open it in JupyterLab: make lab  (then {out})")
    return status
