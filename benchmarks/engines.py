"""JS engine (against node), VM engine, and memory per sandbox / idle kernel."""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import time

from .harness import Report, Row, Sample

FIB = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }"
JSON_5MB = ("const big = Array.from({length: 60000}, (_, i) => ({id: i, name: 'item' + i, "
            "tags: ['a', 'b', 'c'], score: i * 1.5}));")


class _Collect:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data


def _run(loop, sandbox, engine: str, code: str):
    from sandbox_kernel.engine import CancelToken, Streams

    out, err = _Collect(), _Collect()
    result = loop.run_until_complete(sandbox.run(engine, code, Streams(out, err, CancelToken())))
    return result, out.data, err.data


def _timed(loop, sandbox, engine: str, code: str) -> float:
    t = time.perf_counter()
    result, _, err = _run(loop, sandbox, engine, code)
    dt = time.perf_counter() - t
    if result.status != 0:
        raise RuntimeError(f"{engine} cell failed ({result.status}): {err.decode(errors='replace')[:200]}")
    return dt


def _node_time(code_setup: str, code: str, runs: int) -> Sample | None:
    if not shutil.which("node"):
        return None
    script = (f"{code_setup}\nconst ts=[];for(let i=0;i<{runs + 1};i++){{const t=performance.now();"
              f"{code};ts.push(performance.now()-t);}}console.log(JSON.stringify(ts.slice(1)));")
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout
    import json
    return Sample.of([t / 1000 for t in json.loads(out)])


def bench_js(report: Report, runs: int) -> None:
    from sandbox_kernel.sandbox import Sandbox

    loop = asyncio.new_event_loop()
    try:
        sandbox = Sandbox()
        t = time.perf_counter()
        _timed(loop, sandbox, "js", "1+1")
        first = time.perf_counter() - t
        report.add(Row("js", "first %%js cell (engine start + 1+1)", Sample(first, first, first, 1),
                       target="<= 150 ms", passed=first <= 0.150))
        warm = Sample.of([_timed(loop, sandbox, "js", "1+1") for _ in range(runs * 4)])
        sh = Sample.of([_timed(loop, sandbox, "sh", "true") for _ in range(runs * 4)])
        report.add(Row("js", "'1+1' cell", warm, "shell 'true' cell", sh, ratio=warm.median / sh.median,
                       target="<= 5 ms above true", passed=(warm.median - sh.median) <= 0.005))
        _timed(loop, sandbox, "js", FIB)
        ours = Sample.of([_timed(loop, sandbox, "js", "fib(27)") for _ in range(runs)])
        node = _node_time(FIB, "fib(27)", runs)
        report.add(Row("js", "fib(27)", ours, "node", node,
                       ratio=(ours.median / node.median) if node else None))
        _timed(loop, sandbox, "js", JSON_5MB)
        code = "JSON.parse(JSON.stringify(big)).length"
        ours = Sample.of([_timed(loop, sandbox, "js", code) for _ in range(runs)])
        node = _node_time(JSON_5MB, code, runs)
        report.add(Row("js", "JSON stringify+parse ~5 MB", ours, "node", node,
                       ratio=(ours.median / node.median) if node else None))
        loop.run_until_complete(sandbox.shutdown())
    except Exception as e:
        report.add(Row("js", "js engine", None, note=f"unavailable: {e}"))
    finally:
        loop.close()


def _qemu_rss_kib() -> int:
    total = 0
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            if not comm.startswith("qemu"):
                continue
            with open(f"/proc/{pid}/status") as f:
                status = f.read()
            if int(re.search(r"PPid:\s+(\d+)", status).group(1)) != me:
                continue
            total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
        except (OSError, ValueError, AttributeError):
            continue
    return total


def _vm_first_cell(loop, full_boot: bool) -> tuple[float, str, str]:
    """A fresh sandbox's first ``%%vm`` cell: (seconds, boot mode, accelerator)."""
    from sandbox_kernel.sandbox import Sandbox

    sandbox = Sandbox()
    try:
        engine = sandbox.engine("vm")
        if full_boot:
            engine.resume_states = engine.save_states = False
        seconds = _timed(loop, sandbox, "vm", "true")
        machine = engine.machine
        return seconds, machine.boot_mode, machine.config.accel.upper()
    finally:
        loop.run_until_complete(sandbox.shutdown())


