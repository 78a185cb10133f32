local x=1; echo rc=$?
