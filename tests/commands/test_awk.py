"""awk against gawk 5.2 on the same input (LC_ALL=C), plus parser/number-format unit tests."""
from __future__ import annotations

import pytest

from tests.support.prereqs import host_tool

from .helpers import DEFAULT_ENV, assert_like_gnu, run_cmd

DATA = "alice 30 NY\nbob 25 LA\ncarol 35 NY\ndave 40 SF\n"
CSV = "id,name,score\n1,ann,90\n2,ben,85.5\n3,cy,70\n"
FILES = {"d": DATA, "c.csv": CSV, "p": "para one\nline two\n\n\npara two\n\nthree a\nthree b\n",
         "prog.awk": "{ total += $2 }\nEND { printf \"%.1f\\n\", total / NR }\n", "nums": "10\n9\n100\n-3\n2.5\n"}

CASES = [
    ["awk", "{print $1}", "d"],
    ["awk", "{print $NF, NF}", "d"],
    ["awk", "{s+=$2} END {print s, s/NR}", "d"],
    ["awk", "-F,", "NR>1 {print $2\":\"$3}", "c.csv"],
    ["awk", "-F", ",", "-v", "OFS=|", "{$1=$1; print}", "c.csv"],
    ["awk", "BEGIN{FS=\",\"} {print $3+0}", "c.csv"],
    ["awk", "$3 == \"NY\"", "d"],
    ["awk", "$2 > 28 {print $1}", "d"],
    ["awk", "/bob/,/carol/", "d"],
    ["awk", "NR==2, NR==3 {print NR, $0}", "d"],
    ["awk", "{a[$3]++} END {n=0; for (k in a) n++; print n, a[\"NY\"]}", "d"],
    ["awk", "{a[$3] = a[$3] \" \" $1} END {print a[\"NY\"]}", "d"],
    ["awk", "BEGIN {printf \"%5.2f|%-6s|%d|%i|%x|%X|%o|%e|%g|%c|%c|%%|%*d|%.3s\\n\", 3.14159, \"ab\", 42.9, -7, 255, "
            "255, 8, 12345.678, 0.0001, 65, \"hi\", 5, 42, \"abcdef\"}"],
    ["awk", "BEGIN {print 2**10, 2^3^2, 7%3, -7%3, int(-3.7), 1e6, 1e20, 0.1+0.2, 1/3, 100/3*3}"],
    ["awk", "BEGIN {x; print x+0, x \"\", length(x); y = \"\"; print (x == 0), (x == \"\")}"],
    ["awk", "BEGIN {print length(\"hello\"), substr(\"hello\", 2), substr(\"hello\", 0, 2), substr(\"hello\", -1, 3), "
            "index(\"banana\", \"an\")}"],
    ["awk", "BEGIN {s = \"hello world\"; n = gsub(/o/, \"[&]\", s); print n, s; sub(/l+/, \"L\", s); print s}"],
    ["awk", "BEGIN {s = \"aaa\"; gsub(/x*/, \"-\", s); print s; t = \"a.b.c\"; gsub(/\\./, \"\\\\&\", t); print t}"],
    ["awk", "BEGIN {print match(\"foobar\", /o+/), RSTART, RLENGTH; print match(\"x\", /y/), RSTART, RLENGTH}"],
    ["awk", "BEGIN {n = split(\"a:b:c\", arr, \":\"); print n, arr[1], arr[3]; n = split(\"  x  y \", w); "
            "print n, w[1] w[2]}"],
    ["awk", "BEGIN {print toupper(\"abc\"), tolower(\"ABC\"), sprintf(\"%03d\", 7)}"],
    ["awk", "BEGIN {CONVFMT=\"%.2g\"; a = 3.14159; b = a \"\"; print b; OFMT=\"%.1f\"; print a, 10}"],
    ["awk", "{ $5 = \"new\"; print; print NF }", "d"],
    ["awk", "{ NF = 2; print }", "d"],
    ["awk", "{ $0 = \"x y z\"; print $2, NF }", "d"],
    ["awk", "NR % 2", "d"],
    ["awk", "!seen[$3]++", "d"],
    ["awk", "{ print length() }", "d"],
    ["awk", "{ print > \"out\" } END { close(\"out\"); while ((getline l < \"out\") > 0) print \"read:\", l }", "d"],
    ["awk", "{ print $1 >> \"out2\" }", "d"],
    ["awk", "NR==1 { while ((getline line) > 0) last = line } END { print last, NR }", "d"],
    ["awk", "NR==1 { getline; print \"after getline:\", $1, NR }", "d"],
    ["awk", "function max(a, b) { return a > b ? a : b } { m = max(m, $2) } END { print m }", "d"],
    ["awk", "function fill(arr, n,   i) { for (i = 1; i <= n; i++) arr[i] = i * i } BEGIN { fill(sq, 5); "
            "print sq[3], length(sq) }"],
    ["awk", "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN { print fib(20) }"],
    ["awk", "BEGIN { for (i = 0; i < 5; i++) { if (i == 1) continue; if (i == 4) break; print i } }"],
    ["awk", "BEGIN { i = 0; do { print i++ } while (i < 3); while (i > 0) i--; print i }"],
    ["awk", "BEGIN { a[1,2] = 3; for (k in a) { split(k, p, SUBSEP); print p[1], p[2] }; "
            "if ((1,2) in a) print \"yes\"; delete a[1,2]; print length(a) }"],
    ["awk", "BEGIN { a[\"x\"]; delete a; print length(a); print (\"x\" in a) }"],
    ["awk", "{ print; next; print \"never\" }", "d"],
    ["awk", "NR == 2 { exit } { print } END { print \"end\", NR }", "d"],
    ["awk", "BEGIN { exit 3 } END { print \"end runs\" }"],
    ["awk", "{ exit 5 }", "d"],
    ["awk", "-f", "prog.awk", "d"],
    ["awk", "-v", "x=5", "BEGIN { print x * 2 }"],
    ["awk", "{ print v, $1 }", "v=1", "d", "v=2", "d"],
    ["awk", "BEGIN { print ARGC, ARGV[1] }", "d", "x"],
    ["awk", "{ print FILENAME, FNR, NR }", "d", "c.csv"],
    ["awk", "BEGIN { RS = \"\" } { print NR \": \" $1 \"/\" NF }", "p"],
    ["awk", "BEGIN { RS = \";\" } { print NR, $0 }"],
    ["awk", "BEGIN { RS = \"[0-9]+\" } { print \"<\" $0 \">\" }"],
    ["awk", "BEGIN { ORS = \"|\" } { print $1 } END { printf \"\\n\" }", "d"],
    ["awk", "$1 ~ /^[ab]/ { print $1 } $1 !~ /a/ { print \"no a:\", $1 }", "d"],
    ["awk", "{ re = \"^c\"; if ($1 ~ re) print }", "d"],
    ["awk", "$1 == 10", "nums"],
    ["awk", "$1 < 9", "nums"],
    ["awk", "{ print ($1 < \"9\") }", "nums"],
    ["awk", "BEGIN { print (\"10\" < \"9\"), (10 < 9), (\"abc\" < \"abd\") }"],
    ["awk", "{ s = s $1 } END { print s }", "nums"],
    ["awk", "BEGIN { printf \"%s %s\\n\", \"only\" }"],
    ["awk", "BEGIN { x = 5; x += 2; x -= 1; x *= 3; x /= 2; x %= 5; x ^= 2; print x; print x++ + ++x, x-- , --x }"],
    ["awk", "BEGIN { print 1 == 1.0, \"a\" \"b\" == \"ab\", 2 < 10, !0, !\"\", !\"a\" }"],
    ["awk", "BEGIN { print substr(\"hello\", 2, 100), substr(\"hello\", 1.5, 2.3) }"],
    ["awk", "BEGIN { print index(\"abc\", \"\"), length(12345), length(1/4) }"],
    ["awk", "BEGIN { printf(\"%d %s\\n\", \"12abc\", 12) }"],
    ["awk", "BEGIN { print -3 % 2, 2 ^ -1, 10 / 4 }"],
    ["awk", "BEGIN { print 1; print 2 > \"/dev/stderr\"; print 3 }"],
    ["awk", "BEGIN { print gensub(/(a)(b)/, \"\\\\2\\\\1\", \"g\", \"abab\") }"],
    ["awk", "BEGIN { srand(1); a = rand(); srand(1); b = rand(); print (a == b), (a < 1), (a >= 0) }"],
    ["awk", "BEGIN { print 1 +"],
    ["awk", "BEGIN { print \"unterminated }"],
    ["awk", "{ print $1 "],
    ["awk", "BEGIN { z = 0; x = 1 / z }"],
    ["awk", "{print}", "missing"],
    ["awk", "BEGIN { getline line < \"missing\"; print (getline line < \"missing\") }"],
    ["awk", "BEGIN { $0 = \"a b c\"; $2 = \"\"; print; print NF }"],
    ["awk", "BEGIN { $3 = \"z\"; print; print NF }"],
    ["awk", "-F:", "{ print $2 }"],
    ["awk", "-F", "[0-9]", "{ print $1 \"-\" $2 }"],
    ["awk", "-F\\t", "{ print $2 }"],
    ["awk", "-Ft", "{ print $2 }"],
    ["awk", "{ $3 = \"\"; print }", "d"],
    ["awk", "BEGIN { n = split(\"\", a); print n, length(a) }"],
    ["awk", "END { print $0, NF }", "d"],
    ["awk", "BEGIN { OFS = \"-\" } { $1 = $1 } 1", "d"],
    ["awk", "BEGIN { if (!(3 in a)) print \"no\"; a[3]; if (3 in a) print \"yes\" }"],
    ["awk", "BEGIN { x[\"a\"] = 1; f(x); print x[\"a\"], x[\"b\"] } function f(arr) { arr[\"b\"] = 2; arr[\"a\"]++ }"],
    ["awk", "BEGIN { printf \"[%5s][%-5d][%05.1f][%+d][% d]\\n\", \"ab\", 3, 2.25, 4, 5 }"],
    ["awk", "BEGIN { print substr(\"abc\", 0), substr(\"abc\", -1), substr(\"abc\", 2, -1) \"|\" }"],
    ["awk", "BEGIN { print length() }"],
    ["awk", "/a/ && /o/ || /dave/", "d"],
    ["awk", "BEGIN { a = \"x\"; a = a a a; print a }"],
    ["awk", "BEGIN { print 1, 2 > \"f1\"; close(\"f1\"); getline z < \"f1\"; print z }"],
    ["awk", "{ print NR, NF }", "p"],
    ["awk", "BEGIN { print index(\"a.b\", \".\") ; print \"a\" > \"/dev/stdout\" }"],
]


