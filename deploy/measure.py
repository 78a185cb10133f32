"""Capacity figures for docs/deploy.md: N sandbox kernels started at once on this host (start
latency to the first kernel_info reply, p50/p95/max), RSS of an idle kernel, then a cell mix (a
shell pipeline and a %%js cell) in all N at once (its latency p50/p95, RSS after it: what a %%js
context adds), and a running %%vm in one of them (QEMU's RSS, the kernel's own growth).
    .venv/bin/python deploy/measure.py [N]      (default 8; prints JSON)"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jupyter_client.manager import start_new_kernel


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def child_rss_kib(pid: int, prefix: str) -> int:
    total = 0
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{p}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{p}/comm") as f:
                comm = f.read().strip()
            if parent == pid and comm.startswith(prefix):
                total += rss_kib(int(p))
        except (OSError, StopIteration, ValueError):
            continue
    return total


def run(kc, code: str, timeout: float = 600) -> str:
    msg_id = kc.execute(code)
    out = []
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            out.append(msg["content"]["evalue"])
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return "".join(out)


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def start(_):
    started = time.monotonic()
    km, kc = start_new_kernel(kernel_name="sandbox", startup_timeout=300)
    return time.monotonic() - started, km, kc


def main(n: int) -> dict:
    from sandbox_kernel.kernel.install import install

    prefix = tempfile.mkdtemp(prefix=f"sk-measure-{os.getpid()}-")
    install("sandbox", prefix=prefix)
    os.environ["JUPYTER_PATH"] = str(Path(prefix) / "share" / "jupyter")
    with ThreadPoolExecutor(n) as pool:
        started = list(pool.map(start, range(n)))
    latencies = sorted(s for s, _, _ in started)
    kernels = [(km, kc) for _, km, kc in started]
    result = {"kernels": n, "cpus": os.cpu_count(),
              "start_s_p50": round(statistics.median(latencies), 2), "start_s_p95": round(p95(latencies), 2),
              "start_s_max": round(latencies[-1], 2)}
    for _, kc in kernels:
        run(kc, "echo warm > /workspace/x; cat /workspace/x")
    idle = [rss_kib(km.provisioner.process.pid) for km, _ in kernels]
    result["idle_rss_mib_median"] = round(statistics.median(idle) / 1024, 1)
    # the cell mix, in every kernel at once: a shell pipeline over the VFS, then a %%js cell
    def mix(kc) -> float:
        t0 = time.monotonic()
        assert run(kc, "seq 1 20000 | sort -r | grep -c 999; wc -l < /workspace/x").split() == ["38", "1"]
        assert "42" in run(kc, "%%js\nconsole.log([...Array(7).keys()].reduce((a, b) => a + b, 0) * 2)")
        return time.monotonic() - t0
    with ThreadPoolExecutor(n) as pool:
        mixes = sorted(pool.map(mix, [kc for _, kc in kernels]))
    result["mix_s_p50"], result["mix_s_p95"] = round(statistics.median(mixes), 2), round(p95(mixes), 2)
    after = [rss_kib(km.provisioner.process.pid) for km, _ in kernels]
    result["rss_after_mix_mib_median"] = round(statistics.median(after) / 1024, 1)
    result["rss_after_mix_mib_max"] = round(max(after) / 1024, 1)
    result["js_context_mib"] = round((statistics.median(after) - statistics.median(idle)) / 1024, 1)
    km, kc = kernels[0]
    pid = km.provisioner.process.pid
    t0 = time.monotonic()
    out = run(kc, "%%vm\necho $((6*7))")
    result["vm_first_cell_s"] = round(time.monotonic() - t0, 2)
    assert "42" in out, out
    t0 = time.monotonic()
    run(kc, "%%vm\ntrue")
    result["vm_next_cell_s"] = round(time.monotonic() - t0, 2)
    result["vm_qemu_rss_mib"] = round(child_rss_kib(pid, "qemu") / 1024, 1)
    result["kernel_rss_with_js_and_vm_mib"] = round(rss_kib(pid) / 1024, 1)
    for km, kc in kernels:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return result


if __name__ == "__main__":
    try:
        print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 8), indent=1))
    finally:
        for leftover in Path(tempfile.gettempdir()).glob(f"sk-measure-{os.getpid()}-*"):
            shutil.rmtree(leftover, ignore_errors=True)
