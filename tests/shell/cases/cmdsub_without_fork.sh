# command substitutions that may run without a fork read and leave the shell as a fork would
x=$(echo $BASHPID); [ "$x" != "$BASHPID" ] && echo "own pid"
echo "level $(echo $BASH_SUBSHELL) $BASH_SUBSHELL"
true last; y=$(echo a b | tr a-z A-Z); echo "$y [$_]"
false | true; z=$(echo q | false); echo "status $? pipe ${PIPESTATUS[*]}"
u=$(echo ${missing:?gone} | cat); echo "after error: $?"
v=$(basename ${missing2:?also gone}); echo "after error: $?"
w=$(echo "$(echo inner | tr i I)" | tr n N); echo "$w"
echo "line $(echo $LINENO) $LINENO"
f() { echo "in f: $(echo "$1" | tr a-z A-Z) $(basename /x/"$1")"; }; f abc
for n in 1 2 3; do s=$(printf '%s-' "$n" | tr - +); echo -n "$s"; done; echo
set -o errexit; e=$(echo "$-" | tr -d a-z); echo "errexit dash: [$e]"; set +o errexit
shopt -s inherit_errexit; set -e; e=$(echo "$SHELLOPTS" | tr : '\n' | grep -c errexit); echo "inherited: $e"; set +e
set -u; m=$(echo "$nope" 2>&1 | cat); echo "nounset: $? [$m]"