@host_tool("gawk")
@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c[1:])[:60] for c in CASES])
def test_awk_like_gawk(argv):
    argv = ["gawk"] + argv[1:]
    assert_like_gnu(argv, FILES, stdin="1;2;3\nab12cd345ef\n4:5:6\nx\ty\tz\n", check_files=True)


def test_number_to_string_rules():
    out, _, _ = run_cmd(["awk", "BEGIN { print 0.1, 1e300*1e300, -0, 3.0, 2^53, 123456789012 }"])
    assert out == "0.1 +inf 0 3 9007199254740992 123456789012\n"


def test_syntax_error_shape():
    out, err, status = run_cmd(["awk", "BEGIN { print 1 +"])
    assert status == 1 and err.startswith("awk: cmd. line:1:") and "unexpected newline" in err
    out, err, status = run_cmd(["awk", "BEGIN { print ) }"])
    assert status == 1 and err.endswith("^ syntax error\n")


def test_parser_precedence():
    out, _, _ = run_cmd(["awk", "BEGIN { print 1 + 2 * 3, (1 + 2) * 3, -2 ^ 2, 2 ^ 3 ^ 2, 1 - 1 - 1, \"a\" 1 + 2 }"])
    assert out == "7 9 -4 512 -1 a3\n"


def test_strnum_comparison_of_fields():
    out, _, _ = run_cmd(["awk", "$1 == $2 { print \"eq\" } $1 != $2 { print \"ne\" }"],
                        stdin="1.0 1\nabc abd\n 2 2.0\n")
    assert out == "eq\nne\neq\n"


