"""Fidelity on an external suite: BusyBox's testsuite (its *.tests and old-style applet
directories: 645 scored sub-cases nobody here wrote, for cp, dd, du, od, tar, xxd, sed, sort ...),
scored against GNU coreutils and bash by the runner in ../shared/corpora/cmds (its cached oracle;
the GNU tools run the few cases the cache lacks). A regression gate: the pass rate may only go up
(raise BUSYBOX_UPSTREAM_MIN with the figure reached). The one sub-case left is awk's (a field
split on CR)."""
from __future__ import annotations

from tests.support.prereqs import host_tool

from .upstream import assert_pass_rate

#: the project's pass rate reached (percent of the scored sub-cases): 644/645
BUSYBOX_UPSTREAM_MIN = 99.8


@host_tool("bash")
def test_upstream_busybox_pass_rate_does_not_regress(tmp_path):
    assert_pass_rate("busybox", BUSYBOX_UPSTREAM_MIN, tmp_path)
