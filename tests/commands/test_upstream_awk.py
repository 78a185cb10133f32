"""Fidelity on external suites: One True Awk's testdir and gawk's own tests (668 scored cases
nobody here wrote), scored against GNU gawk 5.2 by the runner in ../shared/corpora/cmds (its
cached oracle; gawk runs the few cases the cache lacks). A regression gate: the pass rate may
only go up (raise AWK_UPSTREAM_MIN with the figure reached). Peers, same runner: bashkit 92.2 %,
busybox awk 80.5 %."""
from __future__ import annotations

from tests.support.prereqs import host_tool

from .upstream import assert_pass_rate

#: the project's pass rate reached (percent of the scored cases): 668/668
AWK_UPSTREAM_MIN = 100.0


@host_tool("gawk")
def test_upstream_awk_pass_rate_does_not_regress(tmp_path):
    assert_pass_rate("awk", AWK_UPSTREAM_MIN, tmp_path)
