"""Keep the benchmark harness from rotting: one quick iteration of the cheap groups."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_harness_quick_run(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--no-install",
                           "--only", "shell,memory", "--out", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads((tmp_path / "bench.json").read_text())
    rows = data["rows"]
    groups = {r["group"] for r in rows}
    assert {"shell", "memory"} <= groups
    errors = [r for r in rows if "harness error" in r["note"]]
    assert not errors, errors
    shell_rows = [r for r in rows if r["group"] == "shell" and r["peer"] == "bash" and r["ours"]]
    assert len(shell_rows) >= 10  # every corpus case ran against real bash
    assert "per idle Sandbox()" in proc.stdout


def test_scaling_exponents_and_budget():
    from benchmarks.scaling import RUN_BUDGET, Workload, curve, exponent

    assert abs(exponent([(10, 0.001), (100, 0.01), (1000, 0.1)]) - 1.0) < 1e-9
    assert abs(exponent([(10, 0.001), (100, 0.1), (1000, 10.0)]) - 2.0) < 1e-9
    seen = []

    def quadratic(w, n, runs):
        seen.append(n)
        return 0.9 * RUN_BUDGET * (n / 10_000) ** 2

    points = curve(quadratic, Workload("q", ""), (100, 1000, 10_000, 100_000), 1)
    assert seen == [100, 1000, 10_000]  # 100 000 would take 100x the budget: not run
    assert points[-1] == (10_000, 0.9 * RUN_BUDGET)


def test_throughput_pipelines_agree_with_gnu(tmp_path):
    """The throughput group's pipelines give GNU's output on its generated data (1 MB)."""
    from benchmarks.throughput import PIPELINES, Ours, gnu_output, make_data

    data = make_data(1000 * 1000)
    (tmp_path / "f").write_bytes(data)
    ours = Ours(data)
    try:
        for script in PIPELINES:
            assert ours.output(script) == gnu_output(str(tmp_path), script), script
    finally:
        ours.close()
