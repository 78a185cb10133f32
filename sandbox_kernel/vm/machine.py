"""One QEMU microVM process: launch (full boot or resume from a saved state), QMP control,
save state, stop. The VM dies with the kernel process: QEMU is started through
``setpriv --pdeathsig KILL`` so the Linux parent-death signal kills it even when the kernel
is SIGKILLed (measured in tests/vm/test_watchdog.py)."""
from __future__ import annotations

import asyncio
import functools
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .client import AgentClient, AgentGone

QEMU = "qemu-system-x86_64"
KERNEL_ARGS = ("console=ttyS0 quiet 8250.nr_uarts=1 cryptomgr.notests=1 mitigations=off audit=0 "
               "apparmor=0 security=none panic=-1 rdinit=/init")
#: TCG caches translated guest code by virtual address: with address-space randomisation
#: every new process maps its libraries elsewhere and all of their code is translated again
#: (a dynamic `true` took 22 ms instead of 4.4 ms, `bash -c true` 44 ms instead of 7 ms).
#: The VM is the security boundary, so under TCG the guest runs without it.
TCG_KERNEL_ARGS = "norandmaps"
#: Fills the guest's free memory with zeros and frees it again, so a saved state stores
#: those pages as "zero" markers (a boot with init_on_free=1 would do it too, at 0.4-1.4 s
#: of boot time under TCG). Keeps 24 MiB free so nothing is pushed out of memory.
ZERO_FREE_MEMORY = (
    "set -e; kb=$(/bin/busybox awk '/^MemFree:/ {print $2 - 24576}' /proc/meminfo); "
    "[ \"$kb\" -gt 0 ] || exit 0; d=/run/.zero-fill; /bin/busybox mkdir -p $d; "
    "/bin/busybox mount -t tmpfs -o size=${kb}k zero-fill $d; "
    "/bin/busybox dd if=/dev/zero of=$d/zeros bs=1M 2>/dev/null || true; "
    "/bin/busybox umount $d; /bin/busybox rmdir $d")


class VmStartError(RuntimeError):
    """QEMU could not be started or the guest agent never answered (``timeout``: the seconds
    it was given, when that is why)."""

    def __init__(self, message: str, timeout: float | None = None) -> None:
        super().__init__(message)
        self.timeout = timeout


@dataclass
class MachineConfig:
    vcpus: int = 1
    memory_mb: int = 512
    accel: str = "tcg"

    def key(self) -> str:
        return f"{self.accel}-{self.vcpus}cpu-{self.memory_mb}m"


def host_tsc_khz() -> int | None:
    """Under TCG the guest TSC runs at the host rate; telling the guest skips the PIT
    calibration, which fails at random under TCG and then hangs the boot."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("cpu MHz"):
                    return int(float(line.split(":")[1]) * 1000)
    except OSError:
        pass
    return None


@functools.lru_cache(maxsize=1)
def qemu_version() -> str:
    try:
        out = subprocess.run([QEMU, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.splitlines()[0] if out else ""


def qemu_available() -> str | None:
    """None when QEMU can run here, else the reason it cannot."""
    if shutil.which(QEMU) is None:
        return f"{QEMU} is not installed (apt-get install qemu-system-x86)"
    if not qemu_version():
        return f"{QEMU} does not run"
    return None


def _die_with_parent() -> None:
    """In the forked child before exec: SIGKILL when the parent dies (PR_SET_PDEATHSIG)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


RUN_DIR_PREFIX = "sandbox-vm-"


def _new_run_dir() -> Path:
    """A private directory for the sockets and logs of one QEMU, tagged with our pid; run
    directories left by kernels that were killed (no chance to clean up) are removed."""
    top = Path(tempfile.gettempdir())
    for old in top.glob(RUN_DIR_PREFIX + "*"):
        try:
            owner = int((old / "owner.pid").read_text())
            os.kill(owner, 0)
        except ProcessLookupError:
            shutil.rmtree(old, ignore_errors=True)
        except (OSError, ValueError):
            pass  # not ours to judge (another user, or being created right now)
    run_dir = Path(tempfile.mkdtemp(prefix=RUN_DIR_PREFIX))
    (run_dir / "owner.pid").write_text(str(os.getpid()))
    return run_dir


