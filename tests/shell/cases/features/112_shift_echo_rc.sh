shift 5; echo rc=$?
