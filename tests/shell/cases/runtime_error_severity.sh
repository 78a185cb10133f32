# which run-time errors end the script, the line, or only the command (bash's choices)
bash -c 'case $((1/0)) in *) echo no;; esac; echo same-line
echo next-line=$?' 2>/dev/null
bash -c 'for ((i = 0; i < 1/0; i++)); do :; done; echo same-line=$?' 2>/dev/null
bash -c 'readonly r=1
r=2; echo same-line
echo next-line=$?' 2>/dev/null
bash -c 'set -e; readonly r=1
r=2
echo not reached' 2>/dev/null; echo "errexit readonly=$?"
bash -c 'set -o posix; readonly r=1
r=2
echo not reached' 2>/dev/null; echo "posix readonly=$?"
bash -c 'set -e; x=$((1/0))
echo arith-does-not-trip-errexit' 2>/dev/null
bash -c 'set -u; echo $nope' 2>/dev/null; echo "nounset=$?"
bash -c 'set -eu; echo $nope' 2>/dev/null; echo "nounset errexit=$?"
bash -c 'set -u; (echo $nope); echo "subshell=$?"' 2>/dev/null
printf 'echo (\n' > bad.sh
bash -c '. ./bad.sh; echo "sourced syntax error=$?"' 2>/dev/null
bash -c 'eval "echo ("; echo "eval syntax error=$?"' 2>/dev/null
bash -c 'f() { echo hi; } > "$empty"; f; echo "function redirect=$?"' 2>/dev/null
bash -c 'shopt -s failglob
for x in *.none; do :; done
echo "failglob for=$?"' 2>/dev/null
bash -c 'set -e; shopt -s failglob
for x in *.none; do :; done
echo not reached' 2>/dev/null; echo "errexit failglob for=$?"
