"""awk against gawk 5.2, one group of cases per class of difference the upstream suites (One True
Awk's testdir, gawk's tests: tests/commands/test_upstream_awk.py) found: stdout, exit status and
whether stderr is empty, as gawk gives them."""
from __future__ import annotations

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.limits import CliLimits

from tests.support.prereqs import host_tool

from .helpers import DEFAULT_ENV, GNU_ENV, assert_like_gnu, new_fs, run_cmd_bytes, run_gnu

UTF8 = {"LC_ALL": "C.UTF-8"}


def assert_like_gawk_in_utf8(argv: list[str], files: dict[str, bytes], stdin: bytes = b"") -> None:
    """stdout, status and stderr's emptiness as gawk's, both in a UTF-8 locale."""
    want = run_gnu(argv, files, stdin, env={**GNU_ENV, **UTF8})
    fs = new_fs()
    for name, data in files.items():
        fs.write_bytes("/workspace/" + name, data)
    got = run_cmd_bytes(argv, stdin, fs, env={**DEFAULT_ENV, **UTF8})
    assert (got[0], got[2], bool(got[1])) == (want[0], want[2], bool(want[1])), (want[:3], got)


def _ids(cases: list[str]) -> list[str]:
    return [c[:70] for c in cases]


# ---------------------------------------------------------------- printf formats
PRINTF = [
    # integer conversions: a precision is a digit count (none for a zero at precision 0) and
    # turns the 0 flag off; o x X u take no sign; # for o and x
    'BEGIN { printf "[%.0d][%5.0d][%+.0d][%02.1d][%.3d][%08.3x][% 03d][%-05d]\\n", 0, 0, 0, 2, -5, 255, 5, 3 }',
    'BEGIN { printf "[%+5u][% x][%+X][%#x][%#.3x][%#5.0x][%#o][%#.0o][%.3o][%#.3o][%-#8x][%#08x]\\n", '
    '4, 255, 255, 0, 10, 0, 0, 0, 8, 8, 255, 255 }',
    'BEGIN { printf "[%x][%u][%o][%d][%x][%i]\\n", 2^64, -2^64, -1, 2^64, 0.9, -0.5 }',
    # %c: an empty string gives its NUL; a for-in key is a string
    'BEGIN { printf "[%c][%c][%3c][%-3c]\\n", "", x, "", "a"; a[65]; for (k in a) printf "%c\\n", k }',
    'BEGIN { a[0]; for (k in a) print (k ? "true" : "false"), (k < 1), (k == 0) }',
    # the raw value decides: %.0x of -0.5 is 0, %#x of 0.5 is 0x0
    'BEGIN { printf "%#x|%#.0x|%#o|%.0x|%#.0o|%.0u|%0.0u|%#1.3o\\n", 0.5, 0.5, 0.5, -0.5, -0.5, 0, -0.5, -0.5 }',
    # %c of a number out of a character's range: the byte of its low 8 bits
    'BEGIN { printf "%c|%3c|%-3c|%c|%c|%c\\n", 256, -1, -255, 1e20, 2^63, 65.9 }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", PRINTF, ids=_ids(PRINTF))
def test_printf_formats_like_gawk(prog):
    assert_like_gnu(["gawk", prog])


@host_tool("gawk")
@pytest.mark.parametrize("value", ["65", "300.7", "55296", "1114111", "1114112", "2147483647", "2147483648", "-1",
                                   "-255", "1e20", "0.5", "\"\\303\\251x\""])
def test_printf_c_in_utf8_like_gawk(value):
    """In UTF-8, %c of a code is its character (glibc's old long forms past U+10FFFF), of no
    character (a surrogate, a negative code) a byte; the width counts bytes (characters for
    a string's first character)."""
    assert_like_gawk_in_utf8(["gawk", f'BEGIN {{ printf "%c|%5c|%-5c|\\n", {value}, {value}, {value} }}'], {})


# ---------------------------------------------------------------- backslashes in sub and gsub
SUB = [
    # gawk's rules: only a backslash run before & is special; \\ alone stays two backslashes
    '{ x = y = $0; gsub(/\\\\/, "\\\\", x); gsub("\\\\", "\\\\\\\\", y); print x; print y }',
    'BEGIN { t = "some"; r = "<&|\\\\q|\\\\|\\\\\\\\|\\\\&|\\\\\\\\&|\\\\\\\\\\\\&>"; sub(/some/, r, t); '
    'print r; print t }',
    '{ w = x = y = $0; sub(/a/, "\\\\\\\\\\\\\\\\&", w); sub(/a/, "[\\\\\\\\\\\\&]", x); gsub(/b/, "\\\\q&", y); '
    'print w; print x; print y }',
    '{ print gensub(/(a)(b)/, "<\\\\2\\\\1\\\\0\\\\\\\\\\\\q&>", "g") }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", SUB, ids=_ids(SUB))
def test_sub_backslashes_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="x\\y\\\\z ab\n")


# ---------------------------------------------------------------- split() and FS changes
SPLIT = [
    # a new FS applies from the next record: the current one keeps the fields of its own
    '{ FS = ":"; print $1, NF }',
    'BEGIN { FS = "=" } { FS = "."; $0 = $1; print $2; FS = "=" }',
    'BEGIN { FS = ":"; $0 = "a:bc:def"; FS = "-"; print $1, NF; FS = "2"; $0 = 1212121; FS = "3"; print $1, NF }',
    'NR == 1 { FS = ":"; getline < "/dev/stdin"; FS = "-"; print $1, NF }',
    'NR == 1 { FS = ":"; getline v; print $2, NF, v; FS = " " } NR > 2 { print $1, NF }',
    # split() by FS has no paragraph-mode newlines; // splits into characters
    'BEGIN { RS = ""; FS = ":"; n = split("a:b\\nc:d", p); print n, length(p[2]) }',
    '{ n = split($0, c, //); print n, c[1], c[n] }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", SPLIT, ids=_ids(SPLIT))
def test_split_and_fs_changes_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="a:b c:d e\nf:g h\ni j:k\n")


# ---------------------------------------------------------------- RS, RT and getline
RECORDS = [
    # RT: what ended the record (RS, the regex's match, the newlines of a paragraph, "" at the end)
    ['BEGIN { RS = "[,;]+" } { printf "[%s|%s]", $0, RT; if ((getline) > 0) printf "(%s|%s)", $0, RT } '
     'END { print "", NR, RT }', "1,2;;3,,,4\n"],
    ['BEGIN { RS = "" } { print NF, "<" $0 ":" RT ">" }', "\n\n a b \n\nc\n\n\n"],
    ['{ print NR, $0, "<" RT ">" } END { print "end", "<" RT ">" }', "a\nb"],
    ['BEGIN { RS = ";" } { getline x < "f"; print $0, "<" RT ">", x }', "p;q"],
    # a new RS applies from the next record: the rest of the input is split again
    ['{ RS = ","; print NR ":" $0 } END { print "end", NR, "<" RT ">" }', "a\nb,c\nd,e\n"],
    ['BEGIN { RS = ";" } { RS = ","; print NR ":" $0 }', "ab;;\n\n;\t"],
    # paragraph mode: a newline separates fields for a one-character FS, not for a regex or ""
    ['BEGIN { RS = ""; FS = "x+" } { print NF; print $1 }', " y\nyab\ty xxy\nyy\n"],
    ['BEGIN { RS = ""; FS = ";" } { print NF, $2 }', "a;b\nc\n\nd\n"],
    # ^ in a regex RS matches only at the start of the input
    ['BEGIN { RS = "^a" } { print NR ": [" $0 "]" }', "aaa1a2a\n"],
    ['BEGIN { RS = "^Ax*\\n" } END { print NR }', "Axx\nAxx\nAxx\n"],
    # a getline variable's subscript is evaluated before the read, even the one that fails
    ['BEGIN { while ((getline a[++c] < "f") > 0) {} print c, a[1], length(a) }', ""],
    ['{ i = 1; getline $(i++); print i, $0 }', "a b\nc d\n"],
    # getline's value is an operand: getline x + 1 adds to it
    ['BEGIN { a = (getline x + 1); print a, x; a = (getline x - 2); print a, x; a = getline x y; print a, x }',
     "A\nB\nC\n"],
]


@host_tool("gawk")
@pytest.mark.parametrize("prog,stdin", RECORDS, ids=_ids([c[0] for c in RECORDS]))
def test_records_and_getline_like_gawk(prog, stdin):
    assert_like_gnu(["gawk", prog], {"f": "one;two\nthree\n"}, stdin=stdin)


# ---------------------------------------------------------------- syntax and evaluation order
SYNTAX = [
    # $ takes a unary operand with its increments; a nested $x++ increments the inner field
    '{ a = 3; print $$a++++; print }',
    'BEGIN { $1 = i = 1; $+i++; $- -i++; print; print i }',
    '{ i = 1; print $i++, i, $0; print -$1^2, !$2 }',
    # the value is evaluated before the variable's subscript and its current value
    'BEGIN { print b += b += 1; b = 6; print b += b++; print b; i = 1; a[i++] += i; a[i++] = i; '
    'for (k in a) print k, a[k] }',
    '{ i = 1; print +--i ~ i; print ($2) ~ $2 ^= +1 != NF; print $0 ~ "4", $1 ~ $1, "a.c" ~ "a\\\\.c" }',
    'BEGIN { c[1] = 5; c[1] += (c[1] = 10); print c[1]; $0 = "5"; $1 += ($1 = 10); print; x = 2; x ^= x++; print x }',
    # an assignment may be the right operand of ||, &&, ~ and a comparison, not of + or a unary
    'BEGIN { y = 7; print --y == y = 1 == 0, y; print 1 && x = 2, x; print 1 ~ z = 2, z; print 0 ? 1 : w = 3, w }',
    'BEGIN { a[1]; print 1 in a < 2, 1 in a ~ 1, 1 < 2 ~ 1, 1 ~ 1 < 2, 1 ~ 1 ~ 1 }',
    'BEGIN { x = 1; print -x = 2 }', 'BEGIN { print 1 + x = 2 }', 'BEGIN { print !x = 2 }', 'BEGIN { print 1 x = 2 }',
    'BEGIN { print (1 < 2 < 3) }', 'BEGIN { print 1 == 1 == 1 }', 'BEGIN { print 1 in x = 2 }',
    # what is not awk: a syntax error (status 1), a control character (fatal, status 2)
    '.', '..', '.E.', 'BEGIN { x = 1 . 2 }', '&', 'BEGIN { a &= 1 }', 'BEGIN { print \'a\' }', '`',
    'BEGIN { x = 1 }\x01', 'BEGIN { x = 1 }\x1b', 'BEGIN { x = 1 }\x07', 'BEGIN { x = 1 }\x0b',
    'BEGIN { print "a" } # \x01 in a comment', 'BEGIN { ++(x) }', 'BEGIN { (x)++ }', '{ print $',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", SYNTAX, ids=_ids(SYNTAX))
def test_syntax_and_order_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="3 4 5 6 7 8 9\n")


@host_tool("gawk")
@pytest.mark.parametrize("text", [b"/\\\x00", b'BEGIN { print "a\x00b" }', b"BEGIN { x = 1 }\xc3\xa9"])
def test_bytes_no_program_may_hold_like_gawk(text):
    assert_like_gnu(["gawk", "-f", "p.awk"], {"p.awk": text})


@host_tool("gawk")
@pytest.mark.parametrize("argv", [["gawk", "-f", "/dev/stdin", "d"], ["gawk", "-f", "-", "d"],
                                  ["gawk", "-f", "/dev/fd/0", "d"]], ids=["dev-stdin", "dash", "fd0"])
def test_program_file_from_stdin_like_gawk(argv):
    # issue #33: -f /dev/stdin read the program from stdin in gawk, ours said "can't open source file"
    assert_like_gnu(argv, {"d": "a b\nc d\n"}, stdin='{ print $2 "-" NR }\n', check_stderr=True)


# ---------------------------------------------------------------- regex and string constants
CONSTANTS = [
    # a regex's escapes are characters before it is compiled: \52 is the operator *; \8 is 8
    'BEGIN { print ("a*b" ~ /a\\52b/), ("aab" ~ /a\\52b/), ("a+b" ~ /a\\53b/), ("aab" ~ "a\\\\53b"), '
    '("axb" ~ /a\\x2eb/), ("a8b" ~ /a\\8b/), ("a\\b" ~ /a\\134b/) }',
    '{ if (/a\\52b/) print "match"; else print "no match" }',
    # strings: \x takes up to two hex digits, none is a plain x
    'BEGIN { print "H\\x49\\x4a\\x4BL", "\\x414", "\\xg", length("\\x"), "\\101\\1010" }',
    # a string assigned to $0 or a field stays a string; what is split from it is input
    '{ $0 = "0"; if (!$0) print "not a string"; $0 = a = "0"; if (!$0) print "nor this"; if ($1) print "strnum" }',
    'BEGIN { $0 = "00E0"; print $0 ", " ($0 && 1) ", " ($0 != ""); $1 = "00E0"; print $1 ", " ($1 && 1) }',
    'BEGIN { $0 = "x"; $1 = "0"; print ($0 ? "T" : "F"); $0 = "0"; NF = 1; print ($0 ? "T" : "F"); $0 = 0; '
    'print ($0 ? "T" : "F"); $2 = "0"; print ($2 ? "T" : "F"), ($2 == 0); $0 = "0"; sub(/0/, "0"); '
    'print ($0 ? "T" : "F") }',
    '{ $0 = $1; print ($0 ? "T" : "F"); $3 = "0"; print ($3 ? "T" : "F"), ($3 == 0), $0 }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", CONSTANTS, ids=_ids(CONSTANTS))
def test_regex_and_string_constants_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="0 0\n")


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    # escapes are bytes: in UTF-8, a byte that is no character stays that byte
    '{ gsub(/\\351/, "\\370"); print }',
    'BEGIN { s = "\\303\\251"; print length(s), s; print "\\xc3\\xa9" }',
    '{ n = gsub(/\\303\\251/, "E"); print n, $0 }',
])
def test_escapes_are_bytes_in_utf8_like_gawk(prog):
    assert_like_gawk_in_utf8(["gawk", prog], {}, "caf\xe9 \xc3\xa9t\xe9 x\n".encode("latin-1"))


