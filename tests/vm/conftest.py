"""Fixtures for the VM tests: the guest image (built once, cached) and helpers to run cells."""
from __future__ import annotations

import asyncio
import time

import pytest

from sandbox_kernel.vm.image import ensure_image
from sandbox_kernel.vm.machine import qemu_available
from tests.support.prereqs import require


@pytest.fixture(scope="session")
def guest_image():
    """Builds the guest image on a fresh machine (guest/build, cached afterwards)."""
    require(qemu_available())
    started = time.monotonic()
    image = asyncio.run(ensure_image(lambda line: print(line)))
    print(f"guest image {image.hash} ready after {time.monotonic() - started:.1f} s")
    return image