def bench_vm(report: Report, runs: int) -> None:
    from sandbox_kernel.sandbox import Sandbox

    loop = asyncio.new_event_loop()
    try:
        _vm_first_cell(loop, full_boot=False)  # builds the image and the saved state when missing
        resumes = [_vm_first_cell(loop, full_boot=False) for _ in range(max(runs, 3))]
        accel = resumes[0][2]
        modes = sorted({mode for _, mode, _ in resumes})
        first = Sample.of([t for t, _, _ in resumes])
        report.add(
            Row(
                "vm",
                "first %%vm cell, resume from saved state",
                first,
                target="<= 0.5 s",
                passed=first.median <= 0.5 and modes == ["resume"],
                note=f"{accel}; started by {', '.join(modes)}",
            )
        )
        boots = Sample.of([_vm_first_cell(loop, full_boot=True)[0] for _ in range(max(runs - 1, 2))])
        report.add(Row("vm", "first %%vm cell, full boot", boots, target="<= 2 s", passed=boots.median <= 2.0,
                       note=accel))

        sandbox = Sandbox()
        _timed(loop, sandbox, "vm", "true")
        engine = sandbox.engine("vm")
        warm = Sample.of([_timed(loop, sandbox, "vm", "true") for _ in range(max(runs * 10, 20))])
        report.add(Row("vm", "warm 'true' cell (sync in, bash -c, sync out)", warm, target="<= 10 ms",
                       passed=warm.median <= 0.010, note=accel))
        client = engine.machine.client

        async def exec_true() -> float:
            t = time.perf_counter()
            execution = await client.exec(["true"])
            async for _ in execution.events():
                pass
            return time.perf_counter() - t
        round_trip = Sample.of([loop.run_until_complete(exec_true()) for _ in range(max(runs * 10, 20))])
        report.add(Row("vm", "agent exec round trip (`true`)", round_trip, note=accel))

        sandbox.fs.write_bytes("/workspace/up.bin", os.urandom(50 * 1024 * 1024))
        up = _timed(loop, sandbox, "vm", "test -s /workspace/up.bin")
        report.add(Row("vm", "50 MB upload (sync in)", Sample(up, up, up, 1), unit="s",
                       note=f"{50 / up:.0f} MB/s; {accel}"))
        sandbox.fs.unlink("/workspace/up.bin")
        _timed(loop, sandbox, "vm", "head -c 52428800 /dev/zero > /tmp/down.bin")
        down = _timed(loop, sandbox, "vm", "cp /tmp/down.bin /workspace/down.bin")
        report.add(Row("vm", "50 MB download (sync out)", Sample(down, down, down, 1), unit="s",
                       note=f"{50 / down:.0f} MB/s incl. the guest's cp; {accel}"))
        rss = _qemu_rss_kib()
        memory = loop.run_until_complete(engine._guest_memory()) or ""
        report.add(Row("vm", "idle VM memory (QEMU RSS)", Sample(rss * 1024, rss * 1024, rss * 1024, 1),
                       unit="bytes", note=f"guest: {memory}; {accel}"))
        loop.run_until_complete(sandbox.shutdown())
    except Exception as e:
        report.add(Row("vm", "vm engine", None, note=f"unavailable: {e}"))
    finally:
        loop.close()


MEMORY_PROBE = r"""
import gc, tracemalloc
from sandbox_kernel.sandbox import Sandbox
keep = [Sandbox()]
gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
keep += [Sandbox() for _ in range(100)]
gc.collect()
after = tracemalloc.get_traced_memory()[0]
print((after - before) / 100)
"""


