"""The persistent workspace's cost per cell: unchanged (the common case) and proportional to the
changed bytes otherwise (target: <= 2 ms for an unchanged workspace)."""
from __future__ import annotations

import tempfile
from pathlib import Path

from .harness import Report, Row, measure


def bench_store(report: Report, runs: int) -> None:
    from sandbox_kernel.kernel.storage.store import WorkspaceStore
    from sandbox_kernel.sandbox import Sandbox

    with tempfile.TemporaryDirectory() as tmp:
        sb = Sandbox()
        for i in range(1000):
            sb.fs.write_bytes(f"/workspace/f{i:04}.txt", b"x" * 1000)
        store = WorkspaceStore(Path(tmp) / "ws.sqlite", sb.fs)
        store.open()
        store.save()
        unchanged = measure(store.save, max(runs, 20))
        report.add(Row("store", "save after a cell, 1000 files unchanged", unchanged,
                       target="<= 2 ms", passed=unchanged.median <= 0.002))
        for size in (1, 10):
            data = b"y" * (size << 20)

            def change_and_save() -> None:
                sb.fs.write_bytes("/workspace/big.bin", data)
                store.save()
            sample = measure(change_and_save, runs)
            report.add(Row("store", f"save after a cell, {size} MiB changed", sample,
                           note=f"{size / sample.median:.0f} MiB/s (sqlite WAL, synchronous=FULL)"))
        store.close()