MORE_FILES = {"d": DATA, "c.csv": CSV, "pipe": "a|b|c\n1|2|3\n", "semi": "a;b,c\nd,e;f\n",
              "mixed": "10 apples\n3 pears\n25 kiwis\n", "blank": "\n\n  lead and trail  \n",
              "words": "the quick brown fox\njumps over the lazy dog\nthe end\n"}

MORE_CASES = [
    ["awk", "-F|", "{print $2}", "pipe"],
    ["awk", "-F\\\\|", "{print $3}", "pipe"],
    ["awk", "-F[;,]", "{print $2, NF}", "semi"],
    ["awk", "BEGIN{FS=\";|,\"} {print $3}", "semi"],
    ["awk", "{print $(NF-1)}", "d"],
    ["awk", "{NF--; print}", "d"],
    ["awk", "{$NF=\"\"; print; print NF}", "d"],
    ["awk", "{ $2 = $2 * 2 } 1", "mixed"],
    ["awk", "{ x = \"3.0\"; y = 3.0; print x, y, x == y, x + 0 == y }", "mixed"],
    ["awk", "{ print $1 * 1.5, $1 / 4, $1 % 7 }", "mixed"],
    ["awk", "{ printf \"%-8s|%6.2f|%3d%%\\n\", $2, $1 / 3, $1 }", "mixed"],
    ["awk", "{ printf(\"%s=%d\\n\", $2, $1) }", "mixed"],
    ["awk", "{ n = split($0, w, /[aeiou]/); print n, w[1], w[n] }", "words"],
    ["awk", "{ for (i = NF; i > 0; i--) printf \"%s%s\", $i, (i > 1 ? OFS : ORS) }", "words"],
    ["awk", "{ for (i = 1; i <= NF; i++) freq[$i]++ } END { for (w in freq) if (freq[w] > 1) print w, freq[w] }",
     "words"],
    ["awk", "length > 10", "words"],
    ["awk", "length($0) > 10 { print NR }", "words"],
    ["awk", "{ print NF }", "blank"],
    ["awk", "{ print \"[\" $1 \"]\" }", "blank"],
    ["awk", "NF", "blank"],
    ["awk", "END { print NR }", "blank"],
    ["awk", "BEGIN { while ((getline line < \"words\") > 0) n++; print n, NR }"],
    ["awk", "{ getline x < \"mixed\"; print $1, x }", "words"],
    ["awk", "NR == 1 { while ((getline) > 0) c++ } END { print c, NR, $0 }", "words"],
    ["awk", "{ print > ($1 \".out\") } END { close(\"the.out\"); "
            "while ((getline l < \"the.out\") > 0) print \"the:\", l }", "words"],
    ["awk", "BEGIN { printf \"no newline\" }"],
    ["awk", "BEGIN { printf \"%d items\\n\", \"3 items\" }"],
    ["awk", "BEGIN { print index(\"foo\", \"o\"), index(\"foo\", \"x\"), length(\"\") }"],
    ["awk", "BEGIN { print substr(\"hello\", 3), substr(\"hello\", 10), substr(\"hello\", 2, 0) \"|\" }"],
    ["awk", "BEGIN { s = \"a-b-c\"; gsub(\"-\", \"+\", s); print s; gsub(/[+]/, \"\", s); print s }"],
    ["awk", "BEGIN { s = \"foo.bar\"; sub(\".\", \"X\", s); print s; t = \"foo.bar\"; sub(/\\./, \"X\", t); print t }"],
    ["awk", "BEGIN { s = \"aaa\"; print gsub(/a/, \"&&\", s), s }"],
    ["awk", "BEGIN { s = \"hello\"; gsub(/l/, \"\\\\&\", s); print s }"],
    ["awk", "{ sub(/o/, \"0\"); gsub(/e/, \"3\", $2); print }", "words"],
    ["awk", "BEGIN { print match(\"aXbXXc\", /X+/), RSTART, RLENGTH }"],
    ["awk", "BEGIN { print toupper(substr(\"word\", 1, 1)) substr(\"word\", 2) }"],
    ["awk", "BEGIN { a[\"x\"] = 1; a[\"y\"] = 2; delete a[\"x\"]; for (k in a) print k; print length(a) }"],
    ["awk", "BEGIN { a[1]; if (1 in a) print \"in\"; if (!(2 in a)) print \"not in\" }"],
    ["awk", "BEGIN { x = y = 3; print x, y; x += y -= 1; print x, y }"],
    ["awk", "BEGIN { print 1 < 2 ? \"yes\" : \"no\"; print (2 < 1) ? \"yes\" : \"no\" }"],
    ["awk", "BEGIN { print 10 % 3, -10 % 3, 10 % -3, 2 ^ 0.5 }"],
    ["awk", "BEGIN { print 1e3, 1E-2, .5, 5., 012, 1e300 * 1e300 }"],
    ["awk", "BEGIN { print 123456789, 1234567890123, 0.000001, 123.456789 }"],
    ["awk", "BEGIN { x = 0.1; print x * 3, 17 / 7 }"],
    ["awk", "BEGIN { OFMT = \"%.2f\"; x = 3.14159; print x; print x \"\" }"],
    ["awk", "BEGIN { print length(12.50), 12.50 \"\" }"],
    ["awk", "BEGIN { print -0.0001, 1 - 1, -1 * 0 }"],
    ["awk", "BEGIN { print int(3.9), int(-3.9), int(\"4.5abc\") }"],
    ["awk", "BEGIN { print sqrt(16), exp(0), log(1), sin(0), cos(0), atan2(0, -1) }"],
    ["awk", "BEGIN { printf \"%.3e %G %g %g\\n\", 1234.5, 0.00001234, 1e10, 123456789 }"],
    ["awk", "BEGIN { printf \"%5.1s|%.0f|%#o|%#x|%+.2e\\n\", \"abc\", 2.5, 8, 255, 12345 }"],
    ["awk", "BEGIN { printf \"%c\", 10 }"],
    ["awk", "{ printf \"%c|%c|%d|%s\\n\", $1, $2, $2, $1 + 0 }", "chars"],
    ["awk", "BEGIN { printf \"%-*d|\\n\", 5, 42 }"],
    ["awk", "BEGIN { printf \"%s %s %s\\n\", 1, 2.5, \"x\" }"],
    ["awk", "BEGIN { printf \"%d %d\\n\", 2147483648 * 4, -2147483649 }"],
    ["awk", "BEGIN { printf \"%x %o %u\\n\", 3000000000, 9, 42 }"],
    ["awk", "BEGIN { x[1] = 1; f(x) } function f(a,  k) { for (k in a) print k, a[k] }"],
    ["awk", "function g(n,  i, s) { s = \"\"; for (i = 0; i < n; i++) s = s \"*\"; "
            "return s } BEGIN { print g(3), g(0) \"|\" }"],
    ["awk", "function r(n) { if (n > 0) { print n; r(n - 1) } } BEGIN { r(3) }"],
    ["awk", "function noret() { } BEGIN { x = noret(); print \"[\" x \"]\", length(x) }"],
    ["awk", "function inc(a, k) { a[k]++ } { inc(cnt, $1) } END { print cnt[\"the\"] }", "words"],
    ["awk", "BEGIN { if (x == \"\") print \"empty\"; if (x == 0) print \"zero\"; if (!x) print \"false\" }"],
    ["awk", "BEGIN { if (\"0\") print \"string 0 is true\"; if (0) print \"no\"; if (\"\") print \"no\" }"],
    ["awk", "{ if ($1) print \"true:\", $1; else print \"false:\", $1 }"],
    ["awk", "$1 == 0", "nums"],
    ["awk", "$1 == \"10\"", "mixed"],
    ["awk", "$1 > $2", "mixed"],
    ["awk", "{ print ($1 > 5) }", "mixed"],
    ["awk", "{ print $0 ~ /^1/, $0 ~ \"s$\" }", "mixed"],
    ["awk", "$2 ~ /^p/ || $1 > 20", "mixed"],
    ["awk", "!/pear/", "mixed"],
    ["awk", "/apple/, /kiwi/ { print NR }", "mixed"],
    ["awk", "NR==1, /nomatch/", "mixed"],
    ["awk", "BEGIN { RS = \"\"; FS = \"\\n\" } { print NF \": \" $1 }", "p"],
    ["awk", "BEGIN { RS = \"e\" } END { print NR }", "words"],
    ["awk", "BEGIN { RS = \"\"; FS = \",\" } { print NF \": \" $1 \"|\" $2 \"|\" $3 }", "para2"],
    ["awk", "BEGIN { RS = \"\" } { print NF \": \" $1 \"|\" $NF }", "para2"],
    ["awk", "BEGIN { while ((getline < \"words\") > 0) n++; print n, NR, $1 }"],
    ["awk", "-F", " +", "{ print NF }", "blank"],
    ["awk", "-F", "\\\\", "{ print $2 }", "bs"],
    ["awk", "BEGIN { ORS = \"\\n\\n\"; OFS = \"-\" } { print $1, $2 }", "mixed"],
    ["awk", "BEGIN { SUBSEP = \":\"; a[1, 2] = 3; for (k in a) print k }"],
    ["awk", "{ print NR, FNR, FILENAME }", "mixed", "pipe"],
    ["awk", "FNR == 1 { print FILENAME }", "mixed", "pipe", "d"],
    ["awk", "{ nextfile } END { print NR }", "mixed", "pipe"],
    ["awk", "FNR == 2 { nextfile } { print FILENAME, $0 }", "mixed", "pipe"],
    ["awk", "BEGIN { ARGV[1] = \"pipe\" } { print }", "mixed"],
    ["awk", "BEGIN { ARGV[2] = \"pipe\"; ARGC = 3 } { print FILENAME }", "mixed"],
    ["awk", "BEGIN { print ARGV[0], ARGC }", "a", "b"],
    ["awk", "-v", "n=2", "-v", "s=a\\tb", "BEGIN { print n + 1, s }"],
    ["awk", "-v", "FS=,", "{ print $2 }", "c.csv"],
    ["awk", "-vOFS=:", "{ $1 = $1 } 1", "mixed"],
    ["awk", "--", "{ print $1 }", "mixed"],
    ["awk", "-f", "prog.awk", "-f", "prog2.awk", "d"],
    ["awk", "{ print FS }", "FS=,", "c.csv"],
    ["awk", "{ print $1 }", "-"],
    ["awk", "BEGIN { getline; print \"first:\", $0 } { print }"],
    ["awk", "BEGIN { while ((getline line) > 0) last = line; print last }"],
    ["awk", "BEGIN { exit } END { print \"end\" }"],
    ["awk", "BEGIN { exit 1 } END { exit }"],
    ["awk", "{ exit $1 }", "mixed"],
    ["awk", "END { exit 4 }", "mixed"],
    ["awk", "BEGIN { print length() }"],
    ["awk", "BEGIN { x = \"abc\"; print x > \"/dev/stdout\" }"],
    ["awk", "BEGIN { printf \"%s\\n\", \"err\" > \"/dev/stderr\"; print \"out\" }"],
    ["awk", "BEGIN { print \"x\" > \"o1\"; print \"y\" > \"o1\"; close(\"o1\"); print \"z\" >> \"o1\" }"],
    ["awk", "BEGIN { print 1,2 > \"o2\" ; print 3 }"],
    ["awk", "BEGIN { print (1,2) > \"o3\" }"],
    ["awk", "BEGIN { print > \"o4\" }"],
    ["awk", "{ a[NR] = $0 } END { for (i = NR; i >= 1; i--) print a[i] }", "words"],
    ["awk", "BEGIN { n = split(\"3 1 2\", a); for (i = 1; i <= n; i++) s += a[i]; print s, a[1] < a[2] }"],
    ["awk", "BEGIN { print substr(\"abcdef\", 2, 3) substr(\"abcdef\", 5) }"],
    ["awk", "BEGIN { s = sprintf(\"%05d|%-5s|%5.1f\", 42, \"ab\", 3.14159); print s }"],
    ["awk", "BEGIN { print tolower(\"MiXeD 123\"), toupper(\"MiXeD 123\") }"],
    ["awk", "BEGIN { do x++; while (x < 5); print x }"],
    ["awk", "BEGIN { for (;;) { if (++i > 3) break }; print i }"],
    ["awk", "BEGIN { while (i < 3) i++; print i }"],
    ["awk", "BEGIN { for (i = 0; i < 3; i++); print i }"],
    ["awk", "BEGIN {\n  x = 1\n  if (x)\n    print \"one\"\n  else\n    print \"other\"\n}"],
    ["awk", "BEGIN { if (1) print \"a\"; else print \"b\" }"],
    ["awk", "BEGIN { x = 1 # comment\n print x }"],
    ["awk", "BEGIN { s = \"a\" \\\n \"b\"; print s }"],
    ["awk", "BEGIN { print 1,\n 2 }"],
    ["awk", "BEGIN { a = 1; b = 2; print a\" \"b, a b, a-b, a - -b }"],
    ["awk", "BEGIN { print 2 - 1 \" \" 3 }"],
    ["awk", "BEGIN { print 1 \" \" -1 }"],
    ["awk", "BEGIN { x = 5; print x++ x, x }"],
    ["awk", "BEGIN { print !x, !!x, -x, +\"3abc\" }"],
    ["awk", "BEGIN { $0 = \"a b c\"; print NF; NF = 5; print $0 \"|\"; $7 = \"g\"; print; print NF }"],
    ["awk", "BEGIN { getline line < \"nonexistent\"; print \"r\" (getline line < \"nonexistent\") }"],
    ["awk", "{ print $1, $1 + 0, ($1 == 1e1) }", "mixed"],
    ["awk", "BEGIN { x[\"a\"]; print length(x); split(\"\", x); print length(x) }"],
    ["awk", "BEGIN { foo(1) }"],
    ["awk", "BEGIN { x = 1; x[1] = 2 }"],
    ["awk", "BEGIN { getline x < \"d\"; print x; close(\"d\"); getline x < \"d\"; print x }"],
    ["awk", "BEGIN { print substr(\"hello\", \"2\") }"],
    ["awk", "BEGIN { print index(123456, 34) }"],
    ["awk", "BEGIN { print length(a), length(a b) }"],
    ["awk", "{ $3 = sprintf(\"%.1f\", $1 / 3) } 1", "mixed"],
    ["awk", "BEGIN { CONVFMT = \"%d\"; a[1.5] = 1; for (k in a) print k }"],
    ["awk", "BEGIN { a[01] = 1; a[\"01\"] = 2; print a[1], a[\"01\"], length(a) }"],
    ["awk", "BEGIN { print 0x1A, 011, 019, -1e300 * 1e300, log(-1), sqrt(-1), -log(0) }"],
    ["awk", "BEGIN { printf \"%f %d %e|%-6f|%5s\\n\", 1e300*1e300, 1e300*1e300, -1e300*1e300, 1e300*1e300, log(0) }"],
    ["awk", "BEGIN { x = \"0x1A\"; print x + 0, \"011\" + 0; printf \"%#5o|%#o|%-#6o|\\n\", 8, 0, 8 }"],
    ["awk", "BEGIN { printf \"a\\tb\\\\c\\\"d\\/e\\101\\n\" }"],
    ["awk", "BEGIN { print \"a\\qb\" }"],
    ["awk", "/a\\/b/ { print \"slash\" } /\\./ { print \"dot\" }", "pipe"],
    ["awk", "$0 ~ \"a\\\\|b\" { print \"alt\" }", "pipe"],
    ["awk", "BEGIN { r = \"^[0-9]+$\"; print (\"123\" ~ r), (\"12a\" ~ r) }"],
    ["awk", "{ print gensub(/([a-z]+) ([a-z]+)/, \"\\\\2 \\\\1\", 1) }", "words"],
]


