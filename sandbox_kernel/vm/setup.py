"""``python -m sandbox_kernel vm-image``: build the ``%%vm`` guest image if it is not cached
and start the VM once (a full boot saves the state later kernels resume from), printing the
progress. ``make run`` does this before the tour, so that no cell waits for the set-up."""
from __future__ import annotations

import argparse
import asyncio
import time

from ..sandbox import Sandbox
from .engine import VmError


async def prepare_vm(say) -> int:
    sandbox = Sandbox()
    engine = sandbox.engine("vm")
    try:
        await engine.start(say)
        say(f"vm: guest image {engine.image.hash if engine.image else '?'} ready, "
            f"started by {engine.machine.boot_mode if engine.machine else '?'}")
        return 0
    except VmError as e:
        say(f"vm: {e}")
        return 1
    finally:
        await sandbox.shutdown()


def vm_image_main(argv: list[str]) -> int:
    argparse.ArgumentParser(prog="python -m sandbox_kernel vm-image", description=__doc__).parse_args(argv)
    started = time.monotonic()

    def say(line: str) -> None:
        print(f"vm-image [{time.monotonic() - started:5.1f} s] {line}", flush=True)
    return asyncio.run(prepare_vm(say))
