help nonexistent_builtin; echo rc=$?