@host_tool("gawk")
@pytest.mark.parametrize("argv", MORE_CASES, ids=[" ".join(c[1:])[:70] for c in MORE_CASES])
def test_awk_more_like_gawk(argv):
    files = dict(MORE_FILES, p=FILES["p"], chars="65 abc\n", para2="a,b\nc\n\n\nd\n", bs="x\\y\\z\n",
                 nums="0\n1\n00\n0.0\nx\n", **{"prog.awk": "{ n++ }\n",
                 "prog2.awk": "END { print n, NR }\n"})
    assert_like_gnu(["gawk"] + argv[1:], files, stdin="in1 a\nin2 b\n", check_files=True)


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    '{ gsub(/[\\t]/, "T"); print }',
    '{ gsub(/[\\\\]/, "B"); print }',
    '{ gsub(/[\\]]/, "R"); print }',
    '{ gsub(/[\\/]/, "S"); print }',
    '{ gsub(/\\y/, "|"); print }',
    '{ gsub("[\\\\.]", "D"); print }',
    '{ print match($0, /\\./) }',
])
def test_awk_regex_escapes_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="a\tb\\c]d/e.f\n")


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    "BEGIN { i = 1; a[i++]++; a[i++] += 5; for (k in a) s = s k \"=\" a[k] \" \"; print s, i }",
    "BEGIN { $0 = \"1 2 3\"; i = 1; $(i++) += 10; print; print i; $(++i)++; print }",
    "BEGIN { x[\"k\"] = \"5apples\"; x[\"k\"]++; print x[\"k\"]; print ++x[\"n\"], x[\"n\"]--, x[\"n\"] }",
    "BEGIN { n = 2; n ^= 3; n %= 5; n /= 2; print n; m[1] = 2; m[1] ^= 2; m[1] -= 1; print m[1] }",
])
def test_awk_read_modify_write_like_gawk(prog):
    assert_like_gnu(["gawk", prog])


