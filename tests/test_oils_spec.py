"""Fidelity on an external suite: the Oils shell spec tests (2,600 cases nobody here wrote),
scored against real GNU bash by the runner in ../shared/oils-spec. A regression gate: the pass
rate may only go up (raise OILS_SPEC_MIN with the figure reached)."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
RUNNER = Path(os.environ.get("SANDBOX_KERNEL_OILS_SPEC", ROOT.parent / "shared" / "oils-spec")) / "oils_spec.py"
#: the project's pass rate reached (percent of the scored cases); bashkit 0.20.1: 91.8 %
OILS_SPEC_MIN = 96.2


@pytest.mark.slow
def test_oils_spec_pass_rate_does_not_regress():
    # external material beside the checkout (../shared), not something the project's files can
    # install: a clone elsewhere has no suite to run, so its absence skips (with a warning) even
    # in CI, unlike the tools scripts/system-deps installs
    if not RUNNER.is_file():
        warnings.warn(f"Oils spec runner not found at {RUNNER} (set SANDBOX_KERNEL_OILS_SPEC)", UserWarning)
        pytest.skip(f"no Oils spec runner at {RUNNER}")
    done = subprocess.run([sys.executable, str(RUNNER), "--candidates", "project", "--oracle", "auto",
                           "--project-root", str(ROOT), "--quiet", "--min", str(OILS_SPEC_MIN)],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    summary = (done.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(summary)
    assert done.returncode == 0, f"{summary} (gate {OILS_SPEC_MIN} %)\n{done.stderr[-2000:]}"
