[[ 1+1 -eq 2 ]] && echo arith-in-cond
