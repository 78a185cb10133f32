"""Seeded random inputs through the text commands and GNU coreutils: stdout and status equal."""
from __future__ import annotations

import random

import pytest

from .helpers import run_gnu, run_ours

SORT_OPTIONS = [["-n"], ["-g"], ["-h"], ["-V"], ["-f"], ["-d"], ["-i"], ["-b"], ["-M"], ["-r"], ["-u"],
                ["-fu"], ["-nu"], ["-k2"], ["-k2n"], ["-k2,2"], ["-k1.2,1.4"], ["-t,", "-k2"],
                ["-t,", "-k2n", "-k1r"], ["-s", "-k1,1"], ["-bk2"], ["-k2b,2"], ["-rk1.3n"], ["-Vr"],
                ["-hu"], ["-gu"], ["-k3,3", "-k1,1n"], ["-dfu"], ["-t", " ", "-k2"]]
OTHER = [["uniq"], ["uniq", "-c"], ["uniq", "-d"], ["uniq", "-u"], ["uniq", "-i"], ["uniq", "-f1"],
         ["uniq", "-s1"], ["uniq", "-w2"], ["uniq", "-D"], ["uniq", "-f1", "-s1", "-c"],
         ["cut", "-c2-3"], ["cut", "-d,", "-f2"], ["cut", "-f1,3"], ["cut", "-d,", "-sf1"],
         ["cut", "-b1,3-"], ["cut", "--complement", "-c2"], ["join", "a", "b"],
         ["join", "-a1", "-a2", "a", "b"], ["join", "-t,", "a", "b"], ["join", "-v1", "a", "b"],
         ["join", "-i", "a", "b"], ["join", "-e", "X", "-o", "auto", "-a1", "a", "b"],
         ["comm", "a", "b"], ["comm", "-3", "a", "b"], ["fold", "-w3"], ["fold", "-sw4"],
         ["expand", "-t3"], ["unexpand", "-a", "-t3"], ["fmt", "-w12"], ["column", "-t"],
         ["nl", "-ba"], ["rev"], ["tac"], ["wc"], ["wc", "-L"], ["tr", "-s", " a"],
         ["tr", "-d", "a-b"], ["paste", "a", "b"], ["paste", "-s", "a"]]


def _sort_input(rng: random.Random) -> bytes:
    def word():
        return "".join(rng.choice("aAbB01 .-~_xyz9\t,") for _ in range(rng.randint(0, 8)))

    def numish():
        return (rng.choice(["", "-", " ", "  "]) +
                rng.choice(["0", "1", "10", "007", "1.5", "1.50", ".5", "-0", "1e3", "3K", "2M", "1k",
                            "0x1f", "inf", "nan", "abc", "1,000", "+4"]) + rng.choice(["", " x", "a", ".", "9"]))

    def verish():
        return (rng.choice(["", ".", "a", "lib", "v", "foo-"]) +
                ".".join(str(rng.randint(0, 12)) + rng.choice(["", "a", "~rc1", "b2"])
                         for _ in range(rng.randint(1, 3))) + rng.choice(["", ".tar.gz", ".txt", "~"]))

    gen = rng.choice([word, numish, verish])
    lines = [gen() if rng.random() < 0.5 else " ".join(gen() for _ in range(rng.randint(1, 3)))
             for _ in range(rng.randint(0, 12))]
    return ("\n".join(lines) + ("\n" if lines else "")).encode()


@pytest.mark.parametrize("seed", range(6))
def test_sort_random_inputs(seed):
    rng = random.Random(seed)
    for _ in range(25):
        argv = ["sort", *rng.choice(SORT_OPTIONS)]
        data = _sort_input(rng)
        want, got = run_gnu(argv, stdin=data), run_ours(argv, stdin=data)
        assert (got[0], got[2]) == (want[0], want[2]), (argv, data)


@pytest.mark.parametrize("seed", range(6))
def test_filters_random_inputs(seed):
    rng = random.Random(100 + seed)
    for _ in range(25):
        argv = rng.choice(OTHER)

        def text():
            lines = ["".join(rng.choice("aAb \t1,") for _ in range(rng.randint(0, 5)))
                     for _ in range(rng.randint(0, 8))]
            if argv[0] in ("join", "comm") and rng.random() < 0.8:
                lines.sort()
            return ("\n".join(lines) + ("\n" if lines and rng.random() < 0.9 else "")).encode()

        files = {"a": text(), "b": text()}
        stdin = text()
        want, got = run_gnu(argv, files, stdin), run_ours(argv, files, stdin)
        assert (got[0], got[2]) == (want[0], want[2]), (argv, files, stdin)


TR_ATOMS = ["a", "b", "c", "a-c", "x-z", "[:digit:]", "[:upper:]", "[:lower:]", "[:space:]", "\\n",
            "\\t", "\\\\", "[=a=]", "-", "[b*2]", "[c*]", "A-C", "0-9", "\\101", "[", "]", "*"]


@pytest.mark.parametrize("seed", range(4))
def test_tr_random_sets(seed):
    rng = random.Random(200 + seed)
    data = b"abc xyz ABC 123\n\taaa**[]--\\\n"
    for _ in range(40):
        s1 = "".join(rng.choice(TR_ATOMS) for _ in range(rng.randint(1, 3)))
        s2 = "".join(rng.choice(TR_ATOMS) for _ in range(rng.randint(1, 3)))
        flags = rng.choice([[], ["-d"], ["-s"], ["-c"], ["-cd"], ["-ds"], ["-cs"], ["-t"], ["-C"]])
        ops = [s1] if flags in (["-d"], ["-s"], ["-cd"]) and rng.random() < .7 else [s1, s2]
        argv = ["tr", *flags, *ops]
        want, got = run_gnu(argv, stdin=data), run_ours(argv, stdin=data)
        assert (got[0], got[2]) == (want[0], want[2]), argv


@pytest.mark.parametrize("seed", range(2))
def test_xargs_random_input_syntax(seed):
    from tests.support.difftest import compare

    rng = random.Random(300 + seed)
    for _ in range(15):
        text = "".join(rng.choice(["a", "b", " ", "\n", "\t", "'", '"', "\\", "x y", "  "])
                       for _ in range(rng.randint(0, 14)))
        opt = rng.choice(["-n2", "-L1", "-n1", "", "-L2", "-I{} echo [{}]", "-d x", "-r", "-s 12", "-E b"])
        script = ("printf '%s' '" + text.replace("'", "'\\''") + "' | xargs " + opt +
                  (" echo" if "-I" not in opt else "") + '; echo "rc=$?"')
        want, got = compare(script)
        assert (got.stdout, got.status) == (want.stdout, want.status), script