@dataclass
class Machine:
    config: MachineConfig
    vmlinux: Path
    initrd: Path
    rootfs: Path
    run_dir: Path = field(default_factory=_new_run_dir)
    proc: subprocess.Popen | None = None
    client: AgentClient | None = None
    started_at: float = 0.0
    boot_seconds: float = 0.0
    boot_mode: str = ""  # "full boot" or "resume"

    @classmethod
    def for_image(cls, config: MachineConfig, image, **kw) -> "Machine":
        return cls(config, image.vmlinux, image.initrd, image.rootfs, **kw)

    @property
    def console_log(self) -> Path:
        return self.run_dir / "console.log"

    def argv(self, incoming: Path | None = None) -> list[str]:
        append = KERNEL_ARGS
        if self.config.accel == "tcg":
            khz = host_tsc_khz()
            if khz:
                append += f" tsc_early_khz={khz} tsc=reliable"
            append += " " + TCG_KERNEL_ARGS
        cmd = [QEMU, "-M", "microvm,pit=on,acpi=on", "-accel", self.config.accel,
               "-m", str(self.config.memory_mb), "-smp", str(self.config.vcpus),
               "-nodefaults", "-no-user-config", "-nographic", "-no-reboot",
               "-serial", f"file:{self.console_log}",
               "-qmp", f"unix:{self.run_dir / 'qmp.sock'},server=on,wait=off",
               "-kernel", str(self.vmlinux), "-initrd", str(self.initrd), "-append", append,
               # the root image, read-only (a tmpfs overlay in the guest makes / writable)
               "-drive", f"file={self.rootfs},if=none,id=root,format=raw,readonly=on",
               "-device", "virtio-blk-device,drive=root",
               "-chardev", f"socket,id=agent,path={self.run_dir / 'agent.sock'}",
               "-device", "virtio-serial-device", "-device", "virtserialport,chardev=agent,name=agent"]
        if self.config.accel == "kvm":
            cmd += ["-cpu", "host"]
        if incoming is not None:
            cmd += ["-incoming", "exec:cat " + shlex.quote(str(incoming))]
        return cmd

    async def start(self, state: Path | None = None, timeout: float = 90.0) -> None:
        """Boot (or resume from ``state``) and wait until the agent answers."""
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock_path = self.run_dir / "agent.sock"
        if sock_path.exists():
            sock_path.unlink()
        listener.bind(str(sock_path))
        listener.listen(1)
        listener.setblocking(False)
        cmd = self.argv(state)
        preexec = None
        if shutil.which("setpriv"):
            cmd = ["setpriv", "--pdeathsig", "KILL", "--"] + cmd
        else:
            preexec = _die_with_parent
        self.started_at = time.monotonic()
        errors = open(self.run_dir / "qemu.err", "wb")
        try:
            # Popen in the event-loop thread: the parent-death signal fires when the thread
            # that forked exits, and this thread lives as long as the kernel.
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=errors, start_new_session=True, preexec_fn=preexec)
        except OSError as e:
            listener.close()
            raise VmStartError(f"cannot run {QEMU}: {e}") from None
        finally:
            errors.close()
        try:
            conn = await self._accept(listener, min(timeout, 20))
            reader, writer = await asyncio.open_unix_connection(sock=conn, limit=4 << 20)
            self.client = AgentClient(reader, writer)
            self.client.start()
            if state is not None:
                # the saved agent is already past READY: ask it, then make this clone unique
                await self.client.hello(timeout=timeout)
                await self.client.sync_clock_and_rng()
                self.boot_mode = "resume"
            else:
                await asyncio.wait_for(asyncio.shield(self.client.ready), timeout)
                await self.client.sync_clock_and_rng()
                self.boot_mode = "full boot"
        except (asyncio.TimeoutError, AgentGone, OSError) as e:
            detail = self.failure_detail()
            self.kill()
            what = "resume" if state is not None else "boot"
            timed_out = isinstance(e, asyncio.TimeoutError)
            reason = f"timed out after {timeout:g} s" if timed_out else str(e) or type(e).__name__
            raise VmStartError(f"VM {what} failed: {reason}{detail}", timeout if timed_out else None) from None
        except asyncio.CancelledError:  # the set-up was interrupted: no QEMU left behind
            self.kill()
            raise
        finally:
            listener.close()
        self.boot_seconds = time.monotonic() - self.started_at

    async def _accept(self, listener: socket.socket, timeout: float) -> socket.socket:
        deadline = time.monotonic() + timeout
        while True:
            try:
                conn, _ = listener.accept()
                conn.setblocking(False)
                return conn
            except BlockingIOError:
                pass
            if self.proc is not None and self.proc.poll() is not None:
                raise OSError(f"QEMU exited with status {self.proc.returncode}")
            if time.monotonic() > deadline:
                raise asyncio.TimeoutError()
            await asyncio.sleep(0.01)

    def failure_detail(self) -> str:
        parts = []
        for name in ("qemu.err", "console.log"):
            try:
                text = (self.run_dir / name).read_text(errors="replace").strip()
            except OSError:
                continue
            if text:
                parts.append(f"{name}: " + " | ".join(text.splitlines()[-6:]))
        return ("\n" + "\n".join(parts)) if parts else ""

    # ---------------------------------------------------------------- state
    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    async def qmp(self, *commands: dict, timeout: float = 30) -> list[dict]:
        reader, writer = await asyncio.open_unix_connection(str(self.run_dir / "qmp.sock"))
        try:
            async def answer() -> dict:
                while True:
                    line = await asyncio.wait_for(reader.readline(), timeout)
                    if not line:
                        raise OSError("QMP connection closed")
                    msg = json.loads(line)
                    if "return" in msg or "error" in msg:
                        return msg
            await asyncio.wait_for(reader.readline(), timeout)  # greeting
            writer.write(b'{"execute": "qmp_capabilities"}\n')
            await answer()
            results = []
            for cmd in commands:
                writer.write(json.dumps(cmd).encode() + b"\n")
                results.append(await answer())
            return results
        finally:
            writer.close()

    async def save_state(self, path: Path) -> None:
        """Write RAM + device state to ``path`` (atomically), then let the VM run on."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        await self.zero_free_memory()
        uri = "exec:cat > " + shlex.quote(str(tmp))
        [res] = await self.qmp({"execute": "migrate", "arguments": {"uri": uri}})
        if "error" in res:
            raise VmStartError(f"saving the VM state failed: {res['error'].get('desc')}")
        deadline = time.monotonic() + 120
        while True:
            [info] = await self.qmp({"execute": "query-migrate"})
            status = info.get("return", {}).get("status")
            if status == "completed":
                break
            if status in ("failed", "cancelled") or time.monotonic() > deadline:
                tmp.unlink(missing_ok=True)
                raise VmStartError(f"saving the VM state failed ({status})")
            await asyncio.sleep(0.05)
        os.replace(tmp, path)
        await self.qmp({"execute": "cont"})

    async def zero_free_memory(self) -> None:
        if self.client is None:
            return
        execution = await self.client.exec(["/bin/busybox", "sh", "-c", ZERO_FREE_MEMORY], timeout=60)
        async for _ in execution.events():
            pass

    # ---------------------------------------------------------------- stop
    async def stop(self, grace: float = 3.0) -> None:
        """Ask the agent to power off, then SIGTERM, then SIGKILL."""
        if self.client is not None and not self.client.closed and self.alive:
            try:
                await self.client.shutdown(timeout=grace)
            except Exception:
                pass
        await self._wait_exit(grace)
        if self.alive:
            self.proc.terminate()  # type: ignore[union-attr]
            await self._wait_exit(2.0)
        self.kill()

    async def _wait_exit(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.alive and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def kill(self) -> None:
        """Kill QEMU now (our own child, by handle) and clean up its run directory."""
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    self.proc.send_signal(signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        if self.client is not None and self.client._reader_task is not None:
            self.client._reader_task.cancel()
            try:
                self.client.writer.close()
            except Exception:
                pass
        self.cleanup()

    def cleanup(self) -> None:
        if not self.alive:
            shutil.rmtree(self.run_dir, ignore_errors=True)
