[[ 05 -eq 5 ]] && echo eq5
