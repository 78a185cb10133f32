declare -x EXP=1; env | grep -c '^EXP='
