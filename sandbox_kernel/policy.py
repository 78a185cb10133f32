"""Policy: what the admin decided for every kernel of a kernelspec; cells may only narrow it.

The admin sets it on the kernel's command line (``kernel.json`` argv, written by
``python -m sandbox_kernel install --limit ... --max-limit ... --network ... --mount ...
--persist --secret ... --max-vms ... --max-terminals ... --allow-active-output``). Secret values never appear on
a command line: they come from the kernel's environment (``kernel.json`` ``env`` or the
spawner's) or from a file only the kernel's user can read. Nothing a cell runs can change any
of it.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, MutableMapping

from .limits import DEFAULT_CEILINGS, Limits, notebook_defaults
from .paths import under

# argparse, json and netpolicy (ipaddress) are imported by the functions that read options:
# a sandbox without an admin's policy (the `sh` CLI) needs only Policy() (tests/test_startup.py)
if TYPE_CHECKING:
    import argparse

    from .netpolicy import AllowRule

#: A secret's hosts get it on this port unless their rule names one: HTTPS only, never in clear.
SECRET_PORTS = (443,)
SECRET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Variables the VM engine sets itself (proxy and CA settings): a secret may not take them.
RESERVED_NAMES = {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY",
                  "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "PIP_CERT", "NODE_EXTRA_CA_CERTS",
                  "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "PATH", "HOME"}
MIN_SECRET, MAX_SECRET = 8, 8192
MAX_VMS_LIMIT = 1024
#: The VM sizes an admin may allow (MiB of guest memory, vCPUs), and the ceilings a cell's
#: ``%vm config`` meets unless the admin sets others (--max-vm-memory, --max-vm-vcpus).
VM_MEMORY_RANGE = (128, 65536)
VM_VCPUS_RANGE = (1, 64)
DEFAULT_VM_MAX_MEMORY = 4096
DEFAULT_VM_MAX_VCPUS = 4
#: Terminals (``sandbox.terminal`` comms) one kernel keeps open at once unless the admin sets
#: another number (--max-terminals): each is a shell sharing the kernel's one memory budget.
DEFAULT_MAX_TERMINALS = 8
MAX_TERMINALS_LIMIT = 256


def parse_memory_mb(text: str) -> int | None:
    """``512``, ``512M``, ``512MB``, ``2G`` -> MiB; None when not a size."""
    number = text.strip().upper().removesuffix("B").removesuffix("M")
    scale = 1
    if number.endswith("G"):
        number, scale = number[:-1], 1024
    return int(number) * scale if number.isascii() and number.isdigit() else None


@dataclass(frozen=True)
class Secret:
    """``name`` -> ``value``, sent only to ``hosts`` (an ``allow:`` list; port 443 unless a rule
    names another). ``value`` is None when its source did not provide it (the kernel says so)."""

    name: str
    hosts: str
    value: str | None = field(default=None, repr=False, compare=False)
    source: str = ""

    def rules(self) -> list[AllowRule]:
        from .netpolicy import parse_allow_list
        return parse_allow_list(self.hosts, SECRET_PORTS)


# ------------------------------------------------------------------ host mounts
#: host mounts go inside this tree: the one the shell, JS and %%vm all see
MOUNT_BASE = "/workspace"
MAX_NAME = 255


class MountError(ValueError):
    """A bad --mount (the message says which part and why)."""


@dataclass(frozen=True)
class MountSpec:
    host: str      # as the admin wrote it; relative paths are the kernel's cwd's
    target: str    # absolute, normalised, under MOUNT_BASE
    writable: bool

    @property
    def text(self) -> str:
        return f"{self.host}:{self.target}:{'rw' if self.writable else 'ro'}"


def parse_mount(text: str) -> MountSpec:
    """``HOST_DIR:SANDBOX_DIR[:ro|rw]`` (default ro), checked like kumoba's GuestPath."""
    if "\0" in text:
        raise MountError(f"--mount {text!r}: NUL in the path")
    parts = text.rsplit(":", 2) if text.count(":") >= 2 else text.split(":")
    if len(parts) == 3 and parts[2] not in ("ro", "rw"):
        raise MountError(f"--mount {text}: the mode must be ro or rw, not '{parts[2]}'")
    if len(parts) < 2 or not parts[0] or not parts[1]:
        raise MountError(f"--mount {text}: expected HOST_DIR:SANDBOX_DIR[:ro|rw]")
    host, target = parts[0], parts[1]
    writable = len(parts) == 3 and parts[2] == "rw"
    check_target(target)
    return MountSpec(host, target, writable)


