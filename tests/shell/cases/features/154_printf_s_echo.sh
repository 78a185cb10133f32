printf '%s' ; echo rc=$?
