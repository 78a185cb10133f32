"""Which accelerator QEMU should use: KVM only when a short probe boot proves it works fast.

Some hosts expose a /dev/kvm that opens and creates VMs but runs guests ~100x slower than TCG
(PVM-backed KVM inside another microVM): presence is not proof. The probe boots the real
guest image with KVM and a short deadline; the verdict is cached per host kernel, QEMU
version and image.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
from pathlib import Path

from ..guest.build import cache_root
from .image import GuestImage
from .machine import Machine, MachineConfig, VmStartError, qemu_version

PROBE_SECONDS = 5.0


def _cache_file(image: GuestImage) -> Path:
    # the verdict depends on the host, QEMU and the guest kernel, not on the guest userland
    package = image.manifest.get("kernel_package")
    guest_kernel = f"{package}={image.manifest.get('packages', {}).get(package)}"
    key = hashlib.sha256(f"{platform.release()}|{qemu_version()}|{guest_kernel}".encode()).hexdigest()[:16]
    return cache_root() / f"accel-{key}.json"


async def choose_accelerator(image: GuestImage) -> tuple[str, str]:
    """(accel, why) with accel "kvm" or "tcg"."""
    forced = os.environ.get("SANDBOX_KERNEL_VM_ACCEL", "auto").lower()
    if forced in ("kvm", "tcg"):
        return forced, f"forced by SANDBOX_KERNEL_VM_ACCEL={forced}"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg", "no usable /dev/kvm"
    cache = _cache_file(image)
    try:
        verdict = json.loads(cache.read_text())
        return verdict["accel"], verdict["why"] + " (cached probe)"
    except (OSError, ValueError, KeyError):
        pass
    probe = Machine.for_image(MachineConfig(accel="kvm"), image)
    try:
        await probe.start(timeout=PROBE_SECONDS)
        accel, why = "kvm", f"KVM probe boot took {probe.boot_seconds:.2f} s"
    except VmStartError:
        accel, why = "tcg", f"KVM probe boot did not finish within {PROBE_SECONDS:g} s"
    finally:
        probe.kill()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"accel": accel, "why": why}))
    except OSError:
        pass
    return accel, why
