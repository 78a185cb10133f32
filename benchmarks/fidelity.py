"""Fidelity beside speed: the Oils spec pass rate of the project and of bashkit, in one run
(the suite and its runner live beside the checkout, in ../shared/oils-spec)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from .harness import Report, Row, Sample

ROOT = Path(__file__).resolve().parent.parent
RUNNER = Path(os.environ.get("SANDBOX_KERNEL_OILS_SPEC", ROOT.parent / "shared" / "oils-spec")) / "oils_spec.py"


def bench_fidelity(report: Report, runs: int) -> None:
    if not RUNNER.is_file():
        report.add(Row("fidelity", "Oils spec pass rate", None, note=f"runner not found at {RUNNER}"))
        return
    done = subprocess.run([sys.executable, str(RUNNER), "--candidates", "project,bashkit", "--oracle", "auto",
                           "--project-root", str(ROOT), "--peers-python", sys.executable],
                          cwd=ROOT, capture_output=True, text=True, timeout=3600)
    rates = re.search(r"^\s+([\d.]+)%\s+([\d.]+)%", done.stdout, re.M)
    if not rates:
        report.add(Row("fidelity", "Oils spec pass rate", None, note=(done.stdout + done.stderr)[-200:]))
        return
    ours, theirs = float(rates.group(1)), float(rates.group(2))
    report.add(Row("fidelity", "Oils spec pass rate (% of 2,600 cases)", Sample(ours, ours, ours, 1), unit="%",
                   peer="bashkit", peer_sample=Sample(theirs, theirs, theirs, 1),
                   target=">= 95 %, ahead of bashkit", passed=ours >= 95 and ours > theirs))