def check_target(target: str) -> None:
    if not target.startswith("/"):
        raise MountError(f"sandbox path '{target}' must be absolute")
    if any(c in target for c in "\0\n") or any(ord(c) < 32 for c in target):
        raise MountError(f"sandbox path {target!r} has control characters")
    parts = target.split("/")[1:]
    if any(p in ("", ".", "..") for p in parts):
        raise MountError(f"sandbox path '{target}' must be normalised (no '.', '..', '//' or trailing '/')")
    if any(len(p) > MAX_NAME for p in parts):
        raise MountError(f"sandbox path '{target}' has a name longer than {MAX_NAME}")
    if not target.startswith(MOUNT_BASE + "/"):
        raise MountError(f"sandbox path '{target}' must be inside {MOUNT_BASE} (the tree the shell, "
                         "JS and %%vm all see), e.g. /workspace/data; never over /etc, /usr, /dev or /proc")


def check_mounts(specs: list[MountSpec]) -> None:
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            if under(a.target, b.target) or under(b.target, a.target):
                raise MountError(f"mounts {a.target} and {b.target} overlap")


# ------------------------------------------------------------------ the policy
@dataclass(frozen=True)
class Policy:
    #: The widest VM egress a cell may use: ``none`` or ``allow:HOST[:PORT],...``
    #: (see ``netpolicy``); cells start with it and may narrow it with ``%vm config network=``.
    network: str = "none"
    #: Whether rich output may carry scripts (HTML as given, application/javascript).
    #: Off: everything is made passive first (``sanitize``).
    active_output: bool = False
    #: What each kernel's cells start with (``--limit NAME=VALUE``).
    limits: Limits = field(default_factory=notebook_defaults)
    #: The most ``%limits`` may raise each limit to (``--max-limit NAME=VALUE``).
    ceilings: Limits = field(default_factory=lambda: DEFAULT_CEILINGS.replace())
    #: Host directories copied in (and for rw written back): ``--mount HOST:SANDBOX[:ro|rw]``.
    mounts: tuple[MountSpec, ...] = ()
    #: Keep /workspace and /home/user across restarts (``--persist``; per notebook).
    persist: bool = False
    #: Credentials the guest never sees: it gets a placeholder, the egress proxy puts the
    #: value into requests to the secret's hosts only.
    secrets: tuple[Secret, ...] = ()
    #: Append every egress access to this file too (JSON lines, created 0600).
    egress_log: str | None = None
    #: Extra CA certificates (PEM) the proxy trusts for upstream TLS, beside the system's.
    egress_ca_file: str | None = None
    #: At most this many VMs run at once on this host (all kernels sharing ``vm_slots_dir``).
    max_vms: int | None = None
    vm_slots_dir: str | None = None
    #: Seconds a start waits for a free VM slot before it is refused.
    vm_queue_timeout: float = 60.0
    #: Seconds a full boot may take (a resume gets at most 20 of them, then boots fully).
    vm_boot_timeout: float = 120.0
    #: Seconds a stopping guest gets to power off before QEMU is terminated.
    vm_stop_timeout: float = 3.0
    #: The largest VM a cell may configure (``%vm config memory=... vcpus=...``).
    vm_max_memory_mb: int = DEFAULT_VM_MAX_MEMORY
    vm_max_vcpus: int = DEFAULT_VM_MAX_VCPUS
    #: At most this many terminals open at once in one kernel (``--max-terminals``).
    max_terminals: int = DEFAULT_MAX_TERMINALS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The policy options, shared by ``install`` (which writes them) and ``kernel`` (which reads them)."""
    parser.add_argument("--network", metavar="SPEC", default=None,
                        help="VM egress for every kernel of this spec: none (default) or "
                             "allow:HOST[:PORT],*.DOMAIN,...; cells may only narrow it")
    parser.add_argument("--limit", metavar="NAME=VALUE", action="append", default=[],
                        help="a limit every kernel of this spec starts with (e.g. wall_time=120, "
                             "vfs_bytes=1G); raises its ceiling to at least that")
    parser.add_argument("--max-limit", metavar="NAME=VALUE", action="append", default=[],
                        help="the most a cell may raise a limit to with %%limits")
    parser.add_argument("--mount", metavar="HOST_DIR:SANDBOX_DIR[:ro|rw]", action="append", default=[],
                        help="copy a host directory into the sandbox (ro, default) or also write changes "
                             "back after each cell (rw); SANDBOX_DIR under /workspace; HOST_DIR relative "
                             "to the kernel's working directory (the notebook's folder)")
    parser.add_argument("--persist", action="store_true", default=None,
                        help="keep /workspace and /home/user across kernel restarts (one SQLite store "
                             "per notebook under the data dir)")
    parser.add_argument("--allow-active-output", action="store_true", default=None,
                        help="let rich output run scripts in the browser (off: HTML, Markdown and "
                             "SVG are sanitised, application/javascript is dropped)")
    parser.add_argument("--secret", metavar="NAME@HOST[,HOST...]", action="append", default=None,
                        help="a credential the guest never sees: the value of the kernel's "
                             "environment variable NAME, put by the egress proxy into requests to "
                             "HOST only (port 443 unless HOST:PORT); the guest's $NAME is a placeholder")
    parser.add_argument("--secrets-file", metavar="PATH", default=None,
                        help='secrets from a JSON file readable by the kernel\'s user only: '
                             '{"NAME": {"value": "...", "hosts": ["HOST", ...]}}')
    parser.add_argument("--egress-log", metavar="PATH", default=None,
                        help="append every VM egress access to PATH (JSON lines, created 0600)")
    parser.add_argument("--egress-ca-file", metavar="PATH", default=None,
                        help="extra CA certificates (PEM) the egress proxy trusts for upstream TLS")
    parser.add_argument("--max-vms", metavar="N", type=int, default=None,
                        help="at most N VMs running at once on this host, across all kernels "
                             "sharing --vm-slots-dir")
    parser.add_argument("--vm-slots-dir", metavar="DIR", default=None,
                        help="the lock directory of --max-vms (default: the cache directory)")
    parser.add_argument("--vm-queue-timeout", metavar="SECONDS", type=float, default=None,
                        help="how long a VM start waits for a free slot (default 60)")
    parser.add_argument("--vm-boot-timeout", metavar="SECONDS", type=float, default=None,
                        help="how long a VM boot may take (default 120)")
    parser.add_argument("--vm-stop-timeout", metavar="SECONDS", type=float, default=None,
                        help="how long a stopping VM gets to power off (default 3)")
    parser.add_argument("--max-vm-memory", metavar="SIZE", default=None,
                        help=f"the most guest memory a cell may ask for with %%vm config memory= "
                             f"(default {DEFAULT_VM_MAX_MEMORY // 1024}G; 128M..64G)")
    parser.add_argument("--max-vm-vcpus", metavar="N", type=int, default=None,
                        help=f"the most vCPUs a cell may ask for with %%vm config vcpus= "
                             f"(default {DEFAULT_VM_MAX_VCPUS}; 1..64)")
    parser.add_argument("--max-terminals", metavar="N", type=int, default=None,
                        help=f"at most N terminals open at once in one kernel (default "
                             f"{DEFAULT_MAX_TERMINALS}; 0..{MAX_TERMINALS_LIMIT}; 0: no terminals)")


def from_arguments(args: argparse.Namespace, environ: MutableMapping[str, str] | None = None) -> Policy:
    """A Policy from parsed options; raises ValueError for a bad value.

    With ``environ`` (the kernel starting) secret values are read: ``--secret NAME`` takes
    ``environ[NAME]`` and removes it, so no child process (QEMU) inherits it; the secrets
    file is read. Without it (``install``) only the options' syntax is checked."""
    from .netpolicy import check_within, parse_allow_list
    network = args.network or "none"
    if network != "none":
        parse_allow_list(network)
    limits, ceilings = notebook_defaults(), DEFAULT_CEILINGS.replace()
    for option, target in (("--max-limit", ceilings), ("--limit", limits)):
        for item in getattr(args, option[2:].replace("-", "_")) or []:
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"{option} {item}: expected NAME=VALUE (e.g. {option} wall_time=120)")
            target.set_from_text(name, value)
    given_limits = {i.partition("=")[0] for i in args.limit or []}
    given_ceilings = {i.partition("=")[0] for i in args.max_limit or []}
    for name in Limits.field_names():
        if getattr(limits, name) <= getattr(ceilings, name):
            continue
        if name in given_limits and name in given_ceilings:
            raise ValueError(f"--limit {name}={limits.shown(name)} is above --max-limit {name}={ceilings.shown(name)}")
        if name in given_limits:  # the admin's own default may also be asked for
            setattr(ceilings, name, getattr(limits, name))
        else:  # a ceiling below the built-in default lowers the default
            setattr(limits, name, getattr(ceilings, name))
    mounts = [parse_mount(text) for text in args.mount or []]
    check_mounts(mounts)
    secrets = [_secret_from_option(text, environ) for text in args.secret or ()]
    if environ is os.environ:  # the kernel starting: its /proc/<pid>/environ still shows the values
        erase_initial_environment([s.name for s in secrets])
    if args.secrets_file:
        if not os.path.isabs(args.secrets_file):
            raise ValueError(f"--secrets-file must be an absolute path: {args.secrets_file}")
        if environ is not None:
            secrets += read_secrets_file(args.secrets_file)
    names = [s.name for s in secrets]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"secret {name} is defined twice")
    for secret in secrets:
        if network == "none":
            raise ValueError(f"secret {secret.name} needs a network: --network allow:... listing "
                             f"its hosts ({secret.hosts[len('allow:'):]}); this policy has none")
        try:
            check_within(secret.rules(), network)
        except ValueError as e:
            raise ValueError(f"secret {secret.name}: {e}") from None
    for option in ("egress_log", "egress_ca_file", "vm_slots_dir"):
        path = getattr(args, option)
        if path is not None and not os.path.isabs(path):
            raise ValueError(f"--{option.replace('_', '-')} must be an absolute path: {path}")
    if args.max_vms is not None and not 1 <= args.max_vms <= MAX_VMS_LIMIT:
        raise ValueError(f"--max-vms must be 1..{MAX_VMS_LIMIT}")
    timeouts = {}
    for option, low, high in (("vm_queue_timeout", 0, 86400), ("vm_boot_timeout", 1, 3600),
                              ("vm_stop_timeout", 0.1, 600)):
        value = getattr(args, option)
        if value is not None:
            if not low <= value <= high:  # also refuses nan
                raise ValueError(f"--{option.replace('_', '-')} must be {low}..{high} seconds")
            timeouts[option] = float(value)
    max_memory, max_vcpus = DEFAULT_VM_MAX_MEMORY, DEFAULT_VM_MAX_VCPUS
    if args.max_vm_memory is not None:
        memory = parse_memory_mb(args.max_vm_memory)
        if memory is None or not VM_MEMORY_RANGE[0] <= memory <= VM_MEMORY_RANGE[1]:
            raise ValueError(f"--max-vm-memory must be a size of 128M..64G (e.g. 8G), not '{args.max_vm_memory}'")
        max_memory = memory
    if args.max_vm_vcpus is not None:
        if not VM_VCPUS_RANGE[0] <= args.max_vm_vcpus <= VM_VCPUS_RANGE[1]:
            raise ValueError(f"--max-vm-vcpus must be {VM_VCPUS_RANGE[0]}..{VM_VCPUS_RANGE[1]}")
        max_vcpus = args.max_vm_vcpus
    max_terminals = DEFAULT_MAX_TERMINALS if args.max_terminals is None else args.max_terminals
    if not 0 <= max_terminals <= MAX_TERMINALS_LIMIT:
        raise ValueError(f"--max-terminals must be 0..{MAX_TERMINALS_LIMIT}")
    return Policy(network=network, active_output=bool(args.allow_active_output), limits=limits,
                  ceilings=ceilings, mounts=tuple(mounts), persist=bool(args.persist),
                  secrets=tuple(secrets), egress_log=args.egress_log, egress_ca_file=args.egress_ca_file,
                  max_vms=args.max_vms, vm_slots_dir=args.vm_slots_dir, vm_max_memory_mb=max_memory,
                  vm_max_vcpus=max_vcpus, max_terminals=max_terminals, **timeouts)


