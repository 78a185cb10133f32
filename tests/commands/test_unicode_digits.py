"""Numbers in options and operands are ASCII digits only, as for the GNU tools: '²' and
'٣' (str.isdigit() is true for both) get the tool's usual error, never a crash or a 3."""
from __future__ import annotations

import pytest

from .helpers import run_gnu, run_ours

CASES = [
    ["head", "-n", "²", "f"],
    ["head", "-c", "٣", "f"],
    ["tail", "-n", "٣", "f"],
    ["ls", "-w", "٣"],
    ["seq", "٣"],
    ["cut", "-f", "²", "f"],
    ["sort", "-k", "٣", "f"],
    ["fold", "-w", "٣", "f"],
    ["split", "-l", "٣", "f"],
    ["date", "-d", "@٣"],
    ["uniq", "-f", "٣", "f"],
    ["head", "-٣", "f"],
    ["fold", "-٣", "f"],
    ["seq", "١", "٣"],
    ["date", "-u", "-d", "٢٠٢٤-01-01"],
    ["find", ".", "-maxdepth", "٣"],
    ["cut", "-c", "٢", "f"],
    ["tail", "-c", "+٢", "f"],
    ["od", "-N", "٣", "f"],
    ["xargs", "-n", "٣", "echo"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(a) for a in CASES])
def test_non_ascii_digits_are_not_numbers(argv):
    files = {"f": b"a b c\nd e f\n"}
    out, err, status, _ = run_ours(argv, files)
    gnu_out, gnu_err, gnu_status, _ = run_gnu(argv, files)
    assert b"Traceback" not in err
    assert (status != 0) == (gnu_status != 0), (err, gnu_err)
    assert out == gnu_out
    assert bool(err) == bool(gnu_err)


def test_awk_reads_only_ascii_digits_as_numbers():
    data = {"f": "٣ 1\n² 2\n7 3\n".encode()}
    program = ["awk", "{ print $1 + 0, $2 * 2, ($1 == 3) }", "f"]
    assert run_ours(program, data)[:3] == run_gnu(program, data)[:3]