@host_tool("gawk")
@pytest.mark.parametrize("args", [
    ["-F"], ["--bogus", "1"], ["-q", "1"], ["-vx=1", "BEGIN { print x }"], ["--assign=x=2", "BEGIN { print x }"],
    ["--field-separator=:", "{ print $2 }"], ["-f", "missing.awk"], ["-f"], [], ["-v", "1x=2", "BEGIN { }"],
    ["-e", "BEGIN { print 1 }", "-e", "BEGIN { print 2 }"], ["--version"][:0] + ["--", "BEGIN { print \"dashdash\" }"],
])
def test_awk_options_like_gawk(args):
    assert_like_gnu(["gawk"] + args, stdin="a:b\n")


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    "function g(a) { f(a) } function f(b) { b[1] = 7 } BEGIN { g(x); print x[1], length(x) }",
    "function f(b) { b[\"k\"]++ } function g(a, n) { while (n-- > 0) f(a) } BEGIN { g(c, 3); print c[\"k\"] }",
    "function fill(a, n,  i) { for (i = 1; i <= n; i++) a[i] = i } function sum(a,  k, s) { for (k in a) s += a[k]; "
    "return s } BEGIN { fill(v, 4); print sum(v) }",
    "function f(s) { s = s \"x\"; return s } BEGIN { t = \"a\"; print f(t), t }",
    "function f(a) { split(\"p q r\", a) } BEGIN { f(arr); print arr[3] }",
])
def test_awk_array_parameters_like_gawk(prog):
    assert_like_gnu(["gawk", prog])


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    "{ print length($0), toupper($0), substr($0, 4, 2) }",
    "{ n = split($0, c, \"\"); print n, c[4] }",
    "BEGIN { printf \"%c|%c\\n\", 233, \"\\303\\251\" }",
    "{ print match($0, /.\\251/), RSTART, RLENGTH }",
    "{ gsub(/[^a-z]/, \"?\"); print }",
    "{ print index($0, \"\\251\") }",
    "{ x = \"caf\\303\\251\"; print (x == $1), length(x) }",
])
def test_awk_c_locale_counts_bytes_like_gawk(prog):
    assert_like_gnu(["gawk", prog], stdin="caf\u00e9 na\u00efve\n".encode())


