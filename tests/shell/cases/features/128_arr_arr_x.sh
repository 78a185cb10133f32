arr=(); arr[5]=x; echo ${#arr[@]} ${!arr[@]}
