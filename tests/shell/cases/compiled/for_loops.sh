# for loops run compiled while each body finishes at once: break/continue (also to outer
# loops), a body that must wait, readonly names, a DEBUG trap set inside, "$@", nesting
for x in a b c d; do [ $x = b ] && continue; [ $x = d ] && break; echo "x=$x"; done; echo "status $? x=$x"
for i in 1 2; do for j in 1 2 3; do [ $j = 2 ] && continue 2; echo "$i$j"; done; echo never; done; echo "after $i$j"
for i in 1 2; do for j in 1 2 3; do [ $i$j = 12 ] && break 2; echo "$i$j"; done; done; echo "broke at $i$j"
for w in one two three; do echo "$w" | tr a-z A-Z; [ $w = two ] && break; done
for w in one two; do echo "$w" | cat; echo "then $w"; done
f() { for a in "$@"; do [ "$a" = stop ] && return 7; echo "arg $a"; done; echo "no stop"; }; f p q stop r; echo "f $?"; f p; echo "f $?"
readonly ro=1; for ro in 1 2; do echo "in $ro"; done; echo "readonly status $?"
for k in 1 2 3; do [ $k = 2 ] && trap 'echo "debug $BASH_COMMAND" >&2' DEBUG; : "$k"; done 2>&1 | grep -c debug; trap - DEBUG
for n in 1 2 3; do false; done; echo "last status $?"
for n in; do echo never; done; echo "empty $?"
set -- "a b" c; for p; do echo "[$p]"; done; for p in "$@"; do echo "<$p>"; done
for i in 1 2 3; do break; done; break 2>/dev/null; echo "break outside $?"
out=$(for i in 1 2 3; do echo -n "$i"; done); echo "subst $out"
for i in $(seq 1 3); do (( i == 2 )) && continue; echo "seq $i"; done
for i in a b; do for j in c d; do echo "$i$j"; done; done | paste -sd,
c=0; for x in $(seq 1 5000); do c=$((c + x)); done; echo "sum $c"