def test_awk_utf8_locale_counts_characters():
    utf8 = dict(DEFAULT_ENV, LC_ALL="C.UTF-8")
    out, _, _ = run_cmd(["awk", "{ print length($0), toupper($1), substr($0, 4, 2) }"],
                        stdin="caf\u00e9 na\u00efve\n", env=utf8)
    assert out == "10 CAF\u00c9 \u00e9 \n"
    out, _, _ = run_cmd(["awk", "-v", "v=\u00e9", "BEGIN { print length(v), v }"], env=utf8)
    assert out == "1 \u00e9\n"
    out, _, _ = run_cmd(["awk", "-v", "v=\u00e9", "BEGIN { print length(v), v }"])
    assert out == "2 \u00e9\n"  # C locale: bytes, and the bytes come out unchanged


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    "BEGIN { split(\"c a b 10 9\", x); n = asort(x); print n, x[1], x[2], x[3], x[5] }",
    "BEGIN { split(\"c a b\", y); m = asorti(y, z); print m, z[1], z[3], y[1] }",
    "BEGIN { a[\"x\"] = 3; a[\"y\"] = 1; n = asort(a, b); print n, b[1], b[2], a[\"x\"] }",
    "BEGIN { print strtonum(\"0x1A\"), strtonum(\"017\"), strtonum(\"12abc\"), strtonum(3.5) }",
    "BEGIN { print and(12, 10), or(12, 10), xor(12, 10), lshift(1, 4), rshift(16, 2), compl(0), and(7, 6, 3) }",
    "BEGIN { print strftime(\"%Y-%m-%d %H:%M:%S\", 0); print strftime(\"%Y\", 86400 * 366, 1) }",
    "BEGIN { print mktime(\"2024 01 02 03 04 05\"), mktime(\"2024 13 01 00 00 00\"), mktime(\"bad\") }",
    "BEGIN { t = systime(); print (t > 1600000000), length(strftime()) > 10 }",
])
def test_awk_gawk_extensions_like_gawk(prog):
    assert_like_gnu(["gawk", prog], check_files=True)


