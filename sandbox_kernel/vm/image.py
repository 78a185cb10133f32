"""The guest image (kernel, initramfs, root image) built by ``guest/build.py``, and its saved VM states.

The recipe (package list, agent source, init scripts, build script) is package data in
``guest/``; its hash and the cache directory are defined once, in ``guest/build.py``."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .guest.build import BUILD_SCRIPT, recipe_pointer


class ImageError(RuntimeError):
    pass


@dataclass
class GuestImage:
    path: Path
    manifest: dict

    @property
    def vmlinux(self) -> Path:
        return self.path / "vmlinux"

    @property
    def initrd(self) -> Path:
        return self.path / "initrd.cpio"

    @property
    def rootfs(self) -> Path:
        return self.path / "rootfs.squashfs"

    @property
    def hash(self) -> str:
        return self.manifest.get("hash", self.path.name)

    def state_path(self, key: str) -> Path:
        return self.path / f"state-{key}.bin"


def _load(path: Path) -> GuestImage | None:
    try:
        manifest = json.loads((path / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    if not all((path / name).is_file() for name in ("vmlinux", "initrd.cpio", "rootfs.squashfs")):
        return None
    return GuestImage(path, manifest)


def cached_image() -> GuestImage | None:
    """The image for the current recipe when guest/build.py has made it, else None."""
    try:
        return _load(Path(recipe_pointer().read_text().strip()))
    except OSError:
        return None


async def ensure_image(progress: Callable[[str], None] | None = None) -> GuestImage:
    """The cached image, or build it now with guest/build.py (its progress lines are relayed)."""
    image = cached_image()
    if image is not None:
        return image
    if progress:
        progress("building the guest image from Debian packages (first use, ~10-60 s)")
    # its own session: an interrupted build is killed with its apt-get and gcc children
    proc = await asyncio.create_subprocess_exec(sys.executable, str(BUILD_SCRIPT), stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE, start_new_session=True)
    lines: list[str] = []
    assert proc.stderr is not None and proc.stdout is not None

    async def relay() -> None:
        async for raw in proc.stderr:  # type: ignore[union-attr]
            line = raw.decode(errors="replace").rstrip()
            lines.append(line)
            if progress:
                progress(line)
    relay_task = asyncio.ensure_future(relay())
    try:
        out = await proc.stdout.read()
        await proc.wait()
        await relay_task
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
        relay_task.cancel()
    if proc.returncode != 0:
        raise ImageError("guest/build.py failed: " + " | ".join(lines[-5:]))
    image = _load(Path(out.decode().strip().splitlines()[-1]))
    if image is None:
        raise ImageError("guest/build.py produced no usable image")
    return image
