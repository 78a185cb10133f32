"""join and comm against GNU coreutils (LC_ALL=C)."""
from __future__ import annotations

import pytest

from .helpers import assert_like_gnu

FILES = {
    "a": "1 apple red\n2 banana yellow\n3 cherry red\n5 fig purple\n",
    "b": "1 fruit\n2 fruit\n2 snack\n4 veg\n5 fruit\n",
    "ac": "id,name\n1,alice\n2,bob\n3,carol\n",
    "bc": "id,score\n1,90\n3,75\n3,80\n4,60\n",
    "blank": "  x 1\n y 2\n",
    "blank2": "x A\ny B\n",
    "case1": "A 1\nb 2\n",
    "case2": "a x\nB y\n",
    "unsorted": "3 c\n1 a\n2 b\n",
    "c1": "apple\nbanana\ncherry\ndate\n",
    "c2": "banana\ncherry\negg\n",
    "cu": "b\na\nc\n",
    "empty": "",
    "z1": "a\0b\0", "z2": "b\0c\0",
}

CASES = [
    ["join", "a", "b"], ["join", "-a1", "a", "b"], ["join", "-a2", "a", "b"], ["join", "-a1", "-a2", "a", "b"],
    ["join", "-v1", "a", "b"], ["join", "-v2", "a", "b"], ["join", "-o", "1.2,2.2", "a", "b"],
    ["join", "-o", "0,2.2,1.3", "-a2", "-e", "NA", "a", "b"], ["join", "-o", "auto", "-a1", "-e", "-", "a", "b"],
    ["join", "-t,", "ac", "bc"], ["join", "-t,", "--header", "ac", "bc"], ["join", "-t,", "-a1", "-a2", "ac", "bc"],
    ["join", "-1", "2", "-2", "1", "blank2", "blank"], ["join", "blank", "blank2"], ["join", "-j", "1", "a", "b"],
    ["join", "-i", "case1", "case2"], ["join", "case1", "case2"], ["join", "unsorted", "a"],
    ["join", "--nocheck-order", "unsorted", "a"], ["join", "--check-order", "unsorted", "a"],
    ["join", "a"], ["join", "a", "b", "c"], ["join", "a", "nope"], ["join", "-t", "ab", "a", "b"],
    ["join", "-o", "3.1", "a", "b"], ["join", "-1", "0", "a", "b"], ["join", "-a", "3", "a", "b"],
    ["join", "-", "b"], ["join", "empty", "a"], ["join", "-a1", "empty", "a"], ["join", "-z", "z1", "z2"],
    ["join", "-o", "1.1 2.2", "a", "b"], ["join", "-e", "X", "-o", "1.3,2.3", "a", "b"],
    ["comm", "c1", "c2"], ["comm", "-1", "c1", "c2"], ["comm", "-2", "c1", "c2"], ["comm", "-3", "c1", "c2"],
    ["comm", "-12", "c1", "c2"], ["comm", "-13", "c1", "c2"], ["comm", "-23", "c1", "c2"], ["comm", "-123", "c1", "c2"],
    ["comm", "--output-delimiter=|", "c1", "c2"], ["comm", "--total", "c1", "c2"],
    ["comm", "--total", "-3", "c1", "c2"],
    ["comm", "cu", "c2"], ["comm", "--nocheck-order", "cu", "c2"], ["comm", "--check-order", "cu", "c2"],
    ["comm", "c1"], ["comm", "c1", "nope"], ["comm", "-", "c2"], ["comm", "empty", "c1"], ["comm", "-z", "z1", "z2"],
    ["comm", "c1", "c1"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(argv):
    assert_like_gnu(argv, FILES, stdin="banana\nzebra\n")


def test_csv_join_pipeline_shape():
    assert_like_gnu(["join", "-t,", "-o", "1.1,1.2,2.2", "ac", "bc"], FILES)
