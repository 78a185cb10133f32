# name=$(...) compiled: status, errors, append, readonly, "$(...)", nested, errexit
a=$(echo one); echo "$a $?"
a=$(false); echo "status $?"
a+=$(echo two); echo "$a"
b="$(printf 'x\n\n')"; echo "[$b]"
readonly r=1; r=$(echo no); echo "after readonly $?"
c=$(echo "$(echo inner)"); echo "$c"
d=$(exit 7); echo "exit $?"
f() { local v; v=$(echo "in f"); echo "$v"; g=$(return 3 2>/dev/null; echo after); echo "g=$g $?"; }; f
i=0; while [ $i -lt 3 ]; do n=$(echo $i); i=$((n + 1)); done; echo "i=$i"
x=$(echo a; echo b >&2) 2>/dev/null; echo "x=$x"
declare -i num; num=$(echo 2+3); echo "num=$num"
declare -u up; up=$(echo low); echo "up=$up"
arr=(1 2); arr=$(echo new); declare -p arr
set -e; e=$(true); echo "errexit ok"; (e=$(false); echo unreached); echo "subshell status $?"
