echo $(true) $?