# ---------------------------------------------------------------- a function's name or parameters misused
NAMES = [
    # gawk's parse-time errors (status 1, nothing runs): a function's name used as a variable
    'function foo() { print foo } { foo() }',
    'function foo(n) { return 0 } BEGIN { print "x"; n = foo[c] }',
    'function pile(c, r) { r = ++pile[c] } { pile($1) }',
    'function test1(r) { gsub(r, "x", test1) } BEGIN { test1("") }',
    'function f() { delete f } BEGIN { f() }',
    'function f(x) {} BEGIN { f (1) }',
    'BEGIN { getline f } function f() {}',
    # ... a parameter named as the function or a special variable, twice, or called
    'function foo(foo) { print foo } { foo() }',
    'function f(NR, FS) {} BEGIN { print "x" }',
    'BEGIN { foo(0, 1, 2) } function foo(a, b, c, b, a) { print a, b, c }',
    'BEGIN { f() } function f(a, b) { a = b() }',
    'BEGIN { X() } function abc() { return "dark" } function X(abc) { abc = "x"; print abc abc() }',
    'function f(a) { a(); x = f; y = ) } BEGIN { }',
    # what stays allowed: a parameter shadowing another function, a call not defined (fatal)
    'function g() { return 1 } function f(g) { g = 2; return g } BEGIN { print f(), g() }',
    'BEGIN { print "x"; nosuch() }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", NAMES, ids=_ids(NAMES))
def test_function_names_misused_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="x\n", check_stderr=True)


