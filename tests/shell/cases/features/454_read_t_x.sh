read -t 0 <<< "x"; echo rc=$?