def bench_memory(report: Report, runs: int) -> None:
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE], capture_output=True, text=True)
    if out.returncode != 0:
        report.add(Row("memory", "per idle Sandbox()", None, note=out.stderr.strip()[-200:]))
    else:
        per = float(out.stdout.strip())
        report.add(Row("memory", "per idle Sandbox() (100 in one process)", Sample(per, per, per, 1),
                       unit="bytes", target="<= 64 KiB", passed=per <= 64 * 1024,
                       note="tinysandbox advertises ~6 KiB"))
    from .kernels import _start, _stop, kernelspecs

    with kernelspecs():
        for name in ("sandbox", "ipykernel"):
            try:
                km, kc = _start(name)
            except Exception as e:
                report.add(Row("memory", f"idle kernel RSS ({name})", None, note=f"error: {e}"))
                continue
            try:
                time.sleep(0.5)
                pid = km.provisioner.process.pid
                with open(f"/proc/{pid}/status") as f:
                    rss = int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) * 1024
                report.add(Row("memory", f"idle kernel RSS ({name})", Sample(rss, rss, rss, 1), unit="bytes"))
            finally:
                _stop(km, kc)


GROUPBY_SETUP = ("import numpy as np, pandas as pd\nrng = np.random.default_rng(0)\n"
                 "df = pd.DataFrame({'k': rng.integers(0, 1000, 1_000_000), 'v': rng.random(1_000_000)})")
GROUPBY = "df.groupby('k')['v'].agg(['sum', 'mean', 'count']).shape"


def _host_pandas_time(runs: int) -> Sample | None:
    """The same groupby in the host's CPython with pandas (a peer: benchmarks/requirements.txt)."""
    script = (f"{GROUPBY_SETUP}\nimport time, json\nts = []\nfor _ in range({runs + 1}):\n"
              f"    t = time.perf_counter(); {GROUPBY}; ts.append(time.perf_counter() - t)\n"
              "print(json.dumps(ts[1:]))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    import json
    return Sample.of(json.loads(proc.stdout))


def bench_python(report: Report, runs: int) -> None:
    """%%python: CPython 3.15 in wasmtime (the compiled module cached by `make python-setup`)."""
    from sandbox_kernel.python import artifact
    from sandbox_kernel.sandbox import Sandbox

    if not artifact.is_compiled():
        t = time.perf_counter()
        artifact.compile_module()
        dt = time.perf_counter() - t
        report.add(Row("python", "compile the module to native code (once per host)", Sample(dt, dt, dt, 1)))
    loop = asyncio.new_event_loop()
    try:
        firsts, imports = [], []
        for _ in range(max(1, runs // 2)):
            sandbox = Sandbox()
            t = time.perf_counter()
            _timed(loop, sandbox, "python", "1+1")
            firsts.append(time.perf_counter() - t)
            imports.append(_timed(loop, sandbox, "python", "import numpy, pandas"))
            loop.run_until_complete(sandbox.shutdown())
        first = Sample.of(firsts)
        report.add(Row("python", "first %%python cell in a fresh sandbox (instance + 1+1)", first,
                       target="<= 1 s", passed=first.median <= 1.0))
        report.add(Row("python", "import numpy, pandas (first time in an interpreter)", Sample.of(imports),
                       target="<= 2.5 s", passed=Sample.of(imports).median <= 2.5))
        sandbox = Sandbox()
        _timed(loop, sandbox, "python", "1+1")
        warm = Sample.of([_timed(loop, sandbox, "python", "1+1") for _ in range(runs * 4)])
        sh = Sample.of([_timed(loop, sandbox, "sh", "true") for _ in range(runs * 4)])
        report.add(Row("python", "'1+1' cell", warm, "shell 'true' cell", sh, ratio=warm.median / sh.median,
                       target="<= 5 ms above true", passed=(warm.median - sh.median) <= 0.005))
        _timed(loop, sandbox, "python", GROUPBY_SETUP)
        _timed(loop, sandbox, "python", GROUPBY)
        ours = Sample.of([_timed(loop, sandbox, "python", GROUPBY) for _ in range(runs)])
        host = _host_pandas_time(runs)
        report.add(Row("python", "pandas groupby sum/mean/count over 1M rows", ours, "host CPython+pandas", host,
                       ratio=(ours.median / host.median) if host else None,
                       note="" if host else "host pandas missing (benchmarks/requirements.txt)"))
        loop.run_until_complete(sandbox.shutdown())
    finally:
        loop.close()
