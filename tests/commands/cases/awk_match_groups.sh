# awk: gawk's match() with a third argument (groups, their starts and lengths)
awk 'BEGIN{ if (match("a.123", /\.([0-9]+)/, m)) print m[1], m[1,"start"], m[1, "length"], m[0]; print length(m)}'
awk 'BEGIN{ if (match("ab", /(x)?(a)(b)/, m)) for (k in m) { split(k, p, SUBSEP); print p[1] "," p[2], "=" m[k] } }' | sort
awk 'BEGIN{ m["old"]=1; match("zz", /a/, m); print length(m), RSTART, RLENGTH }'
echo 'x=12 y=345' | gawk '{ while (match($0, /([a-z])=([0-9]+)/, g)) { print g[1], g[2] + 1; $0 = substr($0, RSTART + RLENGTH) } }'
awk 'BEGIN { r = "(o+)"; match("foo", r, a); print a[1], a[1, "start"] }'
awk 'BEGIN { match("foo", /o/, 3) }'; echo $?
awk 'function f(s,  arr) { match(s, /(b+)/, arr); return arr[1] } BEGIN { print f("abbbc") }'