def _secret_from_option(text: str, environ: MutableMapping[str, str] | None) -> Secret:
    name, at, hosts = text.partition("@")
    if not at or not hosts.strip():
        raise ValueError(f"--secret {text}: expected NAME@HOST[,HOST...]")
    check_secret_name(name)
    secret = Secret(name, "allow:" + hosts, source=f"environment variable {name}")
    secret.rules()
    if environ is None:
        return secret
    value = environ.pop(name, None)
    if value is not None:
        check_secret_value(name, value)
    return Secret(name, secret.hosts, value, secret.source)


def erase_initial_environment(names: list[str]) -> None:
    """Overwrite with NULs the values of ``names`` (no longer set) in the environment block this
    process started with. Unsetting a variable drops the C pointer to it, but Linux keeps showing
    the original block as /proc/<pid>/environ, to this user's other processes too."""
    names = [name for name in names if name not in os.environ]  # a set one is still in use
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[47]), int(fields[48])  # env_start, env_end: proc(5) fields 50, 51
        with open("/proc/self/maps") as f:  # the block lies in one writable mapping (the stack)
            writable = any(int(low, 16) <= start and end <= int(high, 16) and perms.startswith("rw")
                           for low, high, perms in (_map_range(line) for line in f))
    except (OSError, IndexError, ValueError):
        return  # not Linux: no such file shows the block
    if not names or not writable or not 0 < end - start <= 1 << 26:
        return
    import ctypes

    block = ctypes.string_at(start, end - start)
    at = 0
    for entry in block.split(b"\0"):
        name, eq, value = entry.partition(b"=")
        if eq and value and name.decode("latin-1") in names:
            ctypes.memset(start + at + len(name) + 1, 0, len(value))
        at += len(entry) + 1


