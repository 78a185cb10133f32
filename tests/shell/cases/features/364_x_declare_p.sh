x=1; declare -p x y 2>/dev/null; echo rc=$?
