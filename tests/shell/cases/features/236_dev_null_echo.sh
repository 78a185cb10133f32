. 2>/dev/null; echo rc=$?
