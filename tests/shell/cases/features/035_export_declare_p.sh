export FOO=1; declare -p FOO
