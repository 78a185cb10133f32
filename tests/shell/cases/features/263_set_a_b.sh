set -- "a b" "c d"; IFS=; echo $*; for x in $*; do echo "[$x]"; done
