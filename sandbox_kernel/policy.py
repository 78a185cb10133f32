"""Policy: what the admin decided for every kernel of a kernelspec; cells may only narrow it.

The admin sets it on the kernel's command line (``kernel.json`` argv, written by
``python -m sandbox_kernel install --network ... --allow-active-output``). Nothing a cell
runs can change it.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass

from .netpolicy import parse_allow_list


@dataclass(frozen=True)
class Policy:
    #: The widest VM egress a cell may use: ``none`` or ``allow:HOST[:PORT],...``
    #: (see ``netpolicy``); cells start with it and may narrow it with ``%vm config network=``.
    network: str = "none"
    #: Whether rich output may carry scripts (HTML as given, application/javascript).
    #: Off: everything is made passive first (``sanitize``).
    active_output: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The policy options, shared by ``install`` (which writes them) and ``kernel`` (which reads them)."""
    parser.add_argument("--network", metavar="SPEC", default=None,
                        help="VM egress for every kernel of this spec: none (default) or "
                             "allow:HOST[:PORT],*.DOMAIN,...; cells may only narrow it")
    parser.add_argument("--allow-active-output", action="store_true", default=None,
                        help="let rich output run scripts in the browser (off: HTML, Markdown and "
                             "SVG are sanitised, application/javascript is dropped)")


def from_arguments(args: argparse.Namespace) -> Policy:
    """A Policy from parsed options; raises ValueError for a bad value."""
    network = args.network or "none"
    if network != "none":
        parse_allow_list(network)
    return Policy(network=network, active_output=bool(args.allow_active_output))


def to_argv(args: argparse.Namespace) -> list[str]:
    """The options of ``args`` that differ from the defaults, as kernel argv."""
    argv: list[str] = []
    if args.network and args.network != "none":
        argv += ["--network", args.network]
    if args.allow_active_output:
        argv.append("--allow-active-output")
    return argv
