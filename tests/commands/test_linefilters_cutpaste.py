"""uniq, cut, paste, rev, tac, nl against GNU coreutils / util-linux (LC_ALL=C)."""
from __future__ import annotations

import pytest

from .helpers import assert_like_gnu

U = "a\na\nb\nB\nb\nc\n  x 1\n y 1\n  x 2\nfoo\nfoo\nfoo\nlast"
CSV = "name,age,city\nbob,25,NY\nalice,30,LA\nnocomma\ncarol,,SF,extra\n"
TSV = "a\tb\tc\td\n1\t2\t3\t4\nplain\n\t\t\n"
FILES = {"u": U, "csv": CSV, "tsv": TSV, "p1": "1\n2\n3\n", "p2": "a\nb", "p3": "x\n",
         "empty": "", "nl": "one\n\ntwo\n\n\nthree\n\\:\\:\\:\nhead\n\\:\\:\nbody\n\\:\nfoot\n",
         "tac": "a\nb\nc", "digits": "a1b22c333d\nx1\n", "tacs": "a:b:c:", "z": "b\0a\0a\0", "d/x": ""}

CASES = [
    ["uniq", "u"], ["uniq", "-c", "u"], ["uniq", "-d", "u"], ["uniq", "-u", "u"], ["uniq", "-D", "u"],
    ["uniq", "-i", "u"], ["uniq", "-ic", "u"], ["uniq", "-f", "1", "u"], ["uniq", "-f1", "-c", "u"],
    ["uniq", "-s", "2", "u"], ["uniq", "-w", "1", "u"], ["uniq", "--all-repeated=separate", "u"],
    ["uniq", "--all-repeated=prepend", "u"], ["uniq", "--group", "u"], ["uniq", "--group=both", "u"],
    ["uniq", "--group=prepend", "u"], ["uniq", "--group=append", "u"], ["uniq", "-cD", "u"],
    ["uniq", "-z", "z"], ["uniq", "nope"], ["uniq", "-f", "x", "u"], ["uniq", "u", "out", "extra"],
    ["uniq", "-dc", "u"], ["uniq", "--group", "-c", "u"], ["uniq", "d"], ["uniq", "-"],
    ["cut", "-d,", "-f2", "csv"], ["cut", "-d,", "-f1,3", "csv"], ["cut", "-d,", "-f2-", "csv"],
    ["cut", "-d,", "-f-2", "csv"], ["cut", "-d,", "-s", "-f1", "csv"], ["cut", "-d,", "--complement", "-f2", "csv"],
    ["cut", "-d,", "-f1,3", "--output-delimiter=|", "csv"], ["cut", "-f2", "tsv"], ["cut", "-f1,3-", "tsv"],
    ["cut", "-c2-4", "csv"], ["cut", "-b1,3", "csv"], ["cut", "-c", "-3", "csv"], ["cut", "-c5-", "csv"],
    ["cut", "--complement", "-c2-3", "csv"], ["cut", "-c1-2,4-", "--output-delimiter=:", "csv"],
    ["cut", "-f", "0", "csv"], ["cut", "-f", "3-1", "csv"], ["cut", "-f", "x", "csv"], ["cut", "csv"],
    ["cut", "-d", "ab", "-f1", "csv"], ["cut", "-c1", "-d,", "csv"], ["cut", "-s", "-c1", "csv"],
    ["cut", "-f1", "-c1", "csv"], ["cut", "-f1", "nope", "csv"], ["cut", "-f", "1,,2", "csv"],
    ["cut", "-f", "-", "csv"], ["cut", "-d,", "-f", "2,1", "csv"], ["cut", "-d,", "-f", "1 3", "csv"],
    ["cut", "-z", "-c1", "z"], ["cut", "-d,", "-f5", "csv"], ["cut", "-d,", "-f3,2,2-3", "csv"],
    ["paste", "p1", "p2"], ["paste", "p1", "p2", "p3"], ["paste", "-d,", "p1", "p2"],
    ["paste", "-d", ",;", "p1", "p2", "p3"], ["paste", "-s", "p1", "p2"], ["paste", "-s", "-d,", "p1"],
    ["paste", "-sd", ",:", "p1"], ["paste", "-d", "\\n", "p1", "p2"], ["paste", "-d", "\\0", "p1", "p2"],
    ["paste", "-", "-"], ["paste", "-s", "-"], ["paste", "p1", "nope"], ["paste", "-d", "a\\", "p1"],
    ["paste", "empty", "p1"], ["paste", "-s", "empty"], ["paste", "-z", "z", "z"], ["paste", "-d", "", "p1", "p2"],
    ["rev", "u"], ["rev", "p2", "u"], ["rev", "nope"], ["rev"], ["rev", "empty"],
    ["tac", "tac"], ["tac", "u", "p1"], ["tac", "-s", ":", "tacs"], ["tac", "-b", "-s", ":", "tacs"],
    ["tac", "-r", "-s", "[0-9]", "u"], ["tac", "-r", "-s", "[0-9]+", "digits"],
    ["tac", "-r", "-s", "[0-9]\\+", "digits"],
    ["tac", "-b", "-r", "-s", "[0-9]+", "digits"], ["tac", "-s", "22", "digits"],
    ["tac", "-r", "-s", "\\(1\\|2\\)", "digits"], ["tac", "nope"], ["tac"], ["tac", "-b", "u"],
    ["nl", "nl"], ["nl", "-ba", "nl"], ["nl", "-bn", "nl"], ["nl", "-ba", "-nln", "nl"], ["nl", "-nrz", "-w3", "nl"],
    ["nl", "-s", ": ", "nl"], ["nl", "-v", "10", "-i", "5", "nl"], ["nl", "-p", "nl"], ["nl", "-ha", "-fa", "nl"],
    ["nl", "-b", "pt", "nl"], ["nl", "-ba", "-l", "2", "nl"], ["nl", "-bx", "nl"], ["nl", "-w", "0", "nl"],
    ["nl", "-n", "xx", "nl"], ["nl", "nope"], ["nl", "u", "p1"], ["nl", "-d", "ab", "nl"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(argv):
    assert_like_gnu(argv, FILES, stdin="s1\ns2\ns3\n")


def test_uniq_output_file():
    assert_like_gnu(["uniq", "u", "out"], FILES, check_files=True)


# cut's block paths (a regex scan when every line has the fields, else a comprehension):
# lines short of fields, without delimiters, empty, a last line without newline, and a file
# over the 1 MiB read size so blocks split mid-line
CUT_MIXED = "1,2,3,4,5\na,b\nnodelim\n\n,,\nx,y,z\n[,]\\,^\nlast,no,newline"
CUT_UNIFORM = "".join(f"{i},v{i % 7},w{i},z\n" for i in range(80_000))
CUT_ARGS = [["-f1"], ["-f2"], ["-f3"], ["-f2-"], ["-f1-"], ["-f5"], ["-f2-3"], ["-f-2"], ["-f3-"],
            ["-s", "-f1"], ["-s", "-f2"], ["-s", "-f2-"], ["-f2", "--output-delimiter=::"],
            ["-f2-3", "--output-delimiter=::"], ["-s", "-f1-2", "--output-delimiter=:"]]


@pytest.mark.parametrize("name", ["mixed", "uniform"])
@pytest.mark.parametrize("args", CUT_ARGS, ids=[" ".join(a) for a in CUT_ARGS])
def test_cut_fields_by_block_like_gnu(args, name):
    files = {"mixed": CUT_MIXED, "uniform": CUT_UNIFORM}
    assert_like_gnu(["cut", "-d,", *args, name], files)
    assert_like_gnu(["cut", "-d]", *args, name], files)
