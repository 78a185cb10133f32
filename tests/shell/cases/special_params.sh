set -- a "b c" d
echo "$#"
echo "$1 $2 $3"
for a in "$@"; do echo "[$a]"; done
for a in $@; do echo "<$a>"; done
for a in "$*"; do echo "{$a}"; done
IFS=,; echo "$*"; IFS=' '
echo "${@:2}"
echo "${@:1:2}"
