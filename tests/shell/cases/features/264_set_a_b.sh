set -- "a b" "c d"; unset IFS; for x in $*; do echo "[$x]"; done
