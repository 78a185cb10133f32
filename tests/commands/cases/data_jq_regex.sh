# jq: regexes as jq 1.6 runs Oniguruma: the global search loop (an empty match has no
# captures, the next search starts one past where the last began, none past the end), an
# unmatched or empty capture's keys in 1.6's order, sub/gsub recursing on the rest of the
# string with every output of the replacement, flags, and 1.6's messages
jq -nc '"abc" | [match("( )*"; "g")], [match(""; "g") | .offset]'
jq -nc '"foo bar foo foo  foo" | [match("foo (?<bar123>bar)? foo"; "ig")]'
jq -nc '"ab" | [match("(?=b)"; "g") | .offset], ("baaa" | [match("a*"; "n"), match("a*"; "gn")] | map(.offset))'
jq -nc '"xyz" | [match("(?<a>q)?y") | .captures], [match("(?<a>)y") | .captures], capture("(?<a>)y")'
jq -nc '"a\nb" | test("a.b"; "s"), test("a.b"; "p"), test("^b"), test("a$"), ("b\n" | test("b$"))'
jq -nc '"test" | (try match(1) catch .), (try match([]) catch .), (try match(1; null) catch .), (try match("t"; "q") catch .)'
jq -nc '"test" | (try test("(") catch .), (try test("[") catch .), (try test(")") catch .), (try test("*a") catch .), (try test("a{2,1}") catch .)'
jq -nc '"a,b, c" | [splits(", *")], split(", *"; null), ("abc" | [splits("")]), (try [splits("b"; 1)] catch .)'
jq -nc '"aaa" | gsub("^a"; "b"), gsub("a"; "b"), ("abc" | gsub("$"; "-"), sub(""; "-")), ("a" | gsub("$"; "a"; "g"))'
jq -nc '"aB" | [sub("(?<a>.)"; "\(.a|ascii_upcase)", "\(.a|ascii_downcase)", "c")]'
jq -nc '[("p", "pp") | gsub("p"; "a", "b")], ("a" | [sub("a"; "b", "c")]), ("test" | [sub("t"; "x"; "g", "")])'
jq -nc '"abcb" | (try gsub("b"; 1) catch .), gsub("b"; null), gsub("(?<x>b)"; "[\(.x)]"), sub("B"; "x"; "i"), [sub(["T","i"]; "x")]'
jq -nc '"tEsT" | gsub("t"; "x"; "i"), ("  a  b  " | gsub("^\\s+|\\s+$"; "")), ("a.b.c" | gsub("\\."; "/"))'
jq -nc '"xyz" | [scan("(.)(.)")], [scan("(?<a>x)?y")], [scan(".")]'
jq -nc '[range(2000)] | map(tostring) | join(",") | (gsub(","; ";") | length), ([match(","; "g")] | length)'
