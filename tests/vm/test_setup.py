"""Set-up is not the cell's time: the guest image build and the VM start run in the engine's
``prepare`` before the wall-time clock starts, show their progress as one output updated in
place, and can be interrupted; ``vm-image`` does them ahead of time (make run)."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from sandbox_kernel.engine import CancelToken, ErrorInfo, RunResult, Streams
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vm import engine as vm_engine

from .vm_helpers import Recorder, run_cell, with_sandbox

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Displays:
    """Records Streams.display calls: (text, display_id, update)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None, bool]] = []

    def __call__(self, data, metadata=None, display_id=None, update=False) -> None:
        self.calls.append((data["text/plain"], display_id, update))


class SlowSetup:
    """An engine whose set-up takes longer than the cell may run."""

    name = "slow"

    def __init__(self, seconds: float, fail: bool = False) -> None:
        self.seconds, self.fail = seconds, fail
        self.ran_with: str | None = None

    async def prepare(self, cell, streams, limits, args=None):
        await asyncio.sleep(self.seconds)
        if self.fail:
            return RunResult(1, ErrorInfo("SetupError", "no", []))
        return None

    async def run(self, cell, streams, limits):
        try:
            await asyncio.wait_for(streams.cancel.wait(), 0.2)
            self.ran_with = streams.cancel.reason
        except asyncio.TimeoutError:
            self.ran_with = "time left"
        return RunResult(0)

    async def shutdown(self):
        pass


def run_in(sandbox: Sandbox, engine_name: str, cell: str, display=None, cancel=None, limits=None):
    out, err = Recorder(), Recorder()
    result = asyncio.run(sandbox.run(engine_name, cell, Streams(out, err, cancel or CancelToken(), display=display),
                                     limits))
    return result, out.text, err.text


def test_prepare_runs_before_the_wall_time_starts():
    sandbox = Sandbox()
    slow = sandbox.engines["slow"] = SlowSetup(1.0)
    result, _, _ = run_in(sandbox, "slow", "x", limits=Limits(wall_time=0.5))
    assert result.status == 0 and slow.ran_with == "time left"
    # a set-up that fails ends the run with its result
    sandbox.engines["slow"] = SlowSetup(0.0, fail=True)
    result, _, _ = run_in(sandbox, "slow", "x")
    assert result.status == 1 and result.error.ename == "SetupError"


def _engine_with_fake_start(lines_and_pauses):
    """A VmEngine whose start() reports progress lines with pauses, like a slow image build."""
    sandbox = Sandbox()
    engine = sandbox.engine("vm")
    state = {"cancelled": False}

    async def fake_start(progress):
        try:
            for line, pause in lines_and_pauses:
                progress(line)
                await asyncio.sleep(pause)
        except asyncio.CancelledError:
            state["cancelled"] = True
            raise
    engine.start = fake_start
    return engine, state


def test_setup_progress_is_one_display_updated_in_place():
    engine, _ = _engine_with_fake_start([("building the guest image from Debian packages (first use, ~10-60 s)", 2.3),
                                         ("guest/build: built", 0.0), ("vm: ready in 2.30 s", 0.0)])
    displays = Displays()
    result = asyncio.run(engine.prepare("true", Streams(Recorder(), Recorder(), CancelToken(), display=displays),
                                        Limits()))
    assert result is None
    texts = [text for text, _, _ in displays.calls]
    assert len({display_id for _, display_id, _ in displays.calls}) == 1
    assert [update for _, _, update in displays.calls] == [False] + [True] * (len(displays.calls) - 1)
    # first use: a headline with the usual time and the time so far, above the step
    assert texts[0] == ("vm: first use on this host: building the guest image from Debian packages, then booting "
                        "it once (usually 1-3 min in all; 0 s so far)")
    assert any("(usually 1-3 min in all; 2 s so far)" in text for text in texts[1:-2])  # time passes
    assert texts[-2].endswith("\nvm: guest/build: built")
    assert texts[-1].startswith("vm: first use on this host: the guest image was built and booted once in 2 s")
    assert texts[-1].endswith("\nvm: ready in 2.30 s")
    # no display (the CLI): the same lines on stderr
    engine, _ = _engine_with_fake_start([("vm: ready in 0.30 s", 0.0)])
    err = Recorder()
    assert asyncio.run(engine.prepare("true", Streams(Recorder(), err, CancelToken()), Limits())) is None
    assert err.text == "vm: ready in 0.30 s\n"


