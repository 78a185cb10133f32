# what a for loop binds: a readonly name ends the loop, a nameref names each word in turn
x=1; y=2; declare -n ref=t; for ref in x y; do echo "$ref ${!ref}"; done; echo "t=[$t]"; declare -p ref
declare -n r2=z; ( for r2 in x; do :; done; declare -p r2 ); declare -p r2
f() { local l; for l in 1 2; do :; done; echo "$l"; }; f; echo "${l-unset}"
declare -i n; for n in 1+1 3; do echo "$n"; done
readonly r=1; for r in a b; do echo "$r"; done 2>/dev/null; echo "st $?"
# the words: "$@", arithmetic with side effects before a word only the general expander does
set -- a "b c" d; for x in "$@"; do echo "[$x]"; done; g() { for y in "$@" end; do echo "<$y>"; done; }; g 1 "2 3"
set --; for z in "$@"; do echo never; done; i=0; for w in $((i++)) $((i++)) ${q:-x} $(echo sub) {a,b}; do echo "$w"; done; echo "$i"
( set -u; for v in "$@"; do :; done; echo ok )
