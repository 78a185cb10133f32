"""Policy: what the admin decided for every kernel of a kernelspec; cells may only narrow it.

The admin sets it on the kernel's command line (``kernel.json`` argv, written by
``python -m sandbox_kernel install --limit ... --max-limit ... --network ... --mount ...
--persist --allow-active-output``). Nothing a cell runs can change it.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from .limits import DEFAULT_CEILINGS, Limits, notebook_defaults
from .netpolicy import parse_allow_list
from .vfs.changes import under

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


def from_arguments(args: argparse.Namespace) -> Policy:
    """A Policy from parsed options; raises ValueError for a bad value."""
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
    return Policy(network=network, active_output=bool(args.allow_active_output), limits=limits,
                  ceilings=ceilings, mounts=tuple(mounts), persist=bool(args.persist))


def to_argv(args: argparse.Namespace) -> list[str]:
    """The options of ``args`` that differ from the defaults, as kernel argv."""
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
    return argv
