# commands that must wait (pipelines, echo into a pipe, return, read from a pipe) in the middle
# of compiled lists, conditions, case bodies and function bodies: the rest still runs in order
if echo a | grep -q a && [ 1 -eq 1 ]; then echo "if-pipe"; fi
x=0; echo one | { read v; x=$v; echo "in-group $x"; }; echo "after $x"
f() { local n=$1; echo "f $n" | cat; [ $n -gt 0 ] && return $((n+1)); echo unreached-for-positive; }
f 0; echo "f0 $?"; f 2; echo "f2 $?"
for i in 1 2 3; do case $i in 1) echo "case $i" | tr a-z A-Z;& 2) echo fall-$i;; *) printf '%s\n' "default $i" | cat;; esac; done
n=0; while echo tick | grep -q t && [ $n -lt 3 ]; do n=$((n+1)); done; echo "while $n"
true && echo "and" | cat || echo never; false || echo "or" | cat && echo "then"
{ echo brace | cat; false; } || echo "brace failed $?"
trap 'echo "ERR $?"' ERR; g() { echo g | cat; false; echo "after false"; }; g; trap - ERR
set -e; h() { echo h | cat; true; }; h; echo "errexit survived"
printf 'a\nb\nc\n' | while read l; do [ "$l" = b ] && continue; echo "line $l" | cat; done
k=0; for ((i=0; i<200000; i++)); do k=$((k+1)); done; echo "long loop $k"
