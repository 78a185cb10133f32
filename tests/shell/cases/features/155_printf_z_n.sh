printf '%z\n' 1; echo rc=$?
