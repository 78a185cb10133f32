"""The Python engine's host-side parts without a kernel: the command line, pip, the set-up."""
from __future__ import annotations

import asyncio
import threading

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.python import artifact, engine as py_engine
from sandbox_kernel.python.cmdline import Exit, Plan, parse, pip
from sandbox_kernel.sandbox import Sandbox


def test_command_line_as_cpython_reads_it():
    assert parse(["-c", "print(1)", "a", "-b"]) == Plan("c", "print(1)", ["-c", "a", "-b"])
    assert parse(["-u", "-m", "json.tool", "--sort-keys"]) == Plan("m", "json.tool", ["json.tool", "--sort-keys"])
    assert parse(["-mjson.tool"]) == Plan("m", "json.tool", ["json.tool"])
    assert parse(["-B", "script.py", "-c", "x"]) == Plan("file", "script.py", ["script.py", "-c", "x"])
    assert parse([]) == Plan("stdin", None, [""])
    assert parse(["-", "a"]) == Plan("stdin", None, ["-", "a"])
    assert parse(["-X", "dev", "-W", "ignore", "s.py"]) == Plan("file", "s.py", ["s.py"])
    assert parse(["-V"]).stdout == "Python 3.15.0\n"
    bad = parse(["-c"])
    assert isinstance(bad, Exit) and bad.status == 2 and "Argument expected" in bad.stderr
    assert parse(["-i"]).status == 2 and parse(["-Z"]).status == 2


def test_pip_answers_from_the_manifest():
    packages = [("numpy", "2.5.2"), ("pandas", "3.0.6"), ("scikit-learn", "1.9.1")]
    done = pip(["install", "numpy", "scikit_learn"], packages)
    assert done.status == 0 and "numpy 2.5.2" in done.stdout and "scikit-learn 1.9.1" in done.stdout
    done = pip(["install", "requests"], packages)
    assert done.status == 1 and "cannot install requests" in done.stderr
    assert pip(["show", "pandas"], packages).stdout.startswith("Name: pandas\nVersion: 3.0.6")
    assert pip(["freeze"], packages).stdout.splitlines()[0] == "numpy==2.5.2"
    assert ("numpy", artifact.packages()[0][1]) in artifact.packages() or artifact.packages()


def test_first_use_compiles_before_the_cells_clock_with_progress_in_place(monkeypatch):
    """The compile (faked: it ends after three progress ticks, longer than the wall time)
    happens in prepare: the cell then runs under its full wall time."""
    ticks, renders = threading.Event(), []
    state = {"compiled": False}

    def fake_compile(progress=None):
        ticks.wait(30)
        state["compiled"] = True

    monkeypatch.setattr(artifact, "is_compiled", lambda: state["compiled"])
    monkeypatch.setattr(artifact, "compile_module", fake_compile)
    monkeypatch.setattr(py_engine, "SETUP_TICK", 0.05)

    def display(data, metadata, display_id, update):
        renders.append((data["text/plain"], display_id, update))
        if sum(1 for text, *_ in renders if text.endswith(" s)")) >= 8:
            ticks.set()

    class Out:
        def __init__(self):
            self.data = b""

        def write(self, data):
            self.data += data

    sandbox = Sandbox()
    sandbox.limits.wall_time = 0.3
    out, err = Out(), Out()
    loop = asyncio.new_event_loop()
    try:
        result = loop.run_until_complete(sandbox.run("python", "1 + 1", Streams(out, err, CancelToken(),
                                                                                 display=display)))
        loop.run_until_complete(sandbox.shutdown())
    finally:
        loop.close()
    assert result.status == 0 and result.value == {"text/plain": "2"}, (result, err.data)
    assert len({display_id for _, display_id, _ in renders}) == 1
    assert [update for *_, update in renders][:2] == [False, True]
    assert "compiled" in renders[-1][0]
