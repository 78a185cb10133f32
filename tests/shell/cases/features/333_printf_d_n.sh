printf '%d\n' 3.7 2>/dev/null; echo rc=$?
