"""Kernel latency against bash_kernel and ipykernel; streaming latency and flood behaviour."""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from .harness import Report, Row, Sample, measure_pair

SPECS = {
    "sandbox": [sys.executable, "-m", "sandbox_kernel", "kernel", "-f", "{connection_file}"],
    "bash_kernel": [sys.executable, "-m", "bash_kernel", "-f", "{connection_file}"],
    "ipykernel": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
}


@contextmanager
def kernelspecs():
    """A private JUPYTER_PATH holding the three kernelspecs (nothing installed system-wide)."""
    with tempfile.TemporaryDirectory(prefix="bench-kernels-") as tmp:
        for name, argv in SPECS.items():
            d = Path(tmp, "kernels", "bench-" + name)
            d.mkdir(parents=True)
            (d / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": name,
                                                        "language": "bash"}))
        old = os.environ.get("JUPYTER_PATH")
        os.environ["JUPYTER_PATH"] = tmp
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("JUPYTER_PATH", None)
            else:
                os.environ["JUPYTER_PATH"] = old


def _start(name: str):
    from jupyter_client.manager import KernelManager

    km = KernelManager(kernel_name="bench-" + name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def _time_to_reply(name: str) -> float:
    """Seconds from starting kernel ``name`` to its first kernel_info_reply (the request sent
    at once: the client's socket holds it until it connects); the shutdown is not timed."""
    from jupyter_client.manager import KernelManager

    t = time.perf_counter()
    km = KernelManager(kernel_name="bench-" + name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.kernel_info()
    while kc.get_shell_msg(timeout=60)["msg_type"] != "kernel_info_reply":
        pass
    elapsed = time.perf_counter() - t
    _stop(km, kc)
    return elapsed


#: start -> kernel_info_reply pairs (alternating order) against ipykernel
START_PAIRS = 10


def start_pairs(ours: str, peer: str, pairs: int) -> tuple[Sample, Sample, float]:
    """Alternating start timings of two kernels: their samples and the median of the
    per-pair ratios."""
    return measure_pair(lambda: _time_to_reply(ours), lambda: _time_to_reply(peer), pairs,
                        timer=lambda run: run())


@contextmanager
def compiled_package():
    """The package's bytecode written beside it while the block runs, as a pip install
    writes it (ipykernel's came that way; this editable install under PYTHONDONTWRITEBYTECODE
    compiles our modules at every start). Files that were not there before are removed."""
    import compileall
    import importlib.util

    package = Path(__file__).resolve().parent.parent / "sandbox_kernel"
    sources = list(package.rglob("*.py"))
    cached = [importlib.util.cache_from_source(str(p)) for p in sources]
    before = {pyc for pyc in cached if Path(pyc).exists()}
    compileall.compile_dir(str(package), quiet=1)
    try:
        yield
    finally:
        for pyc in cached:
            if pyc not in before:
                Path(pyc).unlink(missing_ok=True)


def _stop(km, kc) -> None:
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def _execute(kc, code: str, on_msg=None, timeout: float = 60) -> dict:
    reply = kc.execute_interactive(code, timeout=timeout, output_hook=on_msg or (lambda m: None))
    return reply


def bench_kernels(report: Report, runs: int) -> None:
    with kernelspecs():
        have_bk = report.peers.get("bash_kernel", "ok") == "ok"
        # start to first kernel_info_reply
        peers = ["ipykernel"] + (["bash_kernel"] if have_bk else [])
        for peer in peers:
            pairs = max(START_PAIRS, runs) if peer == "ipykernel" else max(3, runs // 2)
            try:
                a, b, ratio = start_pairs("sandbox", peer, 1 if runs == 1 else pairs)
            except Exception as e:
                report.add(Row("kernel", "start to kernel_info", None, peer, None, note=f"error: {e}"))
                continue
            target = "<= ipykernel" if peer == "ipykernel" else ""
            report.add(Row("kernel", "start to kernel_info", a, peer, b, ratio=ratio, target=target,
                           passed=(ratio <= 1.0) if target else None,
                           note="our modules compiled at start (editable install)" if target else ""))
            if peer == "ipykernel":
                with compiled_package():
                    a, b, ratio = start_pairs("sandbox", peer, 1 if runs == 1 else pairs)
                report.add(Row("kernel", "start to kernel_info, .pyc as installed", a, peer, b, ratio=ratio,
                               target=target, passed=ratio <= 1.0,
                               note="our modules' bytecode written first, as pip install does"))
        # cell round trips on warm kernels
        ours = _start("sandbox")
        try:
            pairs = [("echo hi", "bash_kernel", "echo hi", "<= bash_kernel"),
                     ("true", "bash_kernel", "true", ""),
                     ("true", "ipykernel", "pass", "")]
            for code, peer, peer_code, target in pairs:
                if peer == "bash_kernel" and not have_bk:
                    continue
                other = _start(peer)
                try:
                    a, b, ratio = measure_pair(lambda: _execute(ours[1], code),
                                               lambda: _execute(other[1], peer_code), runs * 4)
                    report.add(Row("kernel", f"'{code}' cell round trip", a, peer, b, ratio=ratio,
                                   target=target, passed=(ratio <= 1.0) if target else None))
                finally:
                    _stop(*other)
            _bench_streaming(report, ours[1], runs)
        finally:
            _stop(*ours)


def _bench_streaming(report: Report, kc, runs: int) -> None:
    latencies = []
    for _ in range(runs):
        got: list[float] = []

        def hook(msg):
            if msg["msg_type"] == "stream" and not got:
                try:
                    stamp = float(msg["content"]["text"].split()[0])
                except (ValueError, IndexError):
                    return
                got.append(time.time() - stamp)

        _execute(kc, "date +%s.%N; sleep 0.3", hook)
        if got:
            latencies.append(got[0])
    if latencies:
        report.add(Row("streaming", "write -> stream msg latency", Sample.of(latencies)))
    else:
        report.add(Row("streaming", "write -> stream msg latency", None, note="no timestamped stream seen"))
    # a flood: how many messages, at what rate, and that it stays bounded
    counts = {"n": 0, "bytes": 0}

    def count(msg):
        if msg["msg_type"] == "stream":
            counts["n"] += 1
            counts["bytes"] += len(msg["content"]["text"])

    t = time.perf_counter()
    _execute(kc, "for i in $(seq 1 30000); do echo line $i; done", count)
    dt = time.perf_counter() - t
    rate = counts["n"] / dt if dt else 0
    report.add(Row("streaming", "flood: stream messages/s", Sample(rate, rate, rate, 1), unit="msg/s",
                   target="<= ~20 msg/s", passed=rate <= 25,
                   note=f"{counts['n']} messages, {counts['bytes']} chars in {dt:.2f}s"))
