set -- 1 2 3 4 5; echo ${@: -2}; echo ${*:2:2}; echo ${@:0:1}
