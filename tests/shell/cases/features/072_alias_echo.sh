alias; echo $?
