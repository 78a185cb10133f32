"""Fidelity on an external suite: jqlang/jq's own tests (tests/*.test of jq 1.6 and 1.8.2, 688
cases that Debian's jq 1.6 passes), each run as `jq -c PROGRAM` on its input and scored against
jq 1.6's stdout and exit status by the runner in ../shared/corpora/cmds (its cached oracle, so
real jq need not be installed). A regression gate: the pass rate may only go up (raise
JQ_UPSTREAM_MIN with the figure reached). A few seconds. Peer, same runner: bashkit 89.1 %."""
from __future__ import annotations

from .upstream import assert_pass_rate

#: the project's pass rate reached (percent of the scored cases): 688/688
JQ_UPSTREAM_MIN = 100.0


def test_upstream_jq_pass_rate_does_not_regress(tmp_path):
    assert_pass_rate("jq", JQ_UPSTREAM_MIN, tmp_path)
