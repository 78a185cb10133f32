echo "x" | read -t 1 v; echo rc=$?