# ---------------------------------------------------------------- arrays and scalars misused (fatal when it runs)
TYPES = [
    # a global used both ways: its first use types it, the other is fatal there (output before kept)
    'BEGIN { print "hi"; x = 1; x[1] = 2 }',
    'BEGIN { print "hi"; x[1] = 1; print x }',
    'BEGIN { print x; x[1] = 1; print "ok" }',
    'BEGIN { if (0) x[1] = 1; x = 1; print "never typed as an array", x }',
    # a parameter: what the caller passes decides, by reference when untyped
    'BEGIN { print "hi"; f(1) } function f(x) { x[1] = 1 }',
    'BEGIN { print "hi"; f(a); a = 1 } function f(x) { x[1] = 1 }',
    'BEGIN { print "hi"; f(a); print "mid"; a[1] = 1 } function f(x) { x = 1 }',
    'function g(y) { y[1] = 1 } function f(x) { x = 1; g(x) } BEGIN { print "hi"; f(a) }',
    'function f(x) { print "in"; x[1] = 1; x = 1; print "never" } BEGIN { print "hi"; f(a); print "after" }',
    'function f(x) { if (0) x[1] = 1; x = 1; print "in" } BEGIN { print "hi"; f(a); print "after" }',
    'function f(x, y) { y[1] = x } BEGIN { f(a, a) }',
    'function f(p) { } BEGIN { f(x); x[1] = 1; print "ok", length(x) }',
    'function f(p) { p = 1 } BEGIN { f(x); x[1] = 1; print "ok" }',
    'BEGIN { foo[1] = 4; f1(foo) } function f1(a) { f2(a) } function f2(b) { f3(b) } function f3(c) { c = 6 }',
    'BEGIN { foo[1]; foo[2]; bug1(foo) } function bug1(i) { for (i in foo) { print "x"; delete foo[i] } }',
    'function f(a) { return length(a) } BEGIN { x[1]; x[2]; print f(x), f("abc"), f(), f(y) }',
    'function f(a, k) { return k in a } BEGIN { x[1]; print f(x, 1), f(y, 1) }',
    'function f(x) { x[1] = 1; return x } BEGIN { print "hi"; f(a) }',
    # length(x) of an untyped name makes it a scalar (so x[1] after it is fatal); after x[1], a count
    'BEGIN { print length(x); x[1] = 1; print "never" }',
    '{ n = length(seen); seen[$1]++ } END { print n, length(seen) }',
    '{ seen[$1]++ } END { print length(seen) }',
    'function f(p, q,   l) { print length(l); for (k in l) n++ } BEGIN { f(c, "s"); print "never" }',
    'function f(p, q) { g(q, b); q[3] = 6 } function g(r, s) { r = 0; b++; print length(s) } BEGIN { f(a, b) }',
    # special variables: NF is no array, ENVIRON no scalar
    'BEGIN { print "hi"; NF[1] = 2 }', 'BEGIN { ENVIRON = 1 }', 'BEGIN { print length(ENVIRON) > 0; print ENVIRON }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", TYPES, ids=_ids(TYPES))
def test_arrays_and_scalars_misused_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="a\nb\na\n")


