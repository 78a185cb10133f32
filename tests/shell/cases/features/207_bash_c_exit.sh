bash -c 'exit 4'; echo $?
