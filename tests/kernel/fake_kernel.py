"""The sandbox kernel with the shell engine replaced by a scripted fake (FakeEngine below), to
test protocol paths a real engine rarely takes: engines that ignore cancellation, output from
other threads, display calls."""
import asyncio
import sys
import threading
import time

from sandbox_kernel import sandbox
from sandbox_kernel.engine import ErrorInfo, RunResult


class FakeEngine:
    """One command per line: ``echo WORDS``, ``err WORDS``, ``sleep S`` (cooperative),
    ``spin S`` (CPU loop that polls the token), ``stubborn S`` (ignores the token),
    ``threads N`` (N threads write N lines each), ``display``, ``input PROMPT``, ``fail``."""

    name = "sh"

    def __init__(self, box):
        self.box = box

    async def run(self, cell, streams, limits):
        for line in cell.splitlines():
            cmd, _, arg = line.strip().partition(" ")
            if not cmd:
                continue
            if cmd == "echo":
                streams.stdout.write(arg.encode() + b"\n")
            elif cmd == "err":
                streams.stderr.write(arg.encode() + b"\n")
            elif cmd == "sleep":
                try:
                    await asyncio.wait_for(streams.cancel.wait(), float(arg))
                    return RunResult(130, ErrorInfo("Interrupted", "sleep interrupted"))
                except asyncio.TimeoutError:
                    pass
            elif cmd == "spin":
                end = time.monotonic() + float(arg)
                while time.monotonic() < end:
                    if streams.cancel.is_set():
                        return RunResult(130, ErrorInfo("Interrupted", "spin interrupted"))
            elif cmd == "stubborn":
                end = time.monotonic() + float(arg)
                while time.monotonic() < end:
                    await asyncio.sleep(0.01)
            elif cmd == "threads":
                n = int(arg)
                workers = [threading.Thread(target=lambda t=t: [streams.stdout.write(f"t{t}-{i}\n".encode())
                                                                for i in range(n)]) for t in range(n)]
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
            elif cmd == "display":
                streams.display({"text/html": "<b>x</b>", "text/plain": "x"}, None, None, False)
            elif cmd == "input":
                if streams.input is None:
                    streams.stdout.write(b"no stdin\n")
                else:
                    value = await streams.input(arg, False)
                    streams.stdout.write(f"got {value!r}\n".encode())
            elif cmd == "fail":
                return RunResult(1, ErrorInfo("ExitStatus", "1", ["ExitStatus: 1"]))
            else:
                return RunResult(127, ErrorInfo("ExitStatus", "127", [f"{cmd}: command not found"]))
        return RunResult(0)

    async def shutdown(self):
        pass


if __name__ == "__main__":
    sys.modules.setdefault("fake_kernel", sys.modules["__main__"])
    sandbox.ENGINE_FACTORIES["sh"] = "fake_kernel:FakeEngine"
    from sandbox_kernel.kernel.app import kernel_main
    kernel_main(sys.argv[1:])
