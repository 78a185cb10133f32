"""The guest image (kernel, initramfs, root image) built by ``guest/build``, and its saved VM states."""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

#: the guest recipe (agent source, build script, init scripts, package list): package data
GUEST_DIR = Path(os.environ.get("SANDBOX_KERNEL_GUEST_DIR", Path(__file__).resolve().parent / "guest"))


class ImageError(RuntimeError):
    pass


def cache_root() -> Path:
    base = os.environ.get("SANDBOX_KERNEL_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "sandbox-kernel"


def recipe_hash() -> str:
    """Same computation as guest/build's recipe_hash (the inputs kept in the repository)."""
    h = hashlib.sha256()
    for f in (GUEST_DIR / "packages.txt", GUEST_DIR / "agent" / "agent.c", GUEST_DIR / "init",
              GUEST_DIR / "initramfs-init", GUEST_DIR / "build"):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


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
    """The image for the current recipe when guest/build has made it, else None."""
    try:
        pointer = cache_root() / "guest" / f"recipe-{recipe_hash()}"
        return _load(Path(pointer.read_text().strip()))
    except OSError:
        return None


async def ensure_image(progress: Callable[[str], None] | None = None) -> GuestImage:
    """The cached image, or build it now with guest/build (its progress lines are relayed)."""
    image = cached_image()
    if image is not None:
        return image
    build = GUEST_DIR / "build"
    if not build.exists():
        raise ImageError(f"no guest image and no build script at {build}")
    if progress:
        progress("building the guest image from Debian packages (first use, ~10-60 s)")
    proc = await asyncio.create_subprocess_exec(sys.executable, str(build), stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    lines: list[str] = []
    assert proc.stderr is not None and proc.stdout is not None

    async def relay() -> None:
        async for raw in proc.stderr:  # type: ignore[union-attr]
            line = raw.decode(errors="replace").rstrip()
            lines.append(line)
            if progress:
                progress(line)
    relay_task = asyncio.ensure_future(relay())
    out = await proc.stdout.read()
    await proc.wait()
    await relay_task
    if proc.returncode != 0:
        raise ImageError("guest/build failed: " + " | ".join(lines[-5:]))
    image = _load(Path(out.decode().strip().splitlines()[-1]))
    if image is None:
        raise ImageError("guest/build produced no usable image")
    return image
