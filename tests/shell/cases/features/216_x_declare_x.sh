x=1; declare +x x; declare -p x
