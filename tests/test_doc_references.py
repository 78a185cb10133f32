"""The tests the documentation cites exist: every ``tests/...`` path (and ``::test_name``) in the
README, docs/ and guest/README.md, and every bare test name or test file in docs/security.md's
"proven by" column, so a moved or renamed test cannot leave a threat row pointing at nothing; and
so do the package's files they name by path (``sandbox_kernel/...``)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "guest" / "README.md"]
PATH_REF = re.compile(r"tests/[A-Za-z0-9_/.*-]+(?:::[A-Za-z0-9_]+)?")
PACKAGE_REF = re.compile(r"(?<![A-Za-z0-9_/.])sandbox_kernel/[A-Za-z0-9_/.*-]+")


def _defines(path: Path, name: str) -> bool:
    return re.search(rf"^\s*(?:async\s+)?def {re.escape(name)}\b", path.read_text(), re.MULTILINE) is not None


def _all_tests() -> list[Path]:
    return list((ROOT / "tests").rglob("test_*.py"))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_cited_test_paths_exist(doc):
    stale = []
    for ref in sorted(set(PATH_REF.findall(doc.read_text()))):
        where, _, name = ref.partition("::")
        where = where.rstrip(".")
        found = sorted(ROOT.glob(where)) if "*" in where else [ROOT / where] if (ROOT / where).exists() else []
        if not found or (name and not any(p.is_file() and _defines(p, name) for p in found)):
            stale.append(ref)
    assert not stale, f"{doc.name} cites tests that do not exist: {stale}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_named_package_files_exist(doc):
    stale = [ref for ref in sorted(set(PACKAGE_REF.findall(doc.read_text())))
             if not (any(ROOT.glob(ref.rstrip("."))) if "*" in ref else (ROOT / ref.rstrip(".")).exists())]
    assert not stale, f"{doc.name} names files that do not exist: {stale}"


def test_security_rows_cite_existing_tests():
    text = (ROOT / "docs" / "security.md").read_text()
    tests = _all_tests()
    names = {p.name for p in tests}
    stale = [f for f in sorted(set(re.findall(r"`(test_[A-Za-z0-9_]+\.py)`", text))) if f not in names]
    for name in sorted(set(re.findall(r"`(test_[A-Za-z0-9_]+)`", text))):
        if not any(_defines(p, name) for p in tests):
            stale.append(name)
    assert not stale, f"docs/security.md cites tests that do not exist: {stale}"