# ---------------------------------------------------------------- gawk's numbers and order
def test_rand_is_gawks_sequence():
    """Values taken from gawk 5.2: the first rand() without srand, srand's returned seeds
    (truncated toward zero, LONG_MIN when out of range), and a seeded int(rand()*N) loop."""
    out, _, _ = run_cmd(["awk", "BEGIN { printf \"%.17g %.17g\\n\", rand(), rand(); "
                         "print srand(-7.9), srand(2^40), srand(1e30), srand(5), srand(5); "
                         "for (i = 0; i < 12; i++) printf \"%d \", int(rand() * 100); print \"\" }"])
    assert out == ("0.92404581539912467 0.59390861929587824\n"
                   "1 -7 1099511627776 -9223372036854775808 5\n"
                   "19 77 47 19 93 74 40 72 53 82 81 64 \n")
    out, _, _ = run_cmd(["awk", "BEGIN { srand(0); a = rand(); srand(123459876); print a, rand(); "
                         "srand(-2147483648); print rand() }"])
    assert out == "0.855566 0.0315347\n0.550394\n"


def test_for_in_order_is_gawks():
    """Orders taken from gawk 5.2: words by its string hash, integers ascending after the
    strings when the first subscript is an integer."""
    out, _, _ = run_cmd(["awk", "BEGIN { n = split(\"the cat and the dog and a bird or two\", w); "
                         "for (i = 1; i <= n; i++) c[w[i]]++; for (k in c) printf \"%s:%d \", k, c[k]; print \"\" }"])
    assert out == "two:1 or:1 the:2 bird:1 a:1 and:2 cat:1 dog:1 \n"
    out, _, _ = run_cmd(["awk", "BEGIN { a[3]; a[\"x\"]; a[1]; a[\"-1\"]; a[20]; a[\"y\"]; a[2]; "
                         "for (k in a) printf \"%s \", k; print \"\" }"])
    assert out == "-1 x y 1 2 3 20 \n"


_WORDS = " ".join(f"w{i * 7919 % 1000}x{i % 13}" for i in range(700))


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    "BEGIN { print rand(), rand(), rand() }",
    "BEGIN { for (s = -40; s < 3000; s += 97.3) { srand(s); x = x \" \" rand() } print x }",
    "BEGIN { print srand(12), srand(4294967297), srand(-1), srand(\"12x\"), srand(2147483648), rand() }",
    "BEGIN { srand(42); for (i = 0; i < 5000; i++) s += int(rand() * 1000); printf \"%d %.17g\\n\", s, rand() }",
    "BEGIN { srand(7); for (i = 0; i < 50; i++) printf \"%d \", int(rand() * 6) + 1; print \"\" }",
    "BEGIN { for (i = 1; i <= 300; i++) a[i]; for (k in a) s = s \" \" k; print s }",
    "BEGIN { for (i = 300; i >= 0; i--) a[i]; for (k in a) s = s \" \" k; print s }",
    "BEGIN { n = split(\"a b c d e f g h i j k l m\", p); for (k in p) printf \"%s=%s \", k, p[k]; print \"\" }",
    "BEGIN { n = split(\"" + _WORDS + "\", w); for (i = 1; i <= n; i++) c[w[i]]++; "
    "for (k in c) printf \"%s:%d \", k, c[k]; print \"\" }",
    "BEGIN { split(\"" + _WORDS + "\", w); for (i = 1; i <= 39; i++) c[w[i]]; for (k in c) printf \"%s \", k; "
                                  "print \"\" }",
    "BEGIN { split(\"" + _WORDS + "\", w); for (i = 1; i <= 40; i++) c[w[i]]; for (k in c) printf \"%s \", k; "
                                  "print \"\" }",
    "BEGIN { a[\"x\"]; a[1]; a[2]; a[\"y\"]; a[-3]; a[\"1.0\"]; a[\"01\"]; for (k in a) printf \"%s \", k; "
    "print \"\" }",
    "BEGIN { a[1]; a[\"x\"]; a[\"y\"]; a[-1]; a[\"z\"]; a[\"foo\"]; a[\"bar\"]; a[-2]; a[0]; "
    "for (k in a) printf \"%s \", k; print \"\" }",
    "BEGIN { a[\"caf\\303\\251\"]; a[\"na\\303\\257ve\"]; a[\"x\"]; a[\"\\344\\270\\255\"]; "
    "for (k in a) printf \"%s \", k; print \"\" }",
    "BEGIN { a[\"k\"]; delete a; a[5]; a[\"z\"]; a[1]; for (k in a) printf \"%s \", k; print \"\" }",
])
def test_awk_numbers_and_order_like_gawk(prog):
    assert_like_gnu(["gawk", prog], check_files=True)


