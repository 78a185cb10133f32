test -e /nonexistent; echo $?
