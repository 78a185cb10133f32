"""The guest image (kernel, initramfs, root image) built by ``guest/build.py``, and its saved VM states.

The recipe (package list, agent source, init scripts, build script) is the package
``sandbox_kernel.guest`` (the repository's ``guest/``); its hash and the cache directory are
defined once, in ``guest/build.py``.
An image also travels as a directory (``export_image`` / ``import_image``, the ``vm-image
--export/--import`` commands) to hosts that cannot build it (no Debian apt: Ubuntu-based
images, a build stage elsewhere): its files and ``guest-export.json`` naming their sizes and
SHA-256 hashes, checked on import before anything is installed."""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..guest.build import BUILD_SCRIPT, guest_dir, publish, recipe_hash, recipe_pointer


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


IMAGE_FILES = ("vmlinux", "initrd.cpio", "rootfs.squashfs", "manifest.json")
EXPORT_MANIFEST = "guest-export.json"
EXPORT_FORMAT = "sandbox-kernel-guest/1"
#: bounds on what an import reads (the root image is ~130 MB; the build's manifest a few KiB)
MAX_EXPORT_MANIFEST = 64 << 10
MAX_FILE_BYTES = {"vmlinux": 1 << 30, "initrd.cpio": 1 << 30, "rootfs.squashfs": 16 << 30,
                  "manifest.json": 1 << 20}
HASH16 = re.compile(r"[0-9a-f]{16}")
SHA256 = re.compile(r"[0-9a-f]{64}")
CHUNK = 1 << 20


@dataclass(frozen=True)
class ExportManifest:
    recipe: str
    hash: str
    #: file name -> (bytes, sha256 hex)
    files: dict[str, tuple[int, str]]


def parse_export_manifest(data: bytes) -> ExportManifest:
    """``guest-export.json`` of an exported image; ImageError for anything but exactly the
    expected names, sizes within bounds and hex hashes."""
    if len(data) > MAX_EXPORT_MANIFEST:
        raise ImageError(f"{EXPORT_MANIFEST} is larger than {MAX_EXPORT_MANIFEST} bytes")
    try:
        info = json.loads(data)
    except (ValueError, RecursionError):
        raise ImageError(f"{EXPORT_MANIFEST} is not valid JSON") from None
    if not isinstance(info, dict) or info.get("format") != EXPORT_FORMAT:
        raise ImageError(f"{EXPORT_MANIFEST}: not a {EXPORT_FORMAT} manifest")
    recipe, image_hash, files = info.get("recipe"), info.get("hash"), info.get("files")
    for name, value in (("recipe", recipe), ("hash", image_hash)):
        if not isinstance(value, str) or not HASH16.fullmatch(value):
            raise ImageError(f"{EXPORT_MANIFEST}: \"{name}\" must be 16 hex digits")
    if not isinstance(files, dict) or sorted(files) != sorted(IMAGE_FILES):
        raise ImageError(f"{EXPORT_MANIFEST}: \"files\" must list exactly {', '.join(IMAGE_FILES)}")
    checked = {}
    for name in IMAGE_FILES:
        entry = files[name]
        size = entry.get("bytes") if isinstance(entry, dict) else None
        digest = entry.get("sha256") if isinstance(entry, dict) else None
        if type(size) is not int or not 0 < size <= MAX_FILE_BYTES[name]:
            raise ImageError(f"{EXPORT_MANIFEST}: {name}: \"bytes\" must be 1..{MAX_FILE_BYTES[name]}")
        if not isinstance(digest, str) or not SHA256.fullmatch(digest):
            raise ImageError(f"{EXPORT_MANIFEST}: {name}: \"sha256\" must be 64 hex digits")
        checked[name] = (size, digest)
    return ExportManifest(recipe, image_hash, checked)  # type: ignore[arg-type]


def _open_regular(path: Path):
    """``path`` opened for reading if it is a regular file (not a link, device or FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        raise ImageError(f"{path}: {e.strerror}") from None
    f = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        f.close()
        raise ImageError(f"{path}: not a regular file")
    return f


def _copy_hashing(src, dest: Path, limit: int) -> tuple[int, str]:
    """Copy at most ``limit`` + 1 bytes; (bytes copied, sha256 hex)."""
    h, size = hashlib.sha256(), 0
    with open(dest, "wb") as out:
        while size <= limit:
            chunk = src.read(min(CHUNK, limit + 1 - size))
            if not chunk:
                break
            h.update(chunk)
            out.write(chunk)
            size += len(chunk)
    return size, h.hexdigest()


def export_image(image: GuestImage, dest: Path) -> str:
    """Copy the image's files into ``dest`` with ``guest-export.json``; returns that file's
    SHA-256 (an admin pins it: ``--import DIR --sha256 HEX``)."""
    dest.mkdir(parents=True, exist_ok=True)
    files = {}
    for name in IMAGE_FILES:
        with _open_regular(image.path / name) as src:
            size, digest = _copy_hashing(src, dest / name, MAX_FILE_BYTES[name])
        if size > MAX_FILE_BYTES[name]:
            raise ImageError(f"{image.path / name} is larger than {MAX_FILE_BYTES[name]} bytes")
        files[name] = {"bytes": size, "sha256": digest}
    text = json.dumps({"format": EXPORT_FORMAT, "recipe": image.manifest.get("recipe"), "hash": image.hash,
                       "files": files}, indent=1) + "\n"
    (dest / EXPORT_MANIFEST).write_text(text)
    return hashlib.sha256(text.encode()).hexdigest()


def import_image(src: Path, expect_sha256: str | None = None) -> GuestImage:
    """Install the image exported into ``src`` as the current recipe's, after checking every
    file against ``guest-export.json`` (and that file against ``expect_sha256`` when given);
    nothing is installed when a check fails."""
    with _open_regular(src / EXPORT_MANIFEST) as f:
        data = f.read(MAX_EXPORT_MANIFEST + 1)
    if expect_sha256 is not None and hashlib.sha256(data).hexdigest() != expect_sha256.lower():
        raise ImageError(f"{src / EXPORT_MANIFEST} does not have the expected SHA-256")
    manifest = parse_export_manifest(data)
    if manifest.recipe != recipe_hash():
        raise ImageError(f"{src} holds a guest of another sandbox_kernel version (recipe {manifest.recipe}, this "
                         f"one {recipe_hash()}): export it again with this version")
    work = Path(tempfile.mkdtemp(prefix="guest-import-", dir=guest_dir()))
    try:
        for name, (size, digest) in manifest.files.items():
            with _open_regular(src / name) as f:
                got_size, got_digest = _copy_hashing(f, work / name, size)
            if got_size != size or got_digest != digest:
                raise ImageError(f"{src / name}: {'size' if got_size != size else 'SHA-256'} differs from "
                                 f"{EXPORT_MANIFEST} (damaged or altered)")
        try:
            built = json.loads((work / "manifest.json").read_bytes())
        except (ValueError, RecursionError):
            built = None
        if not isinstance(built, dict) or built.get("hash") != manifest.hash or built.get("recipe") != manifest.recipe:
            raise ImageError(f"{src / 'manifest.json'} does not describe the image {manifest.hash}")
        dest = work.parent / manifest.hash
        publish(work, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    image = _load(dest)
    if image is None:
        raise ImageError(f"{dest}: the imported image is incomplete")
    return image


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
        # measured here: 15-75 s to build (most of it the download), then a first full boot;
        # `install --vm-image` or `vm-image` does it ahead of any cell
        progress("building the guest image from Debian packages: first use on this host, about 1-3 min with "
                 "the first boot; later VMs resume in about a second")
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