# ---------------------------------------------------------------- pipes stream
def _sh(script: str) -> tuple[str, str, int]:
    from sandbox_kernel.cli import run_script
    from sandbox_kernel.limits import Limits

    out, err, status = run_script(script, limits=Limits(wall_time=20.0))
    return out.decode(), err.decode(), status


def test_getline_from_endless_command_streams():
    # the command never ends: the first lines come while it runs, close() stops it (SIGPIPE)
    out, err, status = _sh("awk 'BEGIN { \"yes\" | getline x; \"yes\" | getline y; print x y, close(\"yes\") }'")
    assert (out, err, status) == ("yy 141\n", "", 0)
    out, _, status = _sh("awk 'BEGIN { \"seq 1000000000\" | getline; print $0, NR }'")
    assert (out, status) == ("1 0\n", 0)  # stopped at exit; gawk leaves NR alone here


def test_getline_from_command_status_and_reopen():
    out, _, _ = _sh("awk 'BEGIN { c = \"echo hi; exit 3\"; c | getline x; print x, close(c), close(c); "
                    "while ((\"seq 3\" | getline n) > 0) s = s n; print s, close(\"seq 3\") }'")
    assert out == "hi 3 -1\n123 0\n"


def test_print_to_command_streams():
    # head ends early: awk is told at its next write instead of buffering forever (as gawk)
    out, err, status = _sh("awk 'BEGIN { while (1) print \"y\" | \"head -2\" }'")
    assert out == "y\ny\n" and status == 2
    assert err == "awk: cmd. line:1: fatal: print to \"head -2\" failed: Broken pipe\n"


def test_pipe_output_order_like_gawk():
    """stdout is flushed when an output pipe opens and by close(); at exit the pipes are
    closed (newest first) before awk's own buffered output goes out."""
    out, _, _ = _sh("awk 'BEGIN { print \"a\"; print \"b\" | \"cat\"; print \"c\" }'")
    assert out == "a\nb\nc\n"
    out, _, _ = _sh("awk 'BEGIN { print \"a\"; print \"b\" | \"cat\"; print \"c\"; close(\"cat\"); print \"d\" }'")
    assert out == "a\nc\nb\nd\n"
    out, _, _ = _sh("awk 'BEGIN { print \"a\"; print \"b\" | \"sort\"; print \"c\"; print \"d\" | \"cat\" }'")
    assert out == "a\nc\nd\nb\n"
    out, _, _ = _sh("awk 'BEGIN { print \"x\" | \"cat; exit 3\"; print close(\"cat; exit 3\") }'")
    assert out == "x\n3\n"


def _columns_data() -> str:
    """~300 KB over several 64 KiB reads: numbers, numeric prefixes, signed inf/nan, missing
    fields, blank and leading-blank lines; one block with a carriage return (no columns)."""
    import random

    rng = random.Random(18)
    toks = ["1", "22", "-3", "+4", "0.5", ".5", "5.", "1e3", "1e", "2E-2", "0x1A", "007",
            "abc", "12abc", "-", ".", "3,4", "1.2.3", "9" * 25, "-0", "+", "e5"]
    rare = ["+inf", "-nan", "1e400", "-INF", "+NaN", "inf", "nan"]  # only ever in field 2

    def field(k: int) -> str:
        return rng.choice(rare) if k == 1 and rng.random() < 0.05 else rng.choice(toks)

    lines = []
    for i in range(30000):
        sep = rng.choice([" ", "  ", "\t", " \t "])
        line = rng.choice(["", "", " ", "\t"]) + sep.join(field(k) for k in range(rng.randint(0, 5)))
        lines.append(line + ("\r" if i == 15000 else ""))
    return "\n".join(lines) + "\n"


@host_tool("gawk")
@pytest.mark.parametrize("prog", [
    ["{s+=$1} END{print s}"],
    ["{s+=$3; t+=$1} END{print s, t, $0}"],
    ["{s+=$4; n++} END{printf \"%.17g %d %d\\n\", s, n, NR}"],
    ["{v=$2+0; if (v > 1e308) i++; else if (v < -1e308) j++; else if (v != v) n++; else s+=v} END{print i, j, n, s}"],
    ["-F,", "{s+=$3} END{print s, $1}"],
    ["-F\t", "{s+=$3; c+=$1} END{print s, c}"],
    ["BEGIN{FS=\",\"} {s+=$1} END{print s}"],
    ["{s+=$3} NR==20000{exit} END{print s, NR, $0}"],
    ["{if ($1 > 5) next; s += $3} END{print s}"],
    ["{s+=$1} FNR==3{nextfile} END{print s, NR}"],
    ["{v=$3; s+=v+$4} END{print s}"],
])
def test_numeric_columns_like_gawk(prog):
    """Numbers of fields read per batch from one regex scan (columns), NR counted per batch,
    $0 left unset when the rules read only numbers: the same sums as gawk, across reads."""
    data = _columns_data()
    files = {"f": data, "g": data[:5000], "c": data.replace(" ", ",")}
    operands = ["c"] if "-F," in prog or "BEGIN{FS" in prog[0] else ["f", "g"]
    assert_like_gnu(["gawk", *prog, *operands], files)


@pytest.mark.parametrize("prog,word", [("{break}", "break"), ("BEGIN{continue}", "continue"),
                                       ("function f(){break} {f()}", "break")])
def test_break_outside_a_loop_is_an_error_like_gawk(prog, word):
    out, err, status = run_cmd(["awk", prog], "a\n")
    where = "a loop or switch" if word == "break" else "a loop"
    assert (out, status) == ("", 1)
    assert err == f"awk: cmd. line:1: error: `{word}' is not allowed outside {where}\n" * 2
