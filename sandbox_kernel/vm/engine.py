"""VmEngine: ``%%vm`` cells and the ``vm`` command run in a QEMU microVM owned by the kernel.

The VM starts on first use (resumed from a saved state of the guest image when there is one,
else a full boot that then saves that state) and stays up until ``shutdown()``. Building the
image and starting the VM are set-up (``prepare``, before the cell's wall time starts, shown
as one output updated in place). Each run syncs the VFS ``/workspace`` in, runs the command
through the guest agent as the unprivileged ``user`` (root on request) with output streamed
as it arrives, ends whatever the command left running (unless daemons are allowed), and
syncs changes back. A crashed or hung guest is reported and replaced by a fresh VM on the
next run.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import signal
import time
from pathlib import Path
from typing import Awaitable, Callable

from ..chars import isdigits
from ..engine import ErrorInfo, RunResult, Streams, TerminalError
from ..limits import Limits, format_size
from ..netpolicy import check_narrower, parse_allow_list
from ..policy import VM_MEMORY_RANGE, VM_VCPUS_RANGE, parse_memory_mb
from . import protocol as P
from .accel import choose_accelerator
from .accesslog import AccessLog
from .client import AgentError, AgentGone, Execution
from . import completion
from .egress import GUEST_PROXY_PORT, EgressProxy
from ..guest.build import SUDO_IN_IMAGE, USER_NAME, cache_root
from .guestinput import GuestInputError, check_exec
from .hostcap import HostFull, HostSlots, Slot
from .image import GuestImage, ImageError, ensure_image
from .injection import SecretInjector
from .machine import Machine, MachineConfig, VmStartError, qemu_available, qemu_version
from .sync import ROOT, WorkspaceSync
from .terminal import TERMINAL_ARGV, TERMINAL_ENV, VmTerminal
from .tlsintercept import GUEST_TRUST_ENV, KernelCA, trust_in_guest, upstream_context

#: the host shell's variables that make no sense in the guest
HOST_ONLY_ENV = {"PATH", "HOME", "PWD", "OLDPWD", "SHELL", "USER", "LOGNAME", "SHLVL", "HOSTNAME",
                 "TERM", "_", "TMPDIR", "LANG", "LANGUAGE", "MAIL", "UID", "EUID", "PPID", "BASHPID"}
KILL_GRACE = 2.0   # seconds between the polite signal and SIGKILL
HANG_GRACE = 5.0   # seconds after SIGKILL before the guest counts as hung
RECENTLY_HEARD = 1.0  # seconds: an agent that answered this recently needs no liveness check
HUNG_NOTICE = "the VM stopped answering (hung) and was killed"
MALFORMED_NOTICE = "the VM agent sent a malformed reply (broken or compromised guest) and the VM was killed"
RESUME_TIMEOUT = 20.0  # seconds before a resume that hangs gives way to a full boot
SETUP_TICK = 1.0  # seconds between updates of the set-up progress output
#: how the image build's first progress line starts (vm/image.py), and how long the first use
#: (build and first full boot) usually takes, in seconds: measured 15-75 s to build here, most
#: of it the download, plus a first boot of up to a minute or two under TCG
FIRST_USE_LINE = "building the guest image"
FIRST_USE_USUAL = (60, 180)
SUDO_PATH = "/usr/local/bin/sudo"
#: Tab and Shift-Tab in %%vm cells: the guest's answer in at most this long, this big, with
#: this many processes and this much memory
COMPLETION_TIMEOUT = 2.0
COMPLETION_OUTPUT = 64 << 10
COMPLETION_PROCESSES = 16
COMPLETION_MEMORY = 64 << 20

MAGIC_HELP = f"""\
%vm start | stop | restart | status | egress [N] | config [SETTING=VALUE ...]
  start     boot the VM now (otherwise the first %%vm cell or vm command does)
  stop      power the VM off (the next use boots a fresh one)
  restart   stop, then start
  status    state, accelerator, uptime, memory, vcpus, boot mode, secrets, host VM slots
  egress    this kernel's network accesses (allowed and denied, bytes up/down), the last N (50)
  config    for the next start: vcpus=N, memory=MB (or 2G), up to the admin's ceilings
            (%vm status shows them; install --max-vm-vcpus / --max-vm-memory),
            network=none (no network card at all) or network=allow:example.org,*.pypi.org
            (HTTP/HTTPS only, through a host proxy that enforces the list and logs each access;
            HOST allows ports 80 and 443, HOST:PORT that port, *.DOMAIN its subdomains).
            The admin's policy is the widest a cell may ask for (default: none); a cell may
            only narrow it. secrets=on|off: the admin's secrets in the VM (they need a
            network: network=none is refused while they are on).
            at once: user={USER_NAME}|root, who %%vm cells and vm commands run as (default
            {USER_NAME}, uid 1000, owner of /workspace); daemons=off|on, whether processes a cell
            starts in the background (&, nohup, setsid) outlive it (off: they end with the cell
            and /dev/shm is emptied); sudo=off|on, a passwordless sudo in the VM.