def test_a_dynamic_global_array_counts_against_the_memory_limit():
    """An array typed when it runs (x is used both ways) is counted as the others are."""
    out, err, status = run_script("awk 'BEGIN { if (0) x = 1; while (1) x[i++] = i }'; echo $?",
                                  limits=CliLimits(memory_bytes=8 << 20))
    assert err.startswith(b"awk: memory limit exceeded (8M; limit memory_bytes;") and out == b"2\n", (out, err)


# ---------------------------------------------------------------- numbers
NUMBERS = [
    # an integer power by repeated squaring, as gawk's calc_exp (its rounding, not pow's)
    'BEGIN { print 7^100, 3^40, 1.1^1000, 2^-3, 0^-1, (-2)^3, 2^1024, (-2)^1025, 0^0, 2^-1080, 2^(-1/3) }',
    'BEGIN { print 2^0.5, (-8)^(1/3), (-2)^1e20, 2^1e20, 0.5^1e30; x = 3; x ^= 33; print x; CONVFMT = "%.30g"; '
    'print 1.1^50 "" }',
]


@host_tool("gawk")
@pytest.mark.parametrize("prog", NUMBERS, ids=_ids(NUMBERS))
def test_numbers_like_gawk(prog):
    assert_like_gnu(["gawk", prog])
