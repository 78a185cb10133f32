"""``python -m sandbox_kernel vm-image``: build the ``%%vm`` guest image if it is not cached
and start the VM once (a full boot saves the state later kernels resume from), printing the
progress. ``make run`` does this before the tour, so that no cell waits for the set-up.
``--export DIR`` writes the image as a portable directory, ``--import DIR`` installs one (for
hosts without Debian's apt); ``--no-start`` skips the VM start (a build stage without QEMU)."""
from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from ..sandbox import Sandbox
from .engine import VmError
from .image import ImageError, cached_image, ensure_image, export_image, import_image


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


async def export_to(directory: Path, say) -> int:
    image = cached_image() or await ensure_image(say)
    digest = export_image(image, directory)
    say(f"exported guest image {image.hash} to {directory}; guest-export.json SHA-256 {digest}")
    return 0


def vm_image_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox_kernel vm-image", description=__doc__)
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--export", metavar="DIR", type=Path,
                      help="write the guest image (built if needed) and guest-export.json into DIR")
    what.add_argument("--import", dest="import_dir", metavar="DIR", type=Path,
                      help="install the guest image exported into DIR, after checking its sizes and hashes")
    parser.add_argument("--sha256", metavar="HEX", help="with --import: the SHA-256 guest-export.json must have "
                                                        "(printed by --export)")
    parser.add_argument("--no-start", action="store_true", help="only build or import, do not start the VM")
    args = parser.parse_args(argv)
    if args.sha256 and not args.import_dir:
        parser.error("--sha256 goes with --import")
    started = time.monotonic()

    def say(line: str) -> None:
        print(f"vm-image [{time.monotonic() - started:5.1f} s] {line}", flush=True)
    try:
        if args.export:
            return asyncio.run(export_to(args.export, say))
        if args.import_dir:
            image = import_image(args.import_dir, args.sha256)
            say(f"imported guest image {image.hash} into {image.path}")
        elif args.no_start:
            say(f"guest image {(cached_image() or asyncio.run(ensure_image(say))).hash} ready")
    except (ImageError, OSError) as e:
        print(f"vm-image: {e}", file=sys.stderr)
        return 1
    return 0 if args.no_start else asyncio.run(prepare_vm(say))
