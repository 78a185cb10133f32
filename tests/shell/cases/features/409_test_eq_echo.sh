test 5 -eq 5; echo $?; test 5 -eq 6; echo $?
