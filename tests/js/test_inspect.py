"""Cell values render like node's REPL (util.inspect): expected texts recorded from node."""
import json
import subprocess
from pathlib import Path

import pytest

from tests.support.prereqs import host_tool

from .jshelp import run_js

CASES = json.loads((Path(__file__).with_name("inspect_cases.json")).read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["expr"][:40] for c in CASES])
def test_value_matches_node(shared_sandbox, case):
    r = run_js(shared_sandbox, "(" + case["expr"] + ")")
    assert r.status == 0, r.error
    assert r.value == case["node"]


@host_tool("node")
def test_recorded_cases_still_match_the_installed_node():
    program = ("const util = require('util'); const exprs = " + json.dumps([c["expr"] for c in CASES]) +
               "; console.log(JSON.stringify(exprs.map(e => util.inspect(eval('(' + e + ')')))))")
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=30).stdout
    assert json.loads(out) == [c["node"] for c in CASES]
