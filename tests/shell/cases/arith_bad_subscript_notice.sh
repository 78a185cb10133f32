# "bad array subscript" for a negative index past the start is said (and the value is 0)
# wherever arithmetic reads it: $(( )), (( )), let, [[ ]], for (( )), a case word, a default
exec 2>&1
a=(x)
echo "[$((a[-2]))] $?"
x=$((a[-3])); echo "x=$x"
(( a[-2] )); echo "(( )) $?"
let "a[-2]"; echo "let $?"
[[ a[-2] -eq 0 ]]; echo "[[ ]] $?"
for ((i=a[-2]; i<1; i++)); do echo "for $i"; done
case $((a[-2])) in 0) echo zero;; esac
echo "${u:-$((a[-2]))}"
f() { echo "f $*"; }
f $((a[-2])) >/dev/null; echo after f
(( a[-2] )) || echo "or branch"
(( a[-2] ))