def test_the_first_use_estimate_follows_the_build():
    """The headline keeps the estimate while within it, says so when the build takes longer,
    and ends with the time it took; a cached image shows no headline."""
    now = [100.0]
    displays = Displays()
    progress = vm_engine.SetupProgress(Streams(Recorder(), Recorder(), CancelToken(), display=displays),
                                       clock=lambda: now[0])
    progress("building the guest image from Debian packages: first use on this host, about 1-3 min")
    now[0] += 40
    progress("guest/build: downloading 212 packages with apt-get download")
    now[0] += 5
    assert progress.text() == ("vm: first use on this host: building the guest image from Debian packages, then "
                               "booting it once (usually 1-3 min in all; 45 s so far)\nvm: guest/build: "
                               "downloading 212 packages with apt-get download (45 s)")
    now[0] += 200
    assert progress.text().startswith("vm: first use on this host: building the guest image and booting it once is "
                                      "taking longer than the usual 1-3 min (4 min 5 s so far")
    progress("vm: ready in 31.20 s")
    assert displays.calls[-1][0] == ("vm: first use on this host: the guest image was built and booted once in "
                                     "4 min 5 s; later VMs resume in about a second\nvm: ready in 31.20 s")
    cached = vm_engine.SetupProgress(Streams(Recorder(), Recorder(), CancelToken(), display=Displays()))
    cached("vm: starting the microVM (TCG, resuming a saved state)...")
    assert cached.text(with_time=False) == "vm: starting the microVM (TCG, resuming a saved state)..."


def test_setup_can_be_interrupted():
    engine, state = _engine_with_fake_start([("building the guest image", 60.0)])
    cancel = CancelToken()

    async def main():
        asyncio.get_running_loop().call_later(0.3, cancel.set, "interrupt")
        return await engine.prepare("true", Streams(Recorder(), Recorder(), cancel, display=Displays()), Limits())
    result = asyncio.run(main())
    assert result.status == 130 and result.error.ename == "Interrupted"
    assert state["cancelled"]


@pytest.mark.vm
@pytest.mark.slow
def test_a_slow_image_build_is_not_counted_in_the_cell(guest_image, monkeypatch):
    """The first cell on an empty cache: a build (here a fake one taking 2.5 s) and the boot
    happen before a cell with a wall time of 1.5 s, which then runs normally."""
    async def slow_build(progress=None):
        progress("building the guest image from Debian packages (first use, ~10-60 s)")
        await asyncio.sleep(2.5)
        return guest_image
    monkeypatch.setattr(vm_engine, "ensure_image", slow_build)
    displays = Displays()

    async def body(sb):
        run = await run_cell(sb, "sleep 0.5; echo ran", display=displays, wall_time=1.5)
        assert run.status == 0 and run.out.text == "ran\n", run.err.text
        assert run.ended - run.started > 2.5
        texts = [text for text, _, _ in displays.calls]
        assert texts[0].startswith("vm: first use on this host: building the guest image")
        assert texts[-1].endswith("\nvm: ready in " + texts[-1].rsplit("ready in ", 1)[1])
        assert any("resuming a saved state" in text for text in texts)
        assert run.err.text == ""  # progress went to the display, not to stderr
        # later cells have nothing to set up: no display at all
        displays.calls.clear()
        run = await run_cell(sb, "echo again", display=displays)
        assert run.out.text == "again\n" and displays.calls == []
    with_sandbox(body)


@pytest.mark.vm
@pytest.mark.slow
def test_vm_image_command_prepares_the_vm(guest_image):
    proc = subprocess.run([sys.executable, "-m", "sandbox_kernel", "vm-image"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "vm: ready in" in proc.stdout and f"guest image {guest_image.hash} ready" in proc.stdout


@pytest.mark.vm
@pytest.mark.slow
def test_install_with_vm_image_prepares_the_vm_too(guest_image, tmp_path):
    """`install --vm-image`: the kernelspec, then the VM set-up the first %%vm cell would wait for."""
    proc = subprocess.run([sys.executable, "-m", "sandbox_kernel", "install", "--prefix", str(tmp_path),
                           "--vm-image"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "share/jupyter/kernels/sandbox/kernel.json").is_file()
    assert proc.stdout.index("Installed kernelspec") < proc.stdout.index("vm: ready in")
    assert f"guest image {guest_image.hash} ready" in proc.stdout
