set -x
x=$(echo hi)
f() { echo "in f"; }
f a 'b c'
[[ -n $x ]]
set +x
