readonly r=1; declare -p r