%%vm [--root | --user] [--keep]   this cell as root / as {USER_NAME}; --keep: like daemons=on
vm [--root | --user] [--keep] CMD  the same for one command in a shell pipeline"""


class VmError(Exception):
    pass


def on_off(flag: bool) -> str:
    return "on" if flag else "off"


class SetupProgress:
    """Progress of the set-up (image build, VM start) as one output updated in place: a
    display with its own id, re-rendered with the elapsed time while a step takes long.
    Without a display (the CLI, tests) the lines go to stderr.

    On first use (the guest image is built) a headline above the step says what happens and
    how long it usually takes (``FIRST_USE_USUAL``), with the time so far; past the usual time
    it says so instead of repeating the estimate, and once the VM is ready it says how long
    the whole set-up took."""

    def __init__(self, streams: Streams, clock: Callable[[], float] = time.monotonic) -> None:
        self.display = streams.display
        self.stderr = streams.stderr
        self.clock = clock
        self.display_id = f"vm-setup-{os.getpid()}-{time.monotonic_ns()}"
        self.started = clock()
        self.line = ""
        self.shown = False
        #: when the image build began (first use on this host), else None
        self.first_use: float | None = None
        self.done = ""

    def __call__(self, line: str) -> None:
        if line.startswith(FIRST_USE_LINE):
            self.first_use = self.clock()
        if self.display is None:
            self.stderr.write((line + "\n").encode("utf-8", "surrogateescape"))  # guest names may be any bytes
            return
        self.line = line if line.startswith("vm: ") else f"vm: {line}"
        if self.first_use is not None and self.line.startswith("vm: ready in "):
            self.done = (f"vm: first use on this host: the guest image was built and booted once in "
                         f"{self._duration(self.clock() - self.first_use)}; later VMs resume in about a second")
        self.render(self.text(with_time=False))

    def headline(self) -> str:
        """The first-use headline as of now ('' when the image was cached)."""
        if self.first_use is None:
            return ""
        if self.done:
            return self.done
        low, high = FIRST_USE_USUAL
        spent = self.clock() - self.first_use
        if spent <= high:
            return (f"vm: first use on this host: building the guest image from Debian packages, then booting "
                    f"it once (usually {low // 60}-{high // 60} min in all; {self._duration(spent)} so far)")
        return (f"vm: first use on this host: building the guest image and booting it once is taking longer than "
                f"the usual {low // 60}-{high // 60} min ({self._duration(spent)} so far: a slow download or a "
                "busy host); the step below is the one running")

    def text(self, with_time: bool = True) -> str:
        step = self.line
        if with_time and not self.done:
            step = f"{step} ({self.clock() - self.started:.0f} s)"
        if self.first_use is not None and self.line.startswith(f"vm: {FIRST_USE_LINE}"):
            step = ""  # the headline says it
        return "\n".join(part for part in (self.headline(), step) if part)

    @staticmethod
    def _duration(seconds: float) -> str:
        seconds = int(seconds)
        return f"{seconds} s" if seconds < 120 else f"{seconds // 60} min {seconds % 60} s"

    def render(self, text: str) -> None:
        self.display({"text/plain": text}, {}, self.display_id, self.shown)  # type: ignore[misc]
        self.shown = True

    async def tick(self) -> None:
        """While a step is slow (a build takes tens of seconds), show that time passes."""
        while self.display is not None:
            await asyncio.sleep(SETUP_TICK)
            if self.shown:
                self.render(self.text())


class VmEngine:
    name = "vm"

    def __init__(self, sandbox) -> None:
        self.sandbox = sandbox
        self.config = MachineConfig()
        # the admin's ceilings bound the default size too
        self.config.vcpus = min(self.config.vcpus, sandbox.policy.vm_max_vcpus)
        self.config.memory_mb = min(self.config.memory_mb, sandbox.policy.vm_max_memory_mb)
        #: This kernel's egress: the admin's policy unless a cell narrowed it.
        policy = sandbox.policy
        self.network = policy.network
        self.egress = AccessLog(policy.egress_log)
        self._admin_secrets = SecretInjector(policy.secrets)
        #: the secrets this VM gets: the admin's, or none after ``%vm config secrets=off``
        self.secrets = self._admin_secrets
        self._ca: KernelCA | None = None  # made at the first start that needs it, kept in memory
        self._proxy: EgressProxy | None = None
        self.slots = HostSlots(Path(policy.vm_slots_dir) if policy.vm_slots_dir else cache_root() / "vm-slots",
                               policy.max_vms) if policy.max_vms else None
        self._slot: Slot | None = None
        self.machine: Machine | None = None
        self.accel_reason = ""
        self.image: GuestImage | None = None
        self.sync = WorkspaceSync(sandbox.fs)
        self._start_lock: asyncio.Lock | None = None
        self._sync_lock: asyncio.Lock | None = None
        self._notice: str | None = None  # why the previous VM went away, told at the next start
        self.save_states = os.environ.get("SANDBOX_KERNEL_VM_SAVE_STATE", "1") != "0"
        self.resume_states = True  # False: always a full boot (the benchmark's second path)
        self.as_root = False        # %vm config user=root
        self.keep_daemons = False   # %vm config daemons=on
        self.sudo = False           # %vm config sudo=on (applied to the running VM, and at each start)

    # ------------------------------------------------------------------ lifecycle
    def _locks(self) -> tuple[asyncio.Lock, asyncio.Lock]:
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
            self._sync_lock = asyncio.Lock()
        return self._start_lock, self._sync_lock  # type: ignore[return-value]

    @property
    def running(self) -> bool:
        m = self.machine
        return m is not None and m.alive and m.client is not None and not m.client.closed

    def _state_path(self, image: GuestImage) -> Path:
        probe = Machine.for_image(self.config, image, run_dir=Path("/run-dir"))
        key = hashlib.sha256((qemu_version() + "\0" + "\0".join(probe.argv())).encode()).hexdigest()[:16]
        return image.state_path(f"{self.config.key()}-{key}")

    async def start(self, progress: Callable[[str], None]) -> Machine:
        start_lock, _ = self._locks()
        async with start_lock:
            if self.running:
                client = self.machine.client  # type: ignore[union-attr]
                if time.monotonic() - client.last_heard < RECENTLY_HEARD:
                    return self.machine  # type: ignore[return-value]
                try:  # a frozen guest would hang the workspace sync: check it answers
                    await client.hello(timeout=5)
                    return self.machine  # type: ignore[return-value]
                except (asyncio.TimeoutError, AgentGone, AgentError):
                    self._notice = self._notice or HUNG_NOTICE
            if self.machine is not None:
                why = self._notice or self._describe_death(self.machine)
                progress(f"vm: {why}; starting a new VM")
                self.machine.kill()
                self.machine = None
                self._free_slot()
            self._notice = None
            refused = self._secrets_without_network(self.network, self.secrets)
            if refused:
                raise VmError(refused)
            reason = qemu_available()
            if reason:
                raise VmError(reason)
            try:
                image = self.image = await ensure_image(progress)
            except ImageError as e:
                raise VmError(str(e)) from None
            await self._take_slot(progress)
            try:
                return await self._start_machine(image, progress)
            except BaseException:
                self._free_slot()
                raise

    async def _take_slot(self, progress: Callable[[str], None]) -> None:
        """One of the host's VM slots (the admin's --max-vms), waiting a bounded time for it."""
        if self.slots is None or (self._slot is not None and self._slot.held):
            return
        policy = self.sandbox.policy
        try:
            self._slot = await self.slots.acquire(policy.vm_queue_timeout, progress)
        except HostFull as e:
            raise VmError(str(e)) from None
        except OSError as e:
            raise VmError(f"cannot use the VM lock directory {self.slots.directory}: {e.strerror or e}") from None

    def _free_slot(self) -> None:
        slot, self._slot = self._slot, None
        if slot is not None:
            slot.release()

    async def _start_machine(self, image: GuestImage, progress: Callable[[str], None]) -> Machine:
        accel, self.accel_reason = await choose_accelerator(image)
        self.config.accel = accel
        state = self._state_path(image)
        started = time.monotonic()
        machine = None
        try:
            machine = await self._boot(image, state, accel, progress)
            self._tell_secrets(progress)
            if self.network != "none":
                await self._enable_egress(machine, progress)
            if self.sudo:
                await self._apply_sudo(machine)
        except BaseException:  # failed or cancelled (an interrupted set-up): no stray QEMU
            if machine is not None:
                machine.kill()
            raise
        self.machine = machine
        self.sync.reset()
        progress(f"vm: ready in {time.monotonic() - started:.2f} s")
        return machine

    async def _boot(self, image: GuestImage, state: Path, accel: str, progress: Callable[[str], None]) -> Machine:
        """Resume from the saved state when there is one, else a full boot that saves it."""
        if self.resume_states and state.exists():
            progress(f"vm: starting the microVM ({accel.upper()}, resuming a saved state)...")
            machine = Machine.for_image(self.config, image)
            try:
                await machine.start(state=state, timeout=min(RESUME_TIMEOUT, self.sandbox.policy.vm_boot_timeout))
                return self._check_alive(machine)
            except VmStartError as e:
                progress(f"vm: resume failed ({str(e).splitlines()[0]}); doing a full boot")
                state.unlink(missing_ok=True)
        progress(f"vm: starting the microVM ({accel.upper()}, full boot)...")
        machine = Machine.for_image(self.config, image)
        try:
            await machine.start(timeout=self.sandbox.policy.vm_boot_timeout)
        except VmStartError as e:
            if e.timeout is None:
                raise VmError(str(e)) from None
            detail = str(e).partition("\n")[2]  # QEMU's and the console's last lines
            raise VmError(f"the VM did not boot within {e.timeout:g} s (the admin's --vm-boot-timeout) and was "
                          "stopped; a busy host or software emulation (TCG) may need more: python -m "
                          "sandbox_kernel install --vm-boot-timeout SECONDS"
                          + (f"\n{detail}" if detail else "")) from None
        if self.save_states:
            try:  # clean, freshly booted: the state every later kernel resumes from
                for stale in state.parent.glob(f"state-{self.config.key()}-*.bin"):
                    stale.unlink(missing_ok=True)  # same machine, older QEMU or host
                await machine.save_state(state)
                await machine.client.sync_clock_and_rng()  # type: ignore[union-attr]
            except (VmStartError, OSError, AgentGone) as e:
                progress(f"vm: could not save the VM state for fast starts: {e}")
            except BaseException:
                machine.kill()
                raise
        return self._check_alive(machine)

    @staticmethod
    def _check_alive(machine: Machine) -> Machine:
        if not machine.alive:
            detail = machine.failure_detail()
            machine.kill()
            raise VmError("the VM stopped right after starting" + detail)
        return machine

    async def _apply_sudo(self, machine: Machine) -> None:
        """Install (sudo=on) or remove the setuid sudo of the image."""
        script = (f"install -D -m 4755 -o root -g root /{SUDO_IN_IMAGE} {SUDO_PATH}" if self.sudo
                  else f"rm -f {SUDO_PATH}")
        try:
            execution = await machine.client.exec(["/bin/sh", "-c", script], cwd="/")  # type: ignore[union-attr]
            errors = b"".join([data async for _, data in execution.events()])
        except (AgentError, AgentGone) as e:
            raise VmError(f"cannot {'install' if self.sudo else 'remove'} sudo: {e}") from None
        if execution.exit is None or execution.exit.status != 0:
            raise VmError(
                f"cannot {'install' if self.sudo else 'remove'} sudo: {errors.decode(errors='replace').strip()}"
            )

    async def _enable_egress(self, machine: Machine, progress: Callable[[str], None]) -> None:
        """The guest gets no NIC: its proxy port is served by the host over the agent channel.
        With secrets the guest also trusts this kernel's CA (for their hosts only)."""
        client = machine.client
        assert client is not None
        try:
            upstream = upstream_context(self.sandbox.policy.egress_ca_file)
        except (OSError, ValueError) as e:
            machine.kill()
            raise VmError(f"cannot load the admin's --egress-ca-file: {e}") from None
        if self.secrets and self._ca is None:
            self._ca = KernelCA(self.secrets.rules())
        self._proxy = EgressProxy(parse_allow_list(self.network), self.egress, self.secrets, self._ca, upstream)
        client.on_accept = self._proxy.serve
        try:
            await client.listen(GUEST_PROXY_PORT)
            if self._ca is not None:
                await trust_in_guest(client, self._ca.pem)
        except (AgentError, AgentGone, P.ProtocolError) as e:
            machine.kill()
            raise VmError(f"cannot set up the guest's network: {e}") from None
        progress(f"vm: network egress through the host proxy, allowed: {self.network[len('allow:'):]}")

    def _tell_secrets(self, progress: Callable[[str], None]) -> None:
        """Say which of the admin's secrets this VM cannot use, and why (never their values)."""
        missing = [s for s in self.sandbox.policy.secrets if s.value is None]
        for secret in missing:
            progress(f"vm: secret {secret.name} is not available: the admin's {secret.source} was not set "
                     f"for this kernel (${secret.name} is unset in the VM)")

    @staticmethod
    def _secrets_without_network(network: str, secrets: SecretInjector) -> str | None:
        """Why a VM with ``network`` cannot have ``secrets`` (kumoba refuses secrets without a
        network), or None when it can."""
        if network != "none" or not secrets:
            return None
        names = ", ".join(secrets.placeholders())
        return (f"network=none, but the admin gave this kernel the secret{'s' if len(secrets.secrets) > 1 else ''} "
                f"{names}, which reach their hosts only through the network. Keep a network "
                "(narrow it with %vm config network=allow:HOST,...), or run this VM without the "
                "secrets: %vm config network=none secrets=off")

    @staticmethod
    def _describe_death(machine: Machine) -> str:
        if machine.proc is not None and machine.proc.poll() is not None:
            tail = machine.failure_detail().strip().splitlines()
            panic = [line for line in tail if "panic" in line.lower() or "sysrq" in line.lower()]
            return "the VM crashed" + (
                f" ({panic[-1][-160:]})" if panic else f" (QEMU exit status {machine.proc.returncode})"
            )
        return "the VM stopped answering"

    async def stop(self) -> bool:
        start_lock, _ = self._locks()
        async with start_lock:
            machine, self.machine = self.machine, None
            if machine is None:
                return False
            try:
                await machine.stop(grace=self.sandbox.policy.vm_stop_timeout)
            finally:
                self._free_slot()
            return True

    async def shutdown(self) -> None:
        machine, self.machine = self.machine, None
        try:
            if machine is not None:
                try:
                    await machine.stop(grace=self.sandbox.policy.vm_stop_timeout)
                finally:
                    machine.kill()
        finally:
            self._free_slot()
            self.egress.close()

    # ------------------------------------------------------------------ running
    def _guest_env(self, root: bool) -> dict[str, str]:
        try:
            env = dict(self.sandbox.environment())
        except Exception:  # no shell session yet: nothing exported
            env = {}
        env = {k: v for k, v in env.items()
               if k not in HOST_ONLY_ENV and not k.startswith("LC_") and "\0" not in k + v and k and "=" not in k}
        if self.network != "none":
            proxy = f"http://127.0.0.1:{GUEST_PROXY_PORT}"
            for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
                env.setdefault(name, proxy)
            env.setdefault("no_proxy", "localhost,127.0.0.1")
            for name, placeholder in self.secrets.placeholders().items():
                env.setdefault(name, placeholder)  # the proxy turns it into the value, for its hosts
            if self.secrets:  # the VM trusts the kernel's CA (for the secrets' hosts)
                for name, value in GUEST_TRUST_ENV.items():
                    env.setdefault(name, value)
        if not root:  # the agent's defaults are root's
            env.update(HOME=f"/home/{USER_NAME}", USER=USER_NAME, LOGNAME=USER_NAME)
        return env

    def _guest_cwd(self) -> str:
        try:
            cwd = self.sandbox.cwd()
        except Exception:
            cwd = ROOT
        return cwd if cwd == ROOT or cwd.startswith(ROOT + "/") else ROOT

    def _exec_request(self, argv: list[str], root: bool, limits: Limits):
        """The exec request the agent will get, checked (GuestInputError)."""
        return check_exec(argv, self._guest_env(root), self._guest_cwd(), timeout=limits.wall_time + 10,
                          output_limit=limits.stdout_bytes + limits.stderr_bytes + 1,
                          pids_max=limits.vm_processes, memory_max=limits.vm_memory_bytes)

    async def _execute(self, argv: list[str], *, write_out: Callable[[bytes], Awaitable[None]],
                       write_err: Callable[[bytes], Awaitable[None]], progress: Callable[[str], None],
                       cancel_wait: Callable[[], Awaitable[str]], limits: Limits,
                       stdin: Callable[[], Awaitable[bytes]] | None = None,
                       stdin_on_request: Callable[[], Awaitable[bytes]] | None = None,
                       flush_progress: Callable[[], Awaitable[None]] | None = None,
                       root: bool = False, keep: bool = False) -> tuple[int, str | None]:
        """Run argv with sync in/out; returns (status, cancel reason or None).
        ``stdin`` is pumped as the guest takes it; ``stdin_on_request`` is asked only when
        a guest process waits for input. ``flush_progress`` (when progress lines are
        buffered) is awaited once they matter. ``root``: as root, else as the guest's user;
        ``keep``: its background processes may outlive it."""
        try:  # everything the agent will get, checked before the VM is even started
            request = self._exec_request(argv, root, limits)
        except GuestInputError as e:
            progress(f"vm: {e}")
            return 2, None
        machine = await self.start(progress)
        client = machine.client
        assert client is not None
        _, sync_lock = self._locks()
        try:
            async with sync_lock:
                await self._guard(self.sync.sync_in(client, progress), cancel_wait, machine)
            if flush_progress is not None:
                await flush_progress()
            try:
                execution = await client.exec(request.argv, cwd=request.cwd, env=request.env, stdin=stdin,
                                              stdin_on_request=stdin_on_request, timeout=request.timeout,
                                              output_limit=request.output_limit, pids_max=request.pids_max,
                                              memory_max=request.memory_max,
                                              user=None if root else P.GUEST_USER, keep=keep)
            except P.ProtocolError as e:
                progress(f"vm: {e}")
                return 2, None
            cancelled: list[str] = []
            watcher = asyncio.ensure_future(self._watch_cancel(execution, cancel_wait, cancelled))
            try:
                try:
                    async for kind, data in execution.events():
                        await (write_out(data) if kind == "stdout" else write_err(data))
                except AgentError as e:
                    progress(f"vm: {e.strerror}")
                    return (127 if e.errno == 2 else 126), None
            except BaseException:
                # the consumer failed (broken pipe, cancellation): the guest process must not linger
                await execution.signal(signal.SIGKILL, whole_command=True)
                raise
            finally:
                watcher.cancel()
            info = execution.exit
            assert info is not None
            if info.oom_kills:
                killed = f"{info.oom_kills} process" + ("es" if info.oom_kills > 1 else "")
                progress(f"vm: out of memory: the guest's OOM killer ended {killed} of this "
                         f"command (limit: {self._memory_cap(limits)}; more with %vm config memory=MB "
                         f"or {limits.how_to_set(['vm_memory_bytes=SIZE'])})")
            if info.forks_refused:
                progress(f"vm: process limit reached: {info.forks_refused} fork(s) refused, the command's "
                         f"remaining processes were killed (vm_processes={limits.vm_processes}; "
                         f"{self._hint(limits, 'vm_processes')})")
            if cancelled:
                return (130 if cancelled[0] == "interrupt" else 124), cancelled[0]
            if info.kind == P.OUTPUT_LIMIT:
                progress(f"vm: output limit reached ({limits.stdout_bytes + limits.stderr_bytes} bytes; limits "
                         f"stdout_bytes + stderr_bytes; {self._hint(limits, 'stdout_bytes', 'stderr_bytes')}): "
                         "process killed")
            elif info.kind == P.TIMED_OUT:
                return 124, "timeout"
            return info.status, None
        except (AgentGone, P.MalformedReply) as e:
            await self.machine_lost(machine, e, progress)
            return 1, "crash"
        finally:
            await self.sync_workspace(machine, progress, into_guest=False, cancel_wait=cancel_wait)

    async def machine_lost(self, machine: Machine, error: Exception, progress: Callable[[str], None]) -> None:
        """The agent's connection ended, or the agent sent what the protocol forbids, while a
        command ran: say why and kill the VM (the next use starts a new one)."""
        if self.machine is not machine and not isinstance(error, P.MalformedReply):
            progress("vm: the VM was stopped")  # %vm stop or restart while a terminal ran
            return
        if isinstance(error, P.MalformedReply):
            self._notice = MALFORMED_NOTICE
            machine.kill()
        await machine._wait_exit(3.0)  # a panicking guest closes the channel just before QEMU exits
        if self._notice is None:  # the cancel watcher may already know it hung
            self._notice = self._describe_death(machine) if not machine.alive else "the VM connection was lost"
        progress(f"vm: {self._notice}; it will be restarted on next use")
        if machine.alive:
            machine.kill()
        if self.machine is machine:
            self._free_slot()  # a dead VM holds no slot of the host

    async def sync_workspace(self, machine: Machine, progress: Callable[[str], None], *, into_guest: bool,
                             cancel_wait: Callable[[], Awaitable[str]] | None = None) -> None:
        """One sync step with ``machine`` while it is this engine's running VM (after a cell;
        a terminal's periodic sync): failures are reported, never raised."""
        if not (self.running and self.machine is machine):
            return
        _, sync_lock = self._locks()
        step = self.sync.sync_in if into_guest else self.sync.sync_out
        direction = "into the VM" if into_guest else "back"
        try:
            async with sync_lock:
                work = step(machine.client, progress)  # type: ignore[arg-type]
                await (self._guard(work, cancel_wait, machine) if cancel_wait is not None else work)
        except (AgentGone, AgentError) as e:
            progress(f"vm: syncing /workspace {direction} failed: {e}")
        except P.MalformedReply:
            self._notice = MALFORMED_NOTICE
            machine.kill()
            progress(f"vm: {MALFORMED_NOTICE}; nothing more was copied {direction}")

    async def _guard(self, work: Awaitable, cancel_wait, machine: Machine):
        """Await a sync step. Once the cell is interrupted or out of time, the step may go on
        only while the agent keeps answering: silent for HANG_GRACE, the guest counts as hung
        (a frozen VM would otherwise hold the cell until the requests' own timeouts)."""
        task = asyncio.ensure_future(work)
        cancelled = asyncio.ensure_future(cancel_wait())
        try:
            await asyncio.wait({task, cancelled}, return_when=asyncio.FIRST_COMPLETED)
            while not task.done():
                await asyncio.wait({task}, timeout=0.5)
                client = machine.client
                if not task.done() and client is not None and time.monotonic() - client.last_heard > HANG_GRACE:
                    task.cancel()
                    self._notice = HUNG_NOTICE
                    machine.kill()
                    raise AgentGone(self._notice)
            return task.result()
        finally:
            cancelled.cancel()
            if not task.done():
                task.cancel()

    def _hint(self, limits: Limits, *names: str) -> str:
        """How to raise the limits ``names`` (within the admin's ceiling)."""
        return limits.raise_hint(*names, ceilings=getattr(self.sandbox, "ceilings", None))

    def _memory_cap(self, limits: Limits) -> str:
        """Which limit the guest enforced (it keeps 64 MiB of its memory back)."""
        if limits.vm_memory_bytes < (self.config.memory_mb - 64) << 20:
            return f"vm_memory_bytes={format_size(limits.vm_memory_bytes)}"
        return f"the VM's {self.config.memory_mb} MB less 64 MiB"

    async def _watch_cancel(self, execution: Execution, cancel_wait, cancelled: list[str]) -> None:
        reason = await cancel_wait()
        cancelled.append(reason)
        # interrupt is Ctrl-C (the process group); the wall-time limit stops all of the command
        interrupt = reason == "interrupt"
        await execution.signal(signal.SIGINT if interrupt else signal.SIGTERM, whole_command=not interrupt)
        await asyncio.sleep(KILL_GRACE)
        await execution.signal(signal.SIGKILL, whole_command=True)
        await asyncio.sleep(HANG_GRACE)
        # the agent did not report the end of a SIGKILLed group: the guest is hung
        machine = self.machine
        if machine is not None:
            self._notice = HUNG_NOTICE
            machine.kill()

    def parse_options(self, args: list[str]) -> tuple[bool, bool, list[str]]:
        """(root, keep, the words after the options) for ``%%vm`` / ``vm`` options, over the
        ``%vm config`` defaults; ValueError for an unknown option."""
        root, keep = self.as_root, self.keep_daemons
        i = 0
        while i < len(args) and args[i].startswith("--"):
            word = args[i]
            i += 1
            if word == "--":
                break
            if word == "--root":
                root = True
            elif word == "--user":
                root = False
            elif word == "--keep":
                keep = True
            else:
                raise ValueError(f"unknown option '{word}' (--root, --user, --keep)")
        return root, keep, args[i:]

    async def prepare(self, cell: str, streams: Streams, limits: Limits,
                      args: list[str] | None = None) -> RunResult | None:
        """Set-up before the cell's wall time starts: build the guest image if needed and
        start the VM, with progress as one output updated in place. A RunResult when the
        cell cannot run (bad options, a command Linux would refuse: no VM is started for
        it), the set-up failed or was interrupted; None when the VM is ready."""
        try:
            root, _, rest = self.parse_options(args or [])
            if rest:
                raise ValueError(f"%%vm takes only options, not '{rest[0]}' (the code goes on the next lines)")
            self._exec_request(["/bin/bash", "-c", cell, "bash"], root, limits)
        except GuestInputError as e:
            streams.stderr.write(f"vm: {e}\n".encode("utf-8", "surrogateescape"))
            return RunResult(2, ErrorInfo("GuestInputError", str(e), []))
        except ValueError as e:
            streams.stderr.write(f"vm: {e}\n".encode("utf-8", "surrogateescape"))
            return RunResult(2, ErrorInfo("UsageError", str(e), []))
        if self.running and time.monotonic() - self.machine.client.last_heard < RECENTLY_HEARD:  # type: ignore[union-attr]
            return None
        progress = SetupProgress(streams)
        starting = asyncio.ensure_future(self.start(progress))
        cancelled = asyncio.ensure_future(streams.cancel.wait())
        ticker = asyncio.ensure_future(progress.tick())
        try:
            await asyncio.wait({starting, cancelled}, return_when=asyncio.FIRST_COMPLETED)
            if not starting.done():
                starting.cancel()
                with contextlib.suppress(asyncio.CancelledError, VmError):
                    await starting
                progress("vm: set-up interrupted")
                return RunResult(130, ErrorInfo("Interrupted", "interrupted while the VM was being set up", []))
            starting.result()
        except VmError as e:
            progress("vm: set-up failed")
            streams.stderr.write(f"vm: {e}\n".encode("utf-8", "surrogateescape"))
            return RunResult(1, ErrorInfo("VMError", str(e).splitlines()[0], [str(e)]))
        finally:
            cancelled.cancel()
            ticker.cancel()
        return None

    async def run(self, cell: str, streams: Streams, limits: Limits, args: list[str] | None = None) -> RunResult:
        def progress(line: str) -> None:
            streams.stderr.write((line + "\n").encode("utf-8", "surrogateescape"))

        try:
            root, keep, rest = self.parse_options(args or [])
            if rest:
                raise ValueError(f"%%vm takes only options, not '{rest[0]}' (the code goes on the next lines)")
        except ValueError as e:
            progress(f"vm: {e}")
            return RunResult(2, ErrorInfo("UsageError", str(e), []))

        async def out(data: bytes) -> None:
            streams.stdout.write(data)

        async def err(data: bytes) -> None:
            streams.stderr.write(data)

        ask = streams.input

        async def read_line() -> bytes:  # the notebook's input box, one line per request
            try:
                line = await ask("", False)  # type: ignore[misc]
            except Exception:  # noqa: BLE001 - the frontend has no stdin
                return b""
            return b"" if line is None else (line + "\n").encode("utf-8", "surrogateescape")
        try:
            status, reason = await self._execute(["/bin/bash", "-c", cell, "bash"], write_out=out, write_err=err,
                                                 progress=progress, cancel_wait=streams.cancel.wait, limits=limits,
                                                 stdin_on_request=read_line if ask is not None else None,
                                                 root=root, keep=keep)
        except VmError as e:
            progress(f"vm: {e}")
            return RunResult(1, ErrorInfo("VMError", str(e).splitlines()[0], [str(e)]))
        if reason == "interrupt":
            return RunResult(130, ErrorInfo("Interrupted", "interrupted", []))
        if reason == "timeout":
            return RunResult(124, ErrorInfo("Timeout", f"wall time of {limits.wall_time:g} s exceeded (limit "
                                                       f"wall_time; {self._hint(limits, 'wall_time')})", []))
        if reason == "crash":
            return RunResult(status, ErrorInfo("VMError", self._notice or "the VM crashed", []))
        if status != 0:
            return RunResult(status, ErrorInfo("ExitStatus", f"exit status {status}", []))
        return RunResult(0)

    async def run_command(self, ctx) -> int:
        """The ``vm CMD ARGS...`` shell command, with the pipeline's streams."""
        from ..commands.registry import CommandCancelled

        try:
            root, keep, args = self.parse_options(list(ctx.args))
        except ValueError as e:
            await ctx.error(str(e))
            await ctx.err("Try 'vm --help' for more information.\n")
            return 2
        if not args:
            await ctx.error("missing command")
            await ctx.err("Try 'vm --help' for more information.\n")
            return 2
        limits = getattr(self.sandbox, "limits", None) or Limits()

        # progress lines come from sync code (VM start, sync reports): queued, written in order
        pending_notes: list[str] = []

        def progress(line: str) -> None:
            pending_notes.append(line)

        async def out(data: bytes) -> None:
            await flush_notes()
            await ctx.stdout.write(data)

        async def err(data: bytes) -> None:
            await flush_notes()
            await ctx.stderr.write(data)

        async def flush_notes() -> None:
            while pending_notes:
                await ctx.err(pending_notes.pop(0) + "\n")

        async def cancel_wait() -> str:
            while True:
                try:
                    ctx.check()
                except CommandCancelled:
                    return "interrupt"
                await asyncio.sleep(0.05)

        async def read_stdin() -> bytes:
            return await ctx.stdin.read_some(256 * 1024)

        try:
            status, reason = await self._execute(args, write_out=out, write_err=err, progress=progress,
                                                 cancel_wait=cancel_wait, limits=limits, stdin=read_stdin,
                                                 flush_progress=flush_notes, root=root, keep=keep)
        except VmError as e:
            await flush_notes()
            await ctx.error(str(e))
            return 1
        await flush_notes()
        if reason == "interrupt":
            ctx.check()  # raises CommandCancelled with the shell's own reason
        return status

    async def open_terminal(self, rows: int, cols: int, on_output: Callable[[bytes], None],
                            progress: Callable[[str], None]) -> VmTerminal:
        """A login shell as the guest's user in /workspace on a pty (``vm/terminal.py``), the VM
        started (progress lines) and the workspace synced in first. TerminalError when the
        VM cannot run it (no image or QEMU, the host's VM slots full, a broken guest)."""
        limits = self.sandbox.limits
        env = {**self._guest_env(root=False), **TERMINAL_ENV}
        try:
            request = check_exec(TERMINAL_ARGV, env, ROOT, pids_max=limits.vm_processes,
                                 memory_max=limits.vm_memory_bytes)
            machine = await self.start(progress)
        except (GuestInputError, VmError) as e:
            raise TerminalError(str(e)) from None
        await self.sync_workspace(machine, progress, into_guest=True)
        terminal = VmTerminal(self, machine, on_output, progress)
        try:
            await terminal.start(request, rows, cols)
        except (AgentGone, AgentError, P.ProtocolError) as e:
            raise TerminalError(f"cannot start the shell in the VM: {e}") from None
        return terminal

    # ------------------------------------------------------------------ %vm
    # ------------------------------------------------------------------ completion
    async def complete(self, code: str, cursor: int) -> tuple[int, list[str]]:
        """Tab in a `%%vm` cell, when the VM runs (never starts one): command names in command
        position, file names elsewhere, variables after ``$``, from the guest's bash."""
        request = completion.completion_request(code, cursor)
        if request is None or not self.running:
            return cursor, []
        start, mode, word, brace = request
        data = await self._ask_guest(mode, word)
        return start, ([] if data is None else completion.read_names(data, mode, brace))

    async def inspect(self, code: str, cursor: int) -> str | None:
        """Shift-Tab in a `%%vm` cell: what the guest's bash says the word is (``type``), and
        a builtin's ``help``; nothing when the VM is not running."""
        word = completion.inspection_word(code, cursor)
        if word is None or not self.running:
            return None
        data = await self._ask_guest("h", word)
        return None if data is None else completion.read_help(data)

    async def _ask_guest(self, mode: str, word: str) -> bytes | None:
        """completion.GUEST_SCRIPT's stdout (at most COMPLETION_OUTPUT bytes, cut to whole
        lines), run as the cells' user in the cells' cwd; None if it failed or took longer than
        COMPLETION_TIMEOUT. The workspace is not synced for it."""
        machine = self.machine
        if machine is None or machine.client is None:
            return None
        argv = ["bash", "--norc", "--noprofile", "-c", completion.GUEST_SCRIPT, "sandbox-complete", mode, word]
        try:
            request = check_exec(argv, self._guest_env(self.as_root), self._guest_cwd(), timeout=COMPLETION_TIMEOUT,
                                 output_limit=COMPLETION_OUTPUT, pids_max=COMPLETION_PROCESSES,
                                 memory_max=COMPLETION_MEMORY)
        except GuestInputError:
            return None
        chunks: list[bytes] = []
        size = 0
        execution: Execution | None = None

        async def collect() -> None:
            nonlocal execution, size
            execution = await machine.client.exec(  # type: ignore[union-attr]
                request.argv, cwd=request.cwd, env=request.env, timeout=request.timeout,
                output_limit=request.output_limit, pids_max=request.pids_max, memory_max=request.memory_max,
                user=None if self.as_root else P.GUEST_USER)
            async for kind, data in execution.events():
                if kind == "stdout" and size < COMPLETION_OUTPUT:
                    chunks.append(data[:COMPLETION_OUTPUT - size])
                    size += len(chunks[-1])
        try:
            await asyncio.wait_for(collect(), COMPLETION_TIMEOUT + 1)
        except asyncio.TimeoutError:
            if execution is not None:
                with contextlib.suppress(Exception):
                    await execution.signal(signal.SIGKILL, whole_command=True)
            return None
        except (AgentError, AgentGone, P.ProtocolError, P.MalformedReply):
            return None  # a lost VM is the next cell's to notice and tell
        data = b"".join(chunks)
        if size >= COMPLETION_OUTPUT:
            data = data[:data.rfind(b"\n") + 1]  # the last line may be cut
        return data

    async def magic(self, args: str | list[str]) -> str:
        """``%vm start|stop|restart|status|config k=v...``; returns the text to show."""
        words = args.split() if isinstance(args, str) else list(args)
        if not words or words[0] in ("help", "--help", "-h"):
            return MAGIC_HELP
        cmd, rest = words[0], words[1:]
        notes: list[str] = []
        try:
            if cmd == "start":
                was = self.running
                await self.start(notes.append)
                return "\n".join(notes) if not was else "vm: already running\n" + self.status_text()
            if cmd == "stop":
                return "vm: stopped" if await self.stop() else "vm: not running"
            if cmd == "restart":
                await self.stop()
                await self.start(notes.append)
                return "\n".join(notes)
            if cmd == "status":
                return self.status_text(await self._guest_memory())
            if cmd == "egress":
                if len(rest) > 1 or (rest and (not isdigits(rest[0]) or not 1 <= int(rest[0]) <= 1000)):
                    return "vm: usage: %vm egress [N]   (the last N accesses, 1..1000, default 50)"
                return self.egress.table(int(rest[0]) if rest else 50)
            if cmd == "config":
                sudo = self.sudo
                text = self.configure(rest)
                if text.startswith("vm: config:"):  # refused: the cell fails (papermill stops)
                    raise ValueError(text[len("vm: "):])
                if self.sudo != sudo and self.running:
                    await self._apply_sudo(self.machine)  # type: ignore[arg-type]
                return text
        except VmError as e:
            return "\n".join(notes + [f"vm: {e}"])
        return f"vm: unknown subcommand '{cmd}'\n{MAGIC_HELP}"

    def config_text(self) -> str:
        return (
            f"vcpus={self.config.vcpus} memory={self.config.memory_mb} user={'root' if self.as_root else USER_NAME} "
            f"daemons={on_off(self.keep_daemons)} sudo={on_off(self.sudo)} network={self.network}"
            + (f" secrets={on_off(self.secrets is self._admin_secrets)}" if self._admin_secrets else "")
        )

    def configure(self, items: list[str]) -> str:
        if not items:
            return self.config_text()
        changes: dict[str, object] = {}
        switches = {"daemons": "keep_daemons", "sudo": "sudo", "secrets": "use_secrets"}
        policy = self.sandbox.policy
        for item in items:
            key, eq, value = item.partition("=")
            if not eq:
                return f"vm: config: expected key=value, got '{item}'"
            if key == "vcpus":
                if not isdigits(value) or int(value) < VM_VCPUS_RANGE[0]:
                    return f"vm: config: vcpus must be {VM_VCPUS_RANGE[0]}..{policy.vm_max_vcpus}"
                if int(value) > policy.vm_max_vcpus:
                    return (f"vm: config: vcpus={int(value)} is above this kernel's ceiling of "
                            f"{policy.vm_max_vcpus} (the admin sets it: python -m sandbox_kernel "
                            "install --max-vm-vcpus N)")
                changes["vcpus"] = int(value)
            elif key in ("memory", "mem"):
                memory = parse_memory_mb(value)
                if memory is None or memory < VM_MEMORY_RANGE[0]:
                    return f"vm: config: memory must be {VM_MEMORY_RANGE[0]}..{policy.vm_max_memory_mb} (MB, or 2G)"
                if memory > policy.vm_max_memory_mb:
                    return (f"vm: config: memory={memory} MB is above this kernel's ceiling of "
                            f"{policy.vm_max_memory_mb} MB (the admin sets it: python -m sandbox_kernel "
                            "install --max-vm-memory SIZE)")
                changes["memory_mb"] = memory
            elif key == "network":
                try:
                    check_narrower(value, self.sandbox.policy.network)
                except ValueError as e:
                    return (f"vm: config: network={value}: {e}; a cell may only narrow the "
                            "network the admin allows (python -m sandbox_kernel install --network ...)")
                changes["network"] = value
            elif key == "user":
                if value not in (USER_NAME, "root"):
                    return f"vm: config: user must be {USER_NAME} or root"
                changes["as_root"] = value == "root"
            elif key in switches:
                if value not in ("on", "off"):
                    return f"vm: config: {key} must be on or off"
                changes[switches[key]] = value == "on"
            else:
                return f"vm: config: unknown setting '{key}' (vcpus, memory, network, user, daemons, sudo, secrets)"
        network = str(changes.get("network", self.network))
        secrets = self.secrets
        if "use_secrets" in changes:
            secrets = self._admin_secrets if changes.pop("use_secrets") else SecretInjector(())
        refused = self._secrets_without_network(network, secrets)
        if refused:
            return f"vm: config: {refused}"
        if self.running and (any(k in changes and changes[k] != getattr(self.config, k) for k in ("vcpus", "memory_mb"))
                             or network != self.network or bool(secrets) != bool(self.secrets)):
            return "vm: config: stop the VM first (%vm stop), settings apply at start"
        self.secrets = secrets
        for key, value in changes.items():
            if key == "network":
                self.network = str(value)
            elif key in ("as_root", *switches.values()):
                setattr(self, key, value)
            else:
                setattr(self.config, key, value)
        return self.config_text()

    async def _guest_memory(self) -> str | None:
        if not self.running:
            return None
        try:
            data = await self.machine.client.read_chunk("/proc/meminfo", 0, 4096)  # type: ignore[union-attr]
        except (AgentError, AgentGone):
            return None
        info = {}
        for line in data.decode(errors="replace").splitlines():
            key, _, value = line.partition(":")
            info[key] = value.strip()
        return f"{info.get('MemTotal', '?')} total, {info.get('MemAvailable', '?')} available"

    def status_text(self, memory: str | None = None) -> str:
        if not self.running:
            base = "vm: not running"
            if self._notice:
                base += f" ({self._notice})"
            return "\n".join([base, f"config: vcpus={self.config.vcpus} memory={self.config.memory_mb} MB "
                                    f"network={self.network}", *self._policy_lines()])
        m = self.machine
        assert m is not None
        uptime = time.monotonic() - m.started_at
        lines = [f"vm: running (pid {m.proc.pid if m.proc else '?'})",
                 f"accelerator: {m.config.accel.upper()} ({self.accel_reason})",
                 f"started by: {m.boot_mode} in {m.boot_seconds:.2f} s",
                 f"uptime: {uptime:.0f} s",
                 f"vcpus: {m.config.vcpus}",
                 f"memory: {m.config.memory_mb} MB" + (f" ({memory})" if memory else ""),
                 f"network: {self.network}" + (f" ({len(self.egress.records)} accesses logged, %vm egress)"
                                               if self.network != "none" else ""),
                 *[f"  {record.line()}" for record in list(self.egress.records)[-5:]],
                 *self._policy_lines(),
                 f"image: {self.image.hash if self.image else '?'}"]
        return "\n".join(lines)

    def _policy_lines(self) -> list[str]:
        """Secrets (names, hosts, placeholders: never values) and the host's VM slots."""
        policy = self.sandbox.policy
        lines = [f"ceilings: vcpus={policy.vm_max_vcpus} memory={policy.vm_max_memory_mb} MB (the admin's)"]
        placeholders = self.secrets.placeholders()
        for secret in self.sandbox.policy.secrets:
            where = secret.hosts[len("allow:"):]
            if secret.value is None:
                lines.append(f"secret {secret.name}: not available ({secret.source} not set)")
            elif secret.name not in placeholders:
                lines.append(f"secret {secret.name}: for {where}; off in this VM (%vm config secrets=off)")
            else:
                lines.append(
                    f"secret {secret.name}: for {where}; in the VM ${secret.name} = {placeholders[secret.name]}"
                )
        if self.slots is not None:
            taken = len(self.slots.holders())
            lines.append(f"host VM slots: {taken} of {self.slots.count} in use ({self.slots.directory})")
        return lines
