"""`python -m benchmarks [--quick] [--only GROUPS] [--runs N] [--no-install]`.

Prints a table, writes build/bench.json and build/bench.png. Never fails on a MISS: targets
are reported, not asserted. Exit status is non-zero only when the harness itself breaks.
"""
from __future__ import annotations

import argparse
import importlib
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

from .harness import Report

ROOT = Path(__file__).resolve().parent.parent
GROUPS = ["shell", "loops", "coreutils", "throughput", "scaling", "kernel", "js", "python", "vm", "memory", "store",
          "fidelity"]
PEER_MODULES = {"bashkit": "bashkit", "just-bash": "just_bash", "bash_kernel": "bash_kernel"}


def ensure_peers(report: Report, install: bool) -> None:
    missing = [name for name, mod in PEER_MODULES.items() if importlib.util.find_spec(mod) is None]
    if missing and install:
        req = Path(__file__).parent / "requirements.txt"
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "-r", str(req)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"warning: could not install peers: {proc.stderr.strip()[-300:]}", file=sys.stderr)
        importlib.invalidate_caches()
    for name, mod in PEER_MODULES.items():
        report.peers[name] = (
            "ok" if importlib.util.find_spec(mod) else "not installed (pip install failed or --no-install)"
        )
    report.peers["bash"] = "ok" if subprocess.run(["bash", "-c", "true"]).returncode == 0 else "missing"
    report.peers["node"] = (
        "ok" if subprocess.run(["sh", "-c", "command -v node"], capture_output=True).returncode == 0 else "missing"
    )


def run_group(name: str, report: Report, runs: int) -> None:
    from . import engines, fidelity, hostfiles, kernels, loops, scaling, shell, throughput

    table = {"shell": shell.bench_shell, "loops": loops.bench_loops, "coreutils": shell.bench_coreutils,
             "throughput": throughput.bench_throughput, "scaling": scaling.bench_scaling,
             "kernel": kernels.bench_kernels, "js": engines.bench_js, "python": engines.bench_python,
             "vm": engines.bench_vm,
             "memory": engines.bench_memory, "store": hostfiles.bench_store,
             "fidelity": fidelity.bench_fidelity}
    t = time.perf_counter()
    try:
        table[name](report, runs)
    except Exception as e:  # one broken group must not hide the others
        from .harness import Row
        report.add(Row(name, "(group)", None, note=f"harness error: {type(e).__name__}: {e}"))
    print(f"  {name}: {time.perf_counter() - t:.1f}s", file=sys.stderr)


def fmt_value(sample, unit: str) -> str:
    if sample is None:
        return "-"
    v = sample.median
    if unit == "s":
        return f"{v * 1000:.2f} ms" if v < 1 else f"{v:.2f} s"
    if unit == "s/iter":
        return f"{v * 1e6:.2f} us/it"
    if unit == "bytes":
        return f"{v / 1024:.1f} KiB" if v < 1024 * 1024 else f"{v / 1024 / 1024:.1f} MiB"
    return f"{v:.1f} {unit}"


def print_table(report: Report) -> str:
    lines = [f"{'group':10} {'benchmark':42} {'ours':>11} {'peer':>22} {'ratio':>8}  target / note"]
    for r in report.rows:
        peer = f"{r.peer} {fmt_value(r.peer_sample, r.unit)}" if r.peer else ""
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else ""
        verdict = "" if r.passed is None else ("PASS" if r.passed else "MISS")
        tail = " ".join(x for x in (verdict, r.target, r.note) if x)
        lines.append(
            f"{r.group:10} {r.name[:42]:42} {fmt_value(r.ours, r.unit):>11} {peer[:22]:>22} {ratio:>8}  {tail}"
        )
    unavailable = {k: v for k, v in report.peers.items() if v != "ok"}
    if unavailable:
        lines.append("unavailable peers: " + "; ".join(f"{k}: {v}" for k, v in unavailable.items()))
    text = "\n".join(lines)
    print(text)
    return text


def write_chart(report: Report, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in report.rows if r.ratio is not None and r.ratio > 0]
    if not rows and not report.curves:
        return False
    bars_h = 0.32 * len(rows) + 1.5 if rows else 0
    grid_rows = -(-len(report.curves) // 4)
    fig = plt.figure(figsize=(12, bars_h + 2.6 * grid_rows))
    bars, curves = fig.subfigures(2, 1, height_ratios=[max(bars_h, 0.01), max(2.6 * grid_rows, 0.01)]) \
        if rows and report.curves else ((fig, None) if rows else (None, fig))
    if curves is not None:
        draw_curves(report, curves, grid_rows)
    if bars is None:
        fig.savefig(path, dpi=110)
        plt.close(fig)
        return True
    ax = bars.subplots()
    labels = [f"{r.group}: {r.name[:34]} vs {r.peer}" for r in rows]
    colors = ["tab:green" if r.ratio <= 1 else "tab:orange" for r in rows]
    ax.barh(range(len(rows)), [r.ratio for r in rows], color=colors)
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("time ratio ours / peer (lower is better; 1 = equal)")
    ax.invert_yaxis()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return True


def draw_curves(report: Report, fig, grid_rows: int) -> None:
    """One log-log panel per scaling workload: CPU time against N for each engine."""
    from .scaling import exponent

    axes = fig.subplots(grid_rows, 4, squeeze=False)
    for ax, (name, curves) in zip(axes.flat, report.curves.items()):
        for peer, points in curves.items():
            if points:
                label = f"{peer} ({exponent(points):.2f})" if len(points) > 1 else peer
                ax.plot([n for n, _ in points], [t for _, t in points], marker="o", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(name, fontsize=8)
        ax.tick_params(which="both", labelsize=6)
        ax.legend(fontsize=6, title="exponent", title_fontsize=6)
    for ax in list(axes.flat)[len(report.curves):]:
        ax.set_visible(False)
    fig.supxlabel("N", fontsize=8)
    fig.supylabel("CPU seconds", fontsize=8)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks")
    ap.add_argument("--quick", action="store_true", help="one iteration per measurement (smoke test)")
    ap.add_argument("--runs", type=int, default=5, help="measured runs per benchmark (median)")
    ap.add_argument("--only", default=",".join(GROUPS), help="comma-separated groups: " + ",".join(GROUPS))
    ap.add_argument("--no-install", action="store_true", help="do not pip-install missing peers")
    ap.add_argument("--out", default=str(ROOT / "build"), help="output directory")
    args = ap.parse_args(argv)
    runs = 1 if args.quick else max(1, args.runs)
    groups = [g for g in args.only.split(",") if g]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        ap.error(f"unknown group(s): {', '.join(unknown)}")
    report = Report()
    ensure_peers(report, install=not args.no_install)
    print(f"benchmarks: {', '.join(groups)}; {runs} run(s) each", file=sys.stderr)
    for g in groups:
        run_group(g, report, runs)
    table = print_table(report)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    machine = {"python": platform.python_version(), "platform": platform.platform(),
               "cpus": __import__("os").cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    (out / "bench.json").write_text(json.dumps({"machine": machine, "runs": runs, "peers": report.peers,
                                                "rows": [r.to_json() for r in report.rows]}, indent=1))
    (out / "bench.txt").write_text(table + "\n")
    chart = write_chart(report, out / "bench.png")
    print(f"\nwrote {out / 'bench.json'}" + (f", {out / 'bench.png'}" if chart else " (no chart: matplotlib missing)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
