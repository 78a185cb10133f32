source /nonexistent 2>/dev/null; echo rc=$?
