"""The upstream-suite gates' one runner: ../shared/corpora/cmds/cmds_compat.py scores the project
on a corpus (its cached oracle) and fails under a pass rate. External material beside the
checkout (../shared), not something the project's files can install: a clone elsewhere has no
suite to run, so its absence skips (with a warning) even in CI, as the Oils spec gate does."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPORA = os.environ.get("SANDBOX_KERNEL_CMDS_CORPORA", ROOT.parent / "shared" / "corpora" / "cmds")
RUNNER = Path(CORPORA) / "cmds_compat.py"


def assert_pass_rate(corpus: str, minimum: float, tmp_path: Path) -> None:
    """The project passes at least ``minimum`` percent of ``corpus``'s scored cases."""
    if not RUNNER.is_file():
        warnings.warn(f"{corpus} upstream runner not found at {RUNNER} (set SANDBOX_KERNEL_CMDS_CORPORA)",
                      UserWarning)
        pytest.skip(f"no {corpus} upstream runner at {RUNNER}")
    done = subprocess.run([sys.executable, str(RUNNER), "--corpus", corpus, "--candidates", "project",
                           "--oracle", "cache", "--project-root", str(ROOT), "--quiet",
                           "--out", str(tmp_path / f"{corpus}.json"), "--min", str(minimum), "--show", "10"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(summary)
    assert done.returncode == 0, f"{summary} (gate {minimum} %)\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
