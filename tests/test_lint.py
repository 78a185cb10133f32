"""pyflakes over the package, the benchmarks and the tests: no unused imports or names, no
undefined names (a cheap gate against dead code creeping in)."""
from __future__ import annotations

import io
from pathlib import Path

from pyflakes.api import checkRecursive
from pyflakes.reporter import Reporter

ROOT = Path(__file__).resolve().parents[1]


def test_pyflakes_is_clean():
    out, err = io.StringIO(), io.StringIO()
    paths = [str(ROOT / d) for d in ("sandbox_kernel", "benchmarks", "tests")]
    count = checkRecursive(paths, Reporter(out, err))
    assert count == 0, out.getvalue() + err.getvalue()
