hash ls; echo rc=$?
