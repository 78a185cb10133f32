true --help; echo $?
