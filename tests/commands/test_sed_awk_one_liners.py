"""Famous sed and awk one-liners against GNU sed and gawk on the same input."""
from __future__ import annotations

import pytest

from tests.support.prereqs import host_tool

from .helpers import assert_like_gnu

OL_TEXT = b"one two three\nfour five\n\n\nsix seven eight nine\n  ten  \neleven\ntwelve thirteen\n\nfourteen\n"
OL_NUMS = b"".join(b"%d\n" % i for i in [5, 3, 10, 1, 7, 3, 8])
OL_CSV = b'name,age,city\n"Smith, J",42,NYC\nDoe,37,"LA"\n'
OL_FILES = {"t": OL_TEXT, "n": OL_NUMS, "c": OL_CSV}
ONE_LINERS = [
 # sed one-liners
 ["sed", "G", "t"], ["sed", "n;d", "t"], ["sed", "/^$/d;G", "t"], ["sed", "=", "t"],
 ["sed", "-n", "$=", "t"], ["sed", "s/^[ \t]*//", "t"], ["sed", "s/[ \t]*$//", "t"],
 ["sed", "-e", ":a", "-e", "s/^.\\{1,30\\}$/ &/;ta", "t"],
 ["sed", "1!G;h;$!d", "t"], ["sed", "/\\n/!G;s/\\(.\\)\\(.*\\n\\)/&\\2\\1/;//D;s/.//", "t"],
 ["sed", "$!N;$!D", "t"], ["sed", "$!d", "t"], ["sed", "-n", "$p", "t"], ["sed", "2q", "t"],
 ["sed", "-e", ":a", "-e", "$q;N;11,$D;ba", "t"], ["sed", "$!N; /^\\(.*\\)\\n\\1$/!P; D", "t"],
 ["sed", "-n", "G; s/\\n/&&/; /^\\([ -~]*\\n\\).*\\n\\1/d; s/\\n//; h; P", "t"],
 ["sed", "/^$/N;/\\n$/D", "t"], ["sed", "/./,/^$/!d", "t"],
 ["sed", "-e", ":a", "-e", "/^\\n*$/{$d;N;ba", "-e", "}", "t"],
 ["sed", "n;n;n;n;G;", "t"], ["sed", "/four/,/six/{//!d}", "t"], ["sed", "-n", "/four/{n;p}", "t"],
 ["sed", "s/\\(.*\\)e/\\1E/", "t"], ["sed", "y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/", "t"],
 ["sed", "-E", ":a;s/^([^,]*),/\\1|/;ta", "c"], ["sed", "1~3d", "t"], ["sed", "-n", "2~3p", "t"],
 ["sed", "$!{N};P;D", "t"], ["sed", "-n", "/^$/{p;h;};/./{x;/./p;}", "t"],
 ["sed", "s/e/&\\n/g;P;D", "t"],
 # awk one-liners
 ["gawk", "1; { print \"\" }", "t"], ["gawk", "BEGIN { ORS = \"\\n\\n\" }; 1", "t"],
 ["gawk", "NF { $0 = ++a \" :\" $0 }; { print }", "t"], ["gawk", "{ print NF \":\" $0 }", "t"],
 ["gawk", "{ sub(/^[ \\t]+/, \"\"); print }", "t"], ["gawk", "{ $1 = $1; print }", "t"],
 ["gawk", "{ printf(\"%5d : %s\\n\", NR, $0) }", "t"], ["gawk", "END { print NR }", "t"],
 ["gawk", "{ total = total + NF }; END { print total }", "t"], ["gawk", "/t/ { n++ }; END { print n+0 }", "t"],
 ["gawk", "$1 > max { max = $1; maxline = $0 }; END { print max, maxline }", "n"],
 ["gawk", "{ print $NF }", "t"], ["gawk", "NF > 2", "t"],
 ["gawk", "{ for (i = NF; i > 0; i--) printf(\"%s \", $i); print \"\" }", "t"],
 ["gawk", "!a[$0]++", "n"], ["gawk", "NR % 2 == 0", "t"],
 ["gawk", "{ a[i++] = $0 } END { for (j = i - 1; j >= 0;) print a[j--] }", "t"],
 ["gawk", "{ $NF = \"\"; print }", "t"], ["gawk", "{ s += $1 } END { print s, s / NR, NR }", "n"],
 ["gawk", "BEGIN { FS = \",\" } { print $2 }", "c"], ["gawk", "-F,", "{ print NF }", "c"],
 ["gawk", "{ print length($0), $0 }", "t"], ["gawk", "length > 12", "t"],
 ["gawk", "{ gsub(/[aeiou]/, \"\"); print }", "t"], ["gawk", "{ n = gsub(/e/, \"E\"); print n, $0 }", "t"],
 ["gawk", "NR == 3, NR == 6", "t"], ["gawk", "/four/, /six/ { print NR \": \" $0 }", "t"],
 ["gawk", "{ print substr($0, 2, 4) }", "t"], ["gawk", "{ printf \"%-10s|\\n\", $1 }", "t"],
 ["gawk", "BEGIN { while ((getline line < \"n\") > 0) s += line; print s }"],
 ["gawk", "{ sum = 0; for (i = 1; i <= NF; i++) sum += length($i); print sum }", "t"],
 ["gawk", "{ $2 = \"\"; print }", "t"], ["gawk", "{ print toupper(substr($0,1,1)) substr($0,2) }", "t"],
 ["gawk", "{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }", "n"],
 ["gawk", "{ if (NR > 1) printf \",\"; printf \"%s\", $1 } END { print \"\" }", "n"],
 ["gawk", "BEGIN { OFS = \"\\t\" } { $1 = $1 } 1", "t"],
 ["gawk", "{ c[$1]++ } END { for (k in c) if (c[k] > 1) print k, c[k] }", "n"],
 ["gawk", "BEGIN { printf \"%.2f %.0e %5.1f%%\\n\", 3.14159, 12345, 99.44 }"],
 ["gawk", "{ x[NR] = $1 } END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) "
          "{ t = x[i]; x[i] = x[j]; x[j] = t } for (i = 1; i <= n; i++) printf \"%s \", x[i]; print \"\" }", "n"],
 ["gawk", "function join(a, n, sep,   i, s) { s = a[1]; for (i = 2; i <= n; i++) s = s sep a[i]; "
          "return s } { n = split($0, w); print join(w, n, \"-\") }", "t"],
 ["gawk", "BEGIN { str = \"a.b.c\"; n = split(str, parts, \".\"); print n, parts[1] parts[2] parts[3] }"],
 ["gawk", "BEGIN { printf \"%s\\n\", substr(\"hello world\", index(\"hello world\", \"o\")) }"],
 ["gawk", "{ print ($1 % 2 ? \"odd\" : \"even\") }", "n"],
 ["gawk", "{ printf \"%s%s\", (NR == 1 ? \"\" : \" \"), $0 } END { printf \"\\n\" }", "n"],
 ["gawk", "BEGIN { x = 010; y = \"010\"; print x, y + 0, x == y }"],
 ["gawk", "{ print $1 == $1 + 0 ? \"num\" : \"str\" }", "t"],
 ["gawk", "BEGIN { RS = \"\" } { print NR \": \" NF }", "t"],
 ["gawk", "BEGIN { RS = \"\"; ORS = \"\\n---\\n\" } 1", "t"],
]


@host_tool("gawk")
@pytest.mark.parametrize("argv", ONE_LINERS, ids=[" ".join(c[1:])[:60] for c in ONE_LINERS])
def test_one_liner_like_gnu(argv):
    assert_like_gnu(argv, OL_FILES)
