jobs; echo rc=$?