def _map_range(line: str) -> tuple[str, str, str]:
    span, perms = line.split()[:2]
    low, high = span.split("-")
    return low, high, perms


def read_secrets_file(path: str) -> list[Secret]:
    """The secrets of a JSON file the kernel's user owns and nobody else may read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as e:
        raise ValueError(f"--secrets-file {path}: {e.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or info.st_uid != os.getuid():
            raise ValueError(f"--secrets-file {path}: must be a regular file owned by this user and "
                             "not readable or writable by others (chmod 600)")
        import json
        try:
            data = json.loads(f.read(1 << 20))
        except ValueError as e:
            raise ValueError(f"--secrets-file {path}: not valid JSON ({e.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise ValueError(f"--secrets-file {path}: expected an object of NAME: {{value, hosts}}")
    secrets = []
    for name, entry in data.items():
        check_secret_name(name)
        hosts = entry.get("hosts") if isinstance(entry, dict) else None
        value = entry.get("value") if isinstance(entry, dict) else None
        if not isinstance(value, str) or not isinstance(hosts, list) or not hosts \
                or not all(isinstance(h, str) and h.strip() and "," not in h for h in hosts):
            raise ValueError(f"--secrets-file {path}: secret {name} needs \"value\" (a string) and "
                             "\"hosts\" (a list of HOST[:PORT] strings)")
        check_secret_value(name, value)
        secret = Secret(name, "allow:" + ",".join(hosts), value, f"secrets file {path}")
        secret.rules()
        secrets.append(secret)
    return secrets


def check_secret_name(name: str) -> None:
    if not SECRET_NAME.fullmatch(name) or name in RESERVED_NAMES:
        raise ValueError(f"invalid secret name '{name}' (letters, digits and _; not a proxy or CA variable)")


def check_secret_value(name: str, value: str) -> None:
    """Printable ASCII of a sane length: it goes into HTTP headers, and responses are searched
    for it (a very short value would match by chance)."""
    if not MIN_SECRET <= len(value) <= MAX_SECRET:
        raise ValueError(f"secret {name}: the value must be {MIN_SECRET}..{MAX_SECRET} characters")
    if not all(" " <= c <= "~" for c in value):
        raise ValueError(f"secret {name}: the value must be printable ASCII (no newlines or control characters)")


def to_argv(args: argparse.Namespace) -> list[str]:
    """The options of ``args`` that differ from the defaults, as kernel argv (never a secret value)."""
    argv: list[str] = []
    if args.network and args.network != "none":
        argv += ["--network", args.network]
    if args.allow_active_output:
        argv.append("--allow-active-output")
    for item in args.mount or []:
        argv += ["--mount", item]
    if args.persist:
        argv.append("--persist")
    for item in args.limit or []:
        argv += ["--limit", item]
    for item in args.max_limit or []:
        argv += ["--max-limit", item]
    for text in args.secret or ():
        argv += ["--secret", text]
    for option in ("secrets_file", "egress_log", "egress_ca_file", "max_vms", "vm_slots_dir",
                   "vm_queue_timeout", "vm_boot_timeout", "vm_stop_timeout", "max_vm_memory", "max_vm_vcpus",
                   "max_terminals"):
        value = getattr(args, option)
        if value is not None:
            argv += ["--" + option.replace("_", "-"), f"{value:g}" if isinstance(value, float) else str(value)]
    return argv


# ------------------------------------------------------------------ the policy in the environment
#: The policy as a JSON list of its options (``to_argv``), for launchers that start the kernel
#: class with argv of their own (Enterprise Gateway's kernel pods): ``install --policy-in-env``
#: writes it into kernel.json's ``env``. Secrets stay NAME@HOSTS; their values come from the
#: kernel's environment as with argv.
POLICY_ENV = "SANDBOX_KERNEL_POLICY"
MAX_POLICY_ENV = 1 << 16


def from_argv(argv: list[str], environ: MutableMapping[str, str] | None = None) -> Policy:
    """A Policy from option words alone (``to_argv``'s output); ValueError for anything else."""
    import argparse

    class RaisingParser(argparse.ArgumentParser):
        def error(self, message: str):
            raise ValueError(message)

    parser = RaisingParser(prog=POLICY_ENV, add_help=False)
    add_arguments(parser)
    args, rest = parser.parse_known_args(argv)
    if rest:
        raise ValueError(f"not a policy option: {' '.join(rest)[:200]}")
    return from_arguments(args, environ)


def argv_from_environment(environ: MutableMapping[str, str]) -> list[str] | None:
    """The options in ``environ[POLICY_ENV]`` (removed, so no child inherits it); None when unset."""
    text = environ.pop(POLICY_ENV, None)
    if text is None:
        return None
    import json
    try:
        argv = json.loads(text) if len(text) <= MAX_POLICY_ENV else None
    except ValueError:
        argv = None
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise ValueError(f"{POLICY_ENV} must be a JSON list of policy options (install --policy-in-env writes it)")
    return argv
