"""Fidelity beside speed: the Oils spec pass rate of the project and of bashkit, in one run
(the suite and its runner live beside the checkout, in ../shared/oils-spec), and the jq, awk and
BusyBox upstream suites' (../shared/corpora/cmds) beside bashkit and just-bash."""
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
    bench_oils(report, runs)
    bench_cmds_suites(report, runs)


def bench_oils(report: Report, runs: int) -> None:
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


# ---------------------------------------------------------------- upstream command suites
CORPORA = Path(os.environ.get("SANDBOX_KERNEL_CMDS_CORPORA", ROOT.parent / "shared" / "corpora" / "cmds"))
CMDS_RUNNER = CORPORA / "cmds_compat.py"
#: corpus -> what the row is called (the runner's --help names each suite's source and reference)
CMDS_SUITES = {"jq": "jq upstream tests (jq 1.6 + 1.8.2, reference jq 1.6)",
               "awk": "awk upstream tests (onetrue-awk + gawk via GoAWK, reference gawk 5.2.1)",
               "busybox": "BusyBox testsuite (reference GNU tools + bash)"}
#: the runner's candidate name -> the peer's name in the report (both in-process, PyPI)
CMDS_PEERS = {"bashkit": ("bashkit", "bashkit"), "justbash": ("just-bash", "just_bash")}
_RATE = re.compile(r"^\s+(\w+)\s+(\d+)/(\d+)\s+([\d.]+)%", re.M)


def bench_cmds_suites(report: Report, runs: int) -> None:
    """The jq, awk and BusyBox upstream suites' pass rates (cached reference outputs), the
    project beside bashkit and just-bash, as the Oils row: the peers run from this Python."""
    import importlib.util
    import tempfile

    if not CMDS_RUNNER.is_file():
        for corpus, title in CMDS_SUITES.items():
            report.add(Row("fidelity", f"{title} pass rate", None, note=f"runner not found at {CMDS_RUNNER}"))
        return
    peers = [cand for cand, (_name, mod) in CMDS_PEERS.items() if importlib.util.find_spec(mod) is not None]
    for corpus, title in CMDS_SUITES.items():
        with tempfile.TemporaryDirectory(prefix="cmds-bench-") as tmp:
            done = subprocess.run([sys.executable, str(CMDS_RUNNER), "--corpus", corpus,
                                   "--candidates", ",".join(["project", *peers]), "--oracle", "cache",
                                   "--project-root", str(ROOT), "--peers-python", sys.executable,
                                   "--out", str(Path(tmp) / "results.json")],
                                  cwd=ROOT, capture_output=True, text=True, timeout=3600)
        rates = {m.group(1): (float(m.group(4)), int(m.group(3))) for m in _RATE.finditer(done.stdout)}
        if "project" not in rates:
            report.add(Row("fidelity", f"{title} pass rate", None, note=(done.stdout + done.stderr)[-200:]))
            continue
        ours, cases = rates["project"]
        theirs = {CMDS_PEERS[c][0]: rates[c][0] for c in peers if c in rates}
        best = max(theirs, key=theirs.get) if theirs else ""
        missing = [CMDS_PEERS[c][0] for c in CMDS_PEERS if CMDS_PEERS[c][0] not in theirs]
        note = "; ".join([", ".join(f"{name} {rate:.1f} %" for name, rate in theirs.items())]
                         + ([f"not run: {', '.join(missing)} (not installed)"] if missing else []))
        report.add(Row("fidelity", f"{title} pass rate (% of {cases:,} scored sub-cases)",
                       Sample(ours, ours, ours, 1), unit="%",
                       peer=best, peer_sample=Sample(theirs[best], theirs[best], theirs[best], 1) if best else None,
                       target="ahead of bashkit and just-bash",
                       passed=(ours > max(theirs.values())) if theirs else None, note=note.strip("; ")))
