# a warning the expansion of [[ ]] or (( )) makes (an out-of-range element) is printed before
# the command's status counts, so also when errexit then ends the shell
exec 2>&1
a=(1 2 3)
[[ ${a[-5]} ]]; echo "[[ ]] $?"
(( ${a[-4]} + 1 )); echo "(( )) $?"
(set -e; x=1; (( ${a[-5]} + 0 )); echo "not here"); echo "subshell $?"
set -e; x=1; [[ $x == ${a[-5]} ]]; echo "not here"
