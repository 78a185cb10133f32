arr=([3]=c [1]=a); echo ${arr[@]} ${!arr[@]} ${#arr[@]}
