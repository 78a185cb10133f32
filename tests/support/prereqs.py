"""Prerequisites of some tests (QEMU, Chromium, host tools to compare against).

Locally a missing prerequisite skips its tests with the reason (shown as a warning). In CI
(`CI=true`, set by .ci/run) it fails them instead: the CI machine must have everything, and a
test that silently skipped there would prove nothing."""
from __future__ import annotations

import os
import shutil
import warnings

import pytest

STRICT = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(reason: str | None) -> None:
    """Skip (locally) or fail (in CI) the calling test or fixture when ``reason`` is not None."""
    if reason is None:
        return
    if STRICT:
        pytest.fail(f"prerequisite missing in CI: {reason}", pytrace=False)
    warnings.warn(f"test skipped: {reason}", UserWarning)
    pytest.skip(reason)


def host_tool(name: str):
    """Mark a test that compares with host program ``name``: skipped locally without it; in CI it
    runs (and fails) so a missing tool is noticed."""
    return pytest.mark.skipif(not STRICT and shutil.which(name) is None,
                              reason=f"{name} is not installed (scripts/system-deps installs it)")
