[ -z "" ] && echo empty
[ -n "x" ] && echo nonempty
[ "a" = "a" ] && echo equal
[ "a" != "b" ] && echo noteq
[ 3 -gt 2 ] && echo gt
[ ! 3 -lt 2 ] && echo not-lt
[ -d /tmp ] && echo dir
touch f1; [ -f f1 ] && echo file
[ -e nothere ] || echo missing
[ 1 -eq 1 -a 2 -eq 2 ] && echo and
[ 1 -eq 2 -o 2 -eq 2 ] && echo or
test -s f1 || echo zero-size
[ \( 1 -eq 1 \) ] && echo parens
